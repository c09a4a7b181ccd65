/**
 * How far a model reaches, as opposed to what an engine will accept (advice.md, "One file, several
 * readers"). Two quantities every serving and training judgement needs:
 *
 *  - `modelReach`: the longest context the model's own settings were trained or shipped to cover.
 *    No scaling: the trained context T (or the model's own max_position_embeddings when the file
 *    raised rope_theta away from what the checkpoint shipped: its own values extend it). YaRN:
 *    original × factor. Linear: the factor is counted once — a checkpoint that shipped linear
 *    scaling was trained with it, and its max_position_embeddings already includes the factor
 *    (togethercomputer/LLaMA-2-7B-32K: 4,096 × 8 = 32,768), so it reaches max(T, mpe); a linear
 *    factor added to a known model reaches T × factor; a derivative that kept its base model's
 *    context reaches mpe × factor; otherwise max_position_embeddings is taken as including the
 *    factor. Dynamic: T × factor. llama3: max_position_embeddings as the vendor ships it, or
 *    original × factor when larger and the block was added to a model that shipped none.
 *    longrope: max_position_embeddings.
 *  - `ropeReachAt`: the longest relative distance any RoPE layer sees at a context C. A layer with
 *    a sliding window (or attention chunk) never sees a distance beyond it (attentionGroups.ts), so
 *    a model whose every RoPE layer is windowed at 4,096 sees at most 4,096 whatever C is: there is
 *    nothing for a scaling to extend.
 */
import type { DerivativeOf, ModelRope } from './modelRope';
import { trainedContextOf } from './trainedContext';
import { enUS } from '../core/format';

export interface ModelReach {
  value: number;
  /** Why, worded for a message without parentheses (messages put it inside theirs). */
  basis: string;
  /** The length a new scaling would extend from, when the model has none (its reach), else undefined. */
  unscaledFrom?: number;
  /** The reach is what a shipped scaling, kept as shipped, covers while the context asks for more. */
  shippedScaling?: boolean;
}

const n = (v: number) => (Number.isFinite(v) ? enUS(Math.round(v)) : String(v));

function factorOf(rope: ModelRope): number | undefined {
  const f = rope.scaling?.params['factor']?.value;
  return typeof f === 'number' && Number.isFinite(f) && f > 0 ? f : undefined;
}

function originalOf(rope: ModelRope): number | undefined {
  const o = rope.scaling?.params['original_max_position_embeddings']?.value ?? rope.topLevelOriginalContextLength?.value;
  return typeof o === 'number' && Number.isFinite(o) && o > 0 ? o : undefined;
}

/** The scaling type that stretches positions, or 'none' ('default', 'proportional', mrope sections). */
export function lengthScalingType(rope: ModelRope): 'none' | 'linear' | 'dynamic' | 'yarn' | 'longrope' | 'llama3' | 'other' {
  const t = rope.scaling?.type;
  if (!rope.scaling || t === 'default' || t === 'proportional') return 'none';
  if (t === undefined) return rope.scaling.rawType === undefined ? 'none' : 'other';
  return t;
}

