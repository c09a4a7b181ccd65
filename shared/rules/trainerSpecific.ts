/**
 * axolotl/deprecated-rope-scaling (error): axolotl's schema rejects a top-level `rope_scaling`
 * ("`rope_scaling` is no longer supported, it should now be be a key under `model_config`").
 * llama-factory/derived-factor (information): LLaMA-Factory derives factor = ceil(cutoff_len / old),
 * old being the model's rope_scaling.original_max_position_embeddings or else its mpe (llamaFactoryRope.ts).
 * llama-factory/scaling-ignored (warning): cutoff_len ≤ that old length, so LLaMA-Factory turns the
 * requested scaling off.
 * training/base-model-unresolved (hint): the base model's config could not be found offline.
 */
import type { Finding } from '../core/findings';
import { Rule, finding, fmt, keyRangeOf, pathTo, rangeFor, shown } from './context';
import { toPlain } from '../document/configNode';
import { UNKNOWN_TYPE } from './scalingType';
import { LLAMA_FACTORY_SCALINGS } from '../config/trainers/llamaFactory';
import { llamaFactoryRopePlan } from '../config/trainers/llamaFactoryRope';
import { scalingDictFor5 } from '../config/trainers/axolotlOverrides';
import { trainerTransformersLine } from './trainerTransformers';
import type { PlainObject, PlainValue } from '../fixes/render';

export const AXOLOTL_DEPRECATED = 'axolotl/deprecated-rope-scaling';
export const LF_DERIVED_FACTOR = 'llama-factory/derived-factor';
export const LF_SCALING_IGNORED = 'llama-factory/scaling-ignored';
export const BASE_UNRESOLVED = 'training/base-model-unresolved';

export const trainerSpecificRule: Rule = {
  codes: [AXOLOTL_DEPRECATED, LF_DERIVED_FACTOR, LF_SCALING_IGNORED, BASE_UNRESOLVED],
  check(ctx) {
    const t = ctx.training;
    if (!t) return [];
    const out: Finding[] = [];
    if (t.deprecatedScaling) {
      const node = t.deprecatedScaling;
      const dest = t.overridePath ?? ['overrides_of_model_config'];
      const plain = toPlain(node) as PlainValue;
      // Moved where axolotl's transformers 5 builds it (config/trainers/axolotlOverrides.ts).
      const on5 = trainerTransformersLine('axolotl', ctx.pins).line === 5;
      const value =
        on5 && plain !== null && typeof plain === 'object'
          ? (scalingDictFor5(plain as Record<string, unknown>, ctx.resolved?.rope.base.value, t.overrides.base !== undefined) as PlainValue)
          : plain;
      const edits = [...ctx.editor.remove(pathTo(node)), ...ctx.editor.set([...dest, 'rope_scaling'], value as PlainObject)];
      out.push(
        finding(
          AXOLOTL_DEPRECATED,
          'error',
          'axolotl refuses this config: `rope_scaling` at the top level is no longer supported.',
          keyRangeOf(ctx.doc, node),
          [{ title: `Move rope_scaling under ${dest.join('.')}`, kind: 'other', preferred: true, edits }],
          `It should now be a key under \`${dest.join('.')}\`.`,
        ),
      );
    }
    const lfName = t.tool === 'llama-factory' && t.scalingByName ? String(t.scalingByName.value).trim().toLowerCase() : undefined;
    if (lfName !== undefined && !LLAMA_FACTORY_SCALINGS.includes(lfName)) {
      out.push(
        finding(
          UNKNOWN_TYPE,
          'error',
          `LLaMA-Factory refuses this config: rope_scaling ${shown(t.scalingByName!.value)} is not a scaling it knows.`,
          rangeFor(ctx.doc, t.scalingByName!),
          [],
          `Its rope_scaling must be one of ${LLAMA_FACTORY_SCALINGS.join(', ')}.`,
        ),
      );
    } else if (t.tool === 'llama-factory' && t.scalingByName) {
      const plan = llamaFactoryRopePlan(t, ctx.resolved?.rope);
      // The length it scales from, said in the detail (the headline stays one short sentence).
      const origin = (p: { old: number; oldFrom: string }) => `${fmt(p.old)} is the model's ${p.oldFrom}.`;
      if (plan.kind === 'applied' && plan.mode === 'train') {
        const L = plan.length!;
        out.push(
          finding(
            LF_DERIVED_FACTOR,
            'information',
            `LLaMA-Factory will use ${t.scalingByName.value} scaling with factor ${plan.factor}.0 over ${fmt(plan.old)} tokens, covering ${fmt(plan.newContext)} tokens.`,
            rangeFor(ctx.doc, t.scalingByName),
            [],
            `${origin(plan)} It derives factor ceil(${fmt(L)} / ${fmt(plan.old)}) = ${plan.factor}.0 and original length ${fmt(plan.old)}${plan.newContext > L * 1.25 ? `; ${fmt(plan.newContext)} is well beyond cutoff_len ${fmt(L)} (the integer ceiling over-stretches short contexts)` : ''}.`,
          ),
        );
      } else if (plan.kind === 'disabled') {
        out.push(
          finding(
            LF_SCALING_IGNORED,
            'warning',
            `LLaMA-Factory disables this rope_scaling: cutoff_len ${fmt(plan.length)} is within the ${fmt(plan.old)} it scales from.`,
            rangeFor(ctx.doc, t.scalingByName),
            [{ title: 'Remove rope_scaling', kind: 'other', preferred: true, edits: ctx.editor.remove(t.scalingKeyPath ?? ['rope_scaling']) }],
            `${origin(plan)} ` + 'It logs "Input length is smaller than max length. Disabling rope scaling." and keeps the model\'s own RoPE settings.',
          ),
        );
      }
    }
    if (!t.ownModel && !ctx.resolved && (t.baseModel || t.baseModelCandidates.length)) {
      out.push(
        finding(
          BASE_UNRESOLVED,
          'hint',
          `RoPE not checked: base model ${shown(t.baseModel?.value ?? t.baseModelCandidates[0])} was not found offline.`,
          rangeFor(ctx.doc, t.baseModel),
          [],
          'It was looked for as a local path, in the Hugging Face cache and in the built-in catalog.',
        ),
      );
    }
    return out;
  },
};
