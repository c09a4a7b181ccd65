/**
 * Chart colours from the VS Code theme. uPlot draws on a canvas, which cannot inherit CSS, so the
 * page reads the `--vscode-*` variables with getComputedStyle and redraws when they change
 * (VS Code swaps the body class and the inline variables on theme change). The standalone export
 * defines the same variables itself (light and dark via prefers-color-scheme).
 */
export interface Palette {
  kind: 'light' | 'dark' | 'high-contrast';
  fg: string;
  bg: string;
  muted: string;
  grid: string;
  font: string;
  series: string[];
  blue: string;
  red: string;
  green: string;
  yellow: string;
  orange: string;
  purple: string;
}

function cssVar(style: CSSStyleDeclaration, name: string, fallback: string): string {
  const v = style.getPropertyValue(name).trim();
  return v || fallback;
}

export function themeKind(body: HTMLElement): Palette['kind'] {
  const c = body.classList;
  if (c.contains('vscode-high-contrast') || c.contains('vscode-high-contrast-light')) return 'high-contrast';
  if (c.contains('vscode-light')) return 'light';
  if (c.contains('vscode-dark')) return 'dark';
  return window.matchMedia && window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

export function readPalette(): Palette {
  // VS Code puts the variables on <html>; the standalone page on <body>: body sees both.
  const style = getComputedStyle(document.body);
  const kind = themeKind(document.body);
  const dark = kind !== 'light';
  const fg = cssVar(style, '--vscode-editor-foreground', dark ? '#cccccc' : '#333333');
  const blue = cssVar(style, '--vscode-charts-blue', dark ? '#3794ff' : '#1a85ff');
  const red = cssVar(style, '--vscode-charts-red', dark ? '#f14c4c' : '#e51400');
  const green = cssVar(style, '--vscode-charts-green', dark ? '#89d185' : '#388a34');
  const yellow = cssVar(style, '--vscode-charts-yellow', dark ? '#cca700' : '#bf8803');
  const orange = cssVar(style, '--vscode-charts-orange', dark ? '#d18616' : '#d18616');
  const purple = cssVar(style, '--vscode-charts-purple', dark ? '#b180d7' : '#652d90');
  return {
    kind,
    fg,
    bg: cssVar(style, '--vscode-editor-background', dark ? '#1e1e1e' : '#ffffff'),
    muted: cssVar(style, '--vscode-descriptionForeground', dark ? '#9d9d9d' : '#717171'),
    // Grid lines stay faint whatever the theme's line colour (high-contrast themes use pure white).
    grid: withAlpha(cssVar(style, '--vscode-charts-lines', 'rgb(128,128,128)'), kind === 'high-contrast' ? 0.45 : 0.3),
    font: cssVar(style, '--vscode-font-family', 'system-ui, sans-serif'),
    blue,
    red,
    green,
    yellow,
    orange,
    purple,
    // Nine distinguishable series colours: the six theme chart colours, then three fixed hues
    // that read on light and dark backgrounds (VS Code defines no more chart colours).
    series:
      kind === 'high-contrast'
        ? [blue, orange, green, purple, red, yellow, fg, '#00c8c8', '#ff66cc']
        : [blue, orange, green, purple, red, yellow, dark ? '#4ec9b0' : '#008080', dark ? '#f48fb1' : '#c2185b', dark ? '#c8a06e' : '#795548'],
  };
}

/** Calls `onChange` when the theme class or the inline theme variables change. */
export function watchTheme(onChange: () => void): void {
  let last = JSON.stringify(readPalette());
  const check = () => {
    const now = JSON.stringify(readPalette());
    if (now !== last) {
      last = now;
      onChange();
    }
  };
  const obs = new MutationObserver(check);
  obs.observe(document.body, { attributes: true, attributeFilter: ['class'] });
  obs.observe(document.documentElement, { attributes: true, attributeFilter: ['style', 'class'] });
  window.matchMedia?.('(prefers-color-scheme: dark)').addEventListener?.('change', check);
}

/** `rgba()` of a colour at some alpha, for bands and shading; accepts #rgb, #rrggbb, rgb(), rgba(). */
export function withAlpha(color: string, alpha: number): string {
  const c = color.trim();
  let m = /^#([0-9a-f]{3})$/i.exec(c);
  if (m) {
    const [r, g, b] = m[1].split('').map((h) => parseInt(h + h, 16));
    return `rgba(${r},${g},${b},${alpha})`;
  }
  m = /^#([0-9a-f]{6})([0-9a-f]{2})?$/i.exec(c);
  if (m) {
    const n = parseInt(m[1], 16);
    return `rgba(${(n >> 16) & 255},${(n >> 8) & 255},${n & 255},${alpha})`;
  }
  const rgb = /^rgba?\(([^,]+),([^,]+),([^,)]+)/i.exec(c);
  if (rgb) return `rgba(${rgb[1].trim()},${rgb[2].trim()},${rgb[3].trim()},${alpha})`;
  return c;
}
