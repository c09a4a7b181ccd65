/**
 * The trained context T: the length the checkpoint was trained at (advice.md), with where it comes
 * from. In this order: what the config itself states (the scaling's original context, Phi-3's
 * top-level original, Qwen-1's seq_length), then the catalog entry of the model's identity, then
 * max_position_embeddings, as LLaMA-Factory and axolotl assume. Never another number: the largest
 * power of two the base happens to satisfy is not a trained context.
 */
import type { Located, ModelRope, TrainedContext } from './modelRope';

/** `config:<key path>` for a value read from the file. */
function fromConfig(l: Located<number>): TrainedContext {
  return { value: l.value, source: `config:${l.key ?? 'original_max_position_embeddings'}`, located: l };
}

/** T as the config states it, or undefined when only the catalog or an assumption can say. */
export function statedTrainedContext(rope: ModelRope, qwenSeqLength?: Located<number>): TrainedContext | undefined {
  const dict = rope.scaling?.params['original_max_position_embeddings'];
  if (dict && typeof dict.value === 'number' && Number.isFinite(dict.value) && dict.value > 0) return fromConfig(dict as Located<number>);
  const top = rope.topLevelOriginalContextLength ?? rope.originalContextLength;
  if (top && Number.isFinite(top.value) && top.value > 0) return fromConfig(top);
  if (qwenSeqLength && qwenSeqLength.value > 0) return fromConfig(qwenSeqLength);
  return undefined;
}

/** The fallback: the context the file declares, marked as an assumption. */
export function assumedTrainedContext(rope: ModelRope): TrainedContext {
  return { value: rope.contextLength.value, source: 'assumed:max_position_embeddings', located: rope.contextLength };
}

/** T for a rope, from the file, a catalog value (`catalog:<id>`), or the declared context. */
export function trainedContextOf(rope: ModelRope): TrainedContext {
  return rope.trainedContext ?? statedTrainedContext(rope) ?? assumedTrainedContext(rope);
}
