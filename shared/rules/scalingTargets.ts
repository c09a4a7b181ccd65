/** The scaling objects written in this document, each with the model it applies to. */
import type { ModelRope, ScalingDescription } from '../config/modelRope';
import type { RuleContext } from './context';
import { describeScaling } from '../config/modelConfig';

export interface ScalingInDoc {
  scaling: ScalingDescription;
  /** The model it scales (max_position_embeddings, rotary dim), when known. */
  rope?: ModelRope;
}

export function scalingsInDocument(ctx: RuleContext): ScalingInDoc[] {
  const out: ScalingInDoc[] = [];
  const seen = new Set<unknown>();
  const add = (scaling: ScalingDescription | undefined, rope: ModelRope | undefined) => {
    if (!scaling?.node || seen.has(scaling.node)) return;
    seen.add(scaling.node);
    out.push({ scaling, rope });
  };
  if (ctx.model) {
    add(ctx.model.scaling, ctx.model);
    for (const v of ctx.model.layerVariants ?? []) add(v.scaling, ctx.model);
  }
  if (ctx.training?.overrides.scaling) add(ctx.training.overrides.scaling, ctx.effective);
  const deprecated = ctx.training?.deprecatedScaling;
  if (deprecated?.kind === 'object') add(describeScaling(deprecated), ctx.effective);
  return out;
}
