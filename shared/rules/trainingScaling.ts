/**
 * training/dynamic-scaling (warning): dynamic NTK while training — the base then changes with
 * each batch's length, so what is learned does not match inference (LLaMA-Factory warns too).
 * training/stacked-scaling (warning): the YAML sets a scaling on a base model that already has
 * one (e.g. llama3 or YaRN); the new dict replaces the native one and drops its parameters.
 */
import type { Finding } from '../core/findings';
import { Rule, finding, fmt, numParam, rangeFor } from './context';
import { trainingTarget } from './targets';
import { yarnFix } from '../fixes/rewrites';
import { trainedContextOf } from '../config/trainedContext';

export const DYNAMIC_TRAINING = 'training/dynamic-scaling';
export const STACKED_SCALING = 'training/stacked-scaling';

export const trainingScalingRule: Rule = {
  codes: [DYNAMIC_TRAINING, STACKED_SCALING],
  check(ctx) {
    const t = ctx.training;
    if (!t) return [];
    const out: Finding[] = [];
    const byName = t.scalingByName;
    const dict = t.overrides.scaling;
    const typeNode = byName ?? dict?.rawType;
    const type = byName ? byName.value.trim().toLowerCase() : dict?.type;
    if (t.trains && type === 'dynamic') {
      const target = trainingTarget(ctx);
      const mpe = ctx.resolved?.rope.contextLength.value;
      const L = t.sequenceLength?.value;
      const factor = numParam(dict, 'factor') ?? (L && mpe ? Math.max(L / mpe, 2) : 2);
      const fix = mpe ? yarnFix(target, factor, mpe) : undefined;
      out.push(
        finding(
          DYNAMIC_TRAINING,
          'warning',
          "Dynamic NTK changes the base with each sequence's length: training and inference see different frequencies.",
          rangeFor(ctx.doc, typeNode, dict?.node),
          fix ? [{ ...fix, preferred: true }] : [],
          'Dynamic NTK scaling may not work well with fine-tuning. Prefer a static scaling (YaRN or linear).',
        ),
      );
    }
    const native = ctx.resolved?.rope.scaling;
    // A block whose own factor covers the training length from the trained context is a deliberate
    // rescale (the context-exceeded fixes write one), not a scaling meant to add to the native one.
    const newFactor = numParam(dict, 'factor');
    const seqLen = t.sequenceLength?.value;
    const trained = ctx.resolved ? trainedContextOf(ctx.resolved.rope).value : undefined;
    // Only past what the native scaling already covers (its max_position_embeddings): within it, a
    // new block just throws away the scaling the model was trained with.
    const nativeCover = ctx.resolved?.rope.contextLength.value;
    const restated =
      !byName &&
      newFactor !== undefined &&
      seqLen !== undefined &&
      trained !== undefined &&
      newFactor * trained >= seqLen &&
      nativeCover !== undefined &&
      seqLen > nativeCover;
    // A dict that repeats the model's own scaling (axolotl's rope_parameters on transformers 5, written
    // to carry a new base) keeps it rather than replacing it.
    const repeatsNative = !byName && dict?.type === native?.type && newFactor === numParam(native, 'factor');
    // A `default` dict (axolotl's rope_parameters carrying a chosen base) drops the scaling on purpose: a base
    // choice, judged by the bound at the sequence length, not a scaling stacked on another.
    const baseChoice = !byName && dict?.type === 'default';
    if ((byName || dict) && !restated && !repeatsNative && !baseChoice && native && native.type && native.type !== 'default') {
      const f = numParam(native, 'factor');
      const node = byName?.node ?? dict?.node;
      const path = t.scalingKeyPath;
      out.push(
        finding(
          STACKED_SCALING,
          'warning',
          `This rope_scaling replaces the model's own ${native.rawType?.value ?? native.type} scaling instead of adding to it.`,
          rangeFor(ctx.doc, node),
          path
            ? [
                {
                  title: `Remove this rope_scaling (keep the model's own ${native.type} scaling)`,
                  kind: 'other',
                  preferred: true,
                  edits: ctx.editor.remove(path),
                },
              ]
            : [],
          `${ctx.resolved!.ref} already uses ${native.rawType?.value ?? native.type} scaling${f ? ` (factor ${fmt(f)})` : ''}; this block drops its parameters.`,
        ),
      );
    }
    return out;
  },
};
