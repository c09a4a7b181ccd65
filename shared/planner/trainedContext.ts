/**
 * The one place the planner learns a model's trained context T (advice.md, "trained context"):
 * the reader's `trainedContext` when it provides one (identity, catalog), else the config's
 * original_max_position_embeddings, else max_position_embeddings, which is what LLaMA-Factory and
 * axolotl assume. Swap this helper, not its callers, when the reader's rules change.
 */
import type { ModelRope, TrainedContext } from '../config/modelRope';

export function trainedContextOf(rope: ModelRope): TrainedContext {
  if (rope.trainedContext) return rope.trainedContext;
  const orig = rope.originalContextLength;
  if (orig && Number.isFinite(orig.value) && orig.value > 0) {
    return { value: orig.value, source: `config:${orig.key ?? 'original_max_position_embeddings'}`, located: orig };
  }
  return { value: rope.contextLength.value, source: 'assumed:max_position_embeddings' };
}
