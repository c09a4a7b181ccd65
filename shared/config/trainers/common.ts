/** Small helpers shared by the training-config readers. */
import { ConfigNode, child, nodeAt } from '../../document/configNode';
import type { Located, ScalingDescription } from '../modelRope';
import { describeScaling } from '../modelConfig';
import { keyPathOf, numberOf, stringOf } from '../modelValues';

export { keyPathOf, numberOf, stringOf };

export function has(root: ConfigNode | undefined, ...keys: string[]): boolean {
  return keys.every((k) => child(root, k) !== undefined);
}

export function hasAny(root: ConfigNode | undefined, ...keys: string[]): boolean {
  return keys.some((k) => child(root, k) !== undefined);
}

/** A positive number at `path` (numeric strings accepted, as Python's int()/float() would). */
export function numAt(root: ConfigNode | undefined, path: (string | number)[]): Located<number> | undefined {
  const node = nodeAt(root, path);
  const value = numberOf(node);
  return value === undefined ? undefined : { value, node, key: keyPathOf(node!) };
}

export function strAt(root: ConfigNode | undefined, path: (string | number)[]): Located<string> | undefined {
  const node = nodeAt(root, path);
  const value = stringOf(node);
  return value === undefined || value.trim() === '' ? undefined : { value, node, key: keyPathOf(node!) };
}

/** A scaling object written in a training config, described exactly as in a model config. */
export const describeScalingNode = describeScaling;

/** Builds the RoPE description of a model defined inside a training config (NeoX, nanotron, …). */
export function ownModelRope(parts: {
  modelType: string;
  base?: Located<number>;
  baseDefault: number;
  baseKey: string;
  hidden?: Located<number>;
  heads?: Located<number>;
  headDim?: Located<number>;
  fraction?: Located<number>;
  context?: Located<number>;
  contextNote?: string;
  scaling?: ScalingDescription;
}): import('../modelRope').ModelRope | undefined {
  let headDim = parts.headDim;
  if (!headDim && parts.hidden && parts.heads && parts.heads.value > 0) {
    headDim = { value: Math.floor(parts.hidden.value / parts.heads.value), note: `${parts.hidden.key} / ${parts.heads.key}` };
  }
  if (!headDim || !(headDim.value > 0) || !parts.context) return undefined;
  const fraction = parts.fraction ?? { value: 1, note: 'all channels rotate (default)' };
  const rotary = Math.floor(headDim.value * fraction.value);
  const rope: import('../modelRope').ModelRope = {
    modelType: parts.modelType,
    base: parts.base ?? { value: parts.baseDefault, key: parts.baseKey, note: `${parts.baseKey} absent: ${parts.modelType} default ${parts.baseDefault}` },
    headDim,
    rotaryDim: fraction.node
      ? { value: rotary - (rotary % 2), note: `${headDim.value} × ${fraction.key}` }
      : { value: headDim.value, note: headDim.note ?? headDim.key },
    partialRotaryFactor: fraction,
    contextLength: parts.context,
  };
  if (parts.scaling) rope.scaling = parts.scaling;
  return rope;
}

/** GPT-NeoX and friends accept `seq-length` for `seq_length`: try both spellings. */
export function childEither(obj: ConfigNode | undefined, key: string): ConfigNode | undefined {
  return child(obj, key) ?? child(obj, key.replace(/_/g, '-'));
}

export function numEither(obj: ConfigNode | undefined, key: string): Located<number> | undefined {
  const node = childEither(obj, key);
  const value = numberOf(node);
  return value === undefined ? undefined : { value, node, key: keyPathOf(node!) };
}
