/** How findings name values: written keys as written, class defaults as defaults (advice.md). */
import type { Located } from '../config/modelRope';
import { fmt } from './context';

/**
 * "rope_theta 500,000" for a value in the file; "default rope_theta 10,000 (not in the file)" for a
 * class default; with the layer type when a model has several groups.
 */
export function baseLabel(base: Located<number>, layerType?: string): string {
  const where = layerType ? ` of the ${layerType.replace('_', ' ')} layers` : '';
  // A key is quoted as the file's only where the file writes it (a reader's default has a key but no node).
  if (base.key && base.node) return `${base.key} ${fmt(base.value)}${where}`;
  return `default ${base.key?.split('.').pop() ?? 'rope_theta'} ${fmt(base.value)}${where} (not in the file)`;
}

/**
 * The same for a headline, where the path is already in the range the finding points at: the key
 * as the file writes it (its last segment), "sliding-window layers' rope_theta 10,000", or
 * "default base 10,000 (not in the file)".
 */
export function shortBaseLabel(base: Located<number>, layerType?: string): string {
  const layers = layerType ? `${LAYER_WORDS[layerType] ?? layerType.replace('_', ' ')} layers' ` : '';
  if (base.key && base.node) return `${layers}${base.key.split('.').pop()} ${fmt(base.value)}`;
  return `${layers}default base ${fmt(base.value)} (not in the file)`;
}

/** Short names for the usual layer types in headlines. */
const LAYER_WORDS: Record<string, string> = { sliding_attention: 'sliding-window', full_attention: 'full-attention' };
