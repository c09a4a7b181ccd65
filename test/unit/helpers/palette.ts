/** A light theme for drawing the Inspector's charts in tests (colours only need to be distinct). */
import type { Palette } from '../../../media/src/inspector/theme';

export const testPalette: Palette = {
  kind: 'light',
  fg: '#000',
  bg: '#fff',
  muted: '#888',
  grid: '#ddd',
  font: '12px sans-serif',
  series: ['#00f', '#f00'],
  blue: '#00f',
  red: '#f00',
  green: '#0f0',
  yellow: '#ff0',
  orange: '#f80',
  purple: '#80f',
};
