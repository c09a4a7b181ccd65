/**
 * Which situation of advice.md a model is in, from its trained context T, the context C the file
 * asks for, and what the checkpoint shipped with:
 *  - stock: the config as shipped (even when the vendor declares a context above T), or C ≤ T;
 *  - extended: C above T (and above the shipped context) with no scaling and the shipped base;
 *  - scaled: a length-scaling type is set (judged on its coherence and effective frequencies).
 */
import type { ModelRope } from '../config/modelRope';
import { trainedContextOf } from '../config/trainedContext';
import { familyDefaultBase } from '../config/families';

export interface Situation {
  trained: number;
  trainedSource: string;
  length: number;
  scaled: boolean;
  stock: boolean;
  /** The user changed the base away from what the checkpoint shipped with. */
  baseChanged: boolean;
  extended: boolean;
}

/** Scaling types that change frequencies with length ('default' and multimodal sections do not). */
export function isLengthScaled(rope: ModelRope): boolean {
  const t = rope.scaling?.type;
  return t !== undefined && t !== 'default' && t !== 'proportional';
}

export function situationOf(rope: ModelRope): Situation {
  const tc = trainedContextOf(rope);
  const C = rope.contextLength.value;
  const scaled = isLengthScaled(rope);
  const shipped = rope.shipped;
  // A shipped config without rope_theta ran on its class default.
  const shippedBase = shipped ? (shipped.base ?? familyDefaultBase(rope.modelType).value) : undefined;
  const sameBase = shippedBase === undefined || Math.abs(rope.base.value - shippedBase) <= 1e-9 * shippedBase;
  // Multimodal sections (`mrope`) stretch nothing: the same as no scaling; `su` is longrope.
  const typeOf = (t: string | undefined) => (!t || t === 'default' || t === 'mrope' ? 'default' : t === 'su' ? 'longrope' : t);
  const shippedType = typeOf(shipped?.scalingType);
  const asShipped = !!shipped && shipped.contextLength === C && sameBase && typeOf(rope.scaling?.type) === shippedType;
  const stock = asShipped || !(C > tc.value);
  const baseChanged = shippedBase !== undefined && !sameBase;
  // Only the shipped values themselves are the vendor's claim (Qwen2.5-7B base declares 131,072 over
  // a trained 32,768): an edited context past T without scaling is extended, whatever the vendor
  // declared — serve and the Inspector recommend a rewrite there too (advice/advice.ts) — and so
  // is the shipped context without the shipped scaling (a Llama-3.1 config that lost its llama3 block).
  return {
    trained: tc.value,
    trainedSource: tc.source,
    length: C,
    scaled,
    stock,
    baseChanged,
    // An edit of the shipped model (a changed base that fails the bound at the raised context) is the
    // same mistake as the raise alone: judged from what the model shipped (config/editOrDerivative.ts).
    extended: !stock && !scaled && (!baseChanged || !!rope.identity?.edit),
  };
}