/** The model's own reach; `trained` defaults to the reader's trained context T. */
export function modelReach(rope: ModelRope, trained: number = trainedContextOf(rope).value): ModelReach {
  const mpe = rope.contextLength.value;
  const f = factorOf(rope);
  switch (lengthScalingType(rope)) {
    case 'none': {
      const shippedBase = rope.shipped?.base;
      // An edit of the shipped model (config/editOrDerivative.ts) was never trained at its own context.
      const ownBase = !rope.identity?.edit && shippedBase !== undefined && Math.abs(rope.base.value - shippedBase) > 1e-9 * shippedBase;
      if (ownBase && mpe > trained) {
        return {
          value: mpe,
          basis: `its own rope_theta ${n(rope.base.value)}, shipped ${n(shippedBase!)}, at max_position_embeddings ${n(mpe)}`,
          unscaledFrom: mpe,
        };
      }
      return { value: trained, basis: `trained at ${n(trained)}`, unscaledFrom: trained };
    }
    case 'yarn': {
      const o = originalOf(rope) ?? trained;
      return f ? { value: Math.floor(o * f), basis: `YaRN original ${n(o)} × factor ${f}` } : { value: mpe, basis: `max_position_embeddings ${n(mpe)}` };
    }
    case 'linear': {
      if (!f) return { value: mpe, basis: `max_position_embeddings ${n(mpe)}` };
      const kept = keptShippedScaling(rope, 'linear', f);
      if (kept) return kept;
      if (rope.identity && rope.shipped?.scalingType === 'linear') {
        const value = Math.max(trained, mpe);
        return { value, basis: `shipped with linear ×${f} and trained to ${n(value)}; its max_position_embeddings already includes the factor` };
      }
      if (rope.identity) return { value: Math.floor(trained * f), basis: `trained at ${n(trained)} × linear factor ${f}` };
      // No identity: a derivative of a known model includes the factor when its context is already
      // past that model's T (LongChat-style), not when it kept it (Vicuna-v1.5-16k: 4,096 × 4);
      // with nothing known, max_position_embeddings is taken as including it, as the checkpoints
      // that ship linear scaling do, so no factor is counted twice.
      const base = rope.derivativeOf?.unscaledTrainedContext;
      if (base !== undefined && mpe <= base)
        return {
          value: Math.floor(mpe * f),
          basis: `max_position_embeddings ${n(mpe)} × linear factor ${f}; the unscaled model of its architecture was trained at ${n(base)}`,
        };
      return { value: mpe, basis: `max_position_embeddings ${n(mpe)}, taken as already including linear ×${f}` };
    }
    case 'llama3': {
      // Vendors ship max_position_embeddings at the extended length, which is not original ×
      // factor (Llama-3.2: 131,072 from 8,192 × 32; EXAONE-3.5: 32,768 from 8,192 × 8). Only a
      // llama3 block added to a model that did not ship one reaches original × factor.
      const o = originalOf(rope);
      const added = rope.shipped !== undefined && rope.shipped.scalingType !== 'llama3';
      const extended = added && o !== undefined && f ? Math.floor(o * f) : 0;
      const kept = f ? keptShippedScaling(rope, 'llama3', f) : undefined;
      if (kept) return kept;
      // A shipped block re-sized (Llama-3.1's ×8 written as ×32 over 8,192 for 262,144) covers original × factor.
      const resized = rope.shipped?.scalingType === 'llama3' && rope.shipped.scalingFactor !== undefined && f !== rope.shipped.scalingFactor;
      if (resized && o !== undefined && f && mpe > (rope.shipped?.contextLength ?? Infinity))
        return { value: Math.floor(o * f), basis: `llama3 original ${n(o)} × factor ${f}` };
      return extended > mpe ? { value: extended, basis: `llama3 original ${n(o!)} × factor ${f}` } : { value: mpe, basis: `max_position_embeddings ${n(mpe)}` };
    }
    case 'dynamic':
      return f
        ? { value: Math.floor(trained * f), basis: `trained at ${n(trained)} × dynamic factor ${f}` }
        : { value: trained, basis: `trained at ${n(trained)}` };
    case 'longrope':
      return keptShippedScaling(rope, 'longrope', f) ?? { value: mpe, basis: `max_position_embeddings ${n(mpe)}` };
    default:
      return { value: mpe, basis: `max_position_embeddings ${n(mpe)}` };
  }
}

/**
 * The shipped scaling kept as shipped (same type and factor) while the context was raised past what
 * the checkpoint ships it for: it still covers only the shipped context (Llama-3.1's llama3 ×8 covers
 * 131,072 whatever max_position_embeddings says; advice.md situation 4).
 */
function keptShippedScaling(rope: ModelRope, type: string, f: number | undefined): ModelReach | undefined {
  const shipped = rope.shipped;
  const ctx = shipped?.contextLength;
  if (!rope.identity || !shipped || ctx === undefined || !(rope.contextLength.value > ctx)) return undefined;
  const shippedType = shipped.scalingType === 'su' ? 'longrope' : shipped.scalingType;
  if (shippedType !== type) return undefined;
  if (shipped.scalingFactor !== undefined && f !== undefined && f !== shipped.scalingFactor) return undefined;
  const factor = f !== undefined ? ` ×${f}` : '';
  return { value: ctx, basis: `its ${type}${factor} as ${rope.identity.id} ships it, for ${n(ctx)}`, shippedScaling: true };
}

/** The longest relative distance a RoPE layer of the model sees at context C (sliding windows honoured). */
export function ropeReachAt(rope: ModelRope, C: number): number {
  const groups = (rope.groups ?? []).filter((g) => g.base !== null);
  if (groups.length === 0) return C;
  return Math.max(...groups.map((g) => (g.window ? Math.min(C, g.window.value) : C)));
}

/** The window every RoPE layer attends within, when all of them have one (Mistral-7B-v0.1: 4,096). */
export function everyRopeLayerWindow(rope: ModelRope): number | undefined {
  const groups = (rope.groups ?? []).filter((g) => g.base !== null);
  if (groups.length === 0 || groups.some((g) => !g.window)) return undefined;
  return Math.max(...groups.map((g) => g.window!.value));
}

/** "its rope_theta 283,461,213 (shipped 500,000) differs" / "… and … differ", for a derivative's messages. */
export function differencesText(d: DerivativeOf): string {
  const list = d.differences.length > 1 ? `${d.differences.slice(0, -1).join(', ')} and ${d.differences[d.differences.length - 1]}` : (d.differences[0] ?? '');
  return `its ${list} ${d.differences.length > 1 ? 'differ' : 'differs'}`;
}

/** Why the model was judged on its own values, for messages: empty unless it is a derivative. */
export function derivativeNote(rope: ModelRope): string {
  const d = rope.derivativeOf;
  if (!d || d.differences.length === 0) return '';
  return ` Its architecture is ${d.candidates[0]}'s but ${differencesText(d)}: judged as a derivative on its own values, not as ${d.candidates[0]} (trained at ${n(d.baseTrainedContext)}).`;
}
