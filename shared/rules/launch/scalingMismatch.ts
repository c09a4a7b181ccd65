/**
 * launch/scaling-mismatch (warning): a scaling set by the command whose numbers disagree with the
 * model or the length served:
 *  - YaRN's original length is not the trained context (its correction range is computed from the
 *    wrong length);
 *  - factor × original (or × trained) falls short of the length served, so positions past it are
 *    extrapolated — only where the engine does not already refuse the length (that finding covers it).
 * Fix: the factor C/T and the original T, in the command's own syntax.
 */
import type { Finding } from '../../core/findings';
import { finding, fmt } from '../context';
import { optionText } from '../../serving/engine';
import { LaunchRule, LaunchRuleContext, engineOf, flagSetter, overrideKeyRange, overrideScalingKey, overrideWriter, useRange } from './context';
import { argNumber } from '../../serving/common';
import { factorValue } from '../../fixes/rewrites';
import { implicitLinearOf } from './implicitLinear';

export const SCALING_MISMATCH = 'launch/scaling-mismatch';

export const scalingMismatchRule: LaunchRule = {
  codes: [SCALING_MISMATCH],
  check(ctx) {
    const e = ctx.effect,
      T = ctx.trained;
    if (!e || T === undefined || !e.scalingFromCommand) return [];
    // A command scaling that replaces the model's own is launch/override-replaces-scaling's finding.
    if (e.replacesModelScaling && ctx.modelFacts && ctx.modelFacts.type !== 'none') return [];
    const f = e.facts;
    if (f.type !== 'yarn' && f.type !== 'linear' && f.type !== 'dynamic') return [];
    const out: Finding[] = [];
    const where = scalingUse(ctx);
    // In an override object, each finding sits on the key it is about.
    const key = ctx.request.overrides ? overrideScalingKey(ctx) : undefined;
    const rangeOf = (param: string) => (key ? overrideKeyRange(ctx, [key, param]) : useRange(where, ctx.commandRange));
    const C = ctx.request.length?.value ?? (f.factor ?? 1) * (f.original ?? T);
    const wantFactor = C > T ? factorValue(C / T) : undefined;
    if (f.type === 'yarn' && f.original !== undefined && Math.abs(f.original - T) > 0.01 * T) {
      out.push(
        finding(
          SCALING_MISMATCH,
          'warning',
          `YaRN stretches the wrong dimensions: the command's original length ${fmt(f.original)} is not the trained ${fmt(T)}.`,
          rangeOf('original_max_position_embeddings'),
          fix(ctx, wantFactor ?? f.factor ?? 1, T),
          `${fmt(T)} is the context ${ctx.modelName} was trained at; YaRN computes which dimensions to interpolate from the original length.`,
        ),
      );
    }
    const reach = (f.factor ?? 1) * (f.type === 'yarn' ? (f.original ?? T) : T);
    const refused = ctx.request.length !== undefined && ctx.request.length.value > e.derived && e.overLength === 'refuses';
    // A bare llama.cpp scale that falls short is launch/implicit-linear's finding, which says both and fixes both.
    if (ctx.request.length && C > reach * 1.001 && !refused && !out.length && !implicitLinearOf(ctx)) {
      out.push(
        finding(
          SCALING_MISMATCH,
          'warning',
          `Positions past ${fmt(reach)} are extrapolated: the command's ${f.type} factor ${fmt(f.factor ?? 1)} covers ${fmt(reach)} of ${fmt(C)}.`,
          rangeOf('factor'),
          wantFactor ? fix(ctx, wantFactor, T) : [],
          wantFactor ? `Factor ${fmt(wantFactor)} over the trained ${fmt(T)} covers ${fmt(C)}.` : undefined,
        ),
      );
    }
    return out;
  },
};

/** Where the command writes its scaling: the override option, else a scale flag, else the type flag. */
function scalingUse(ctx: LaunchRuleContext) {
  const r = ctx.request.rope;
  const flags = engineOf(ctx).scalingFlags;
  return ctx.request.overrides?.option ?? (flags && [...flags.scales.map((x) => r[x.name]), r[flags.typeOption]].find((u) => u));
}

function fix(ctx: LaunchRuleContext, factor: number, T: number) {
  const f = ctx.effect!.facts;
  const engine = engineOf(ctx);
  let edits;
  let title: string;
  if (engine.override) {
    const key = f.keyPath.split('.').pop() === 'rope_parameters' ? 'rope_parameters' : 'rope_scaling';
    const obj: Record<string, unknown> = { ...f.params, factor };
    if (f.type === 'yarn') obj['original_max_position_embeddings'] = T;
    edits = overrideWriter(ctx, engine.override.flag)({ [key]: obj });
    title = `Set ${key} factor ${argNumber(factor)}${f.type === 'yarn' ? `, original ${T}` : ''}`;
  } else if (engine.scalingFlags && f.type !== undefined && f.type !== 'none' && f.type !== 'llama3' && f.type !== 'longrope') {
    // The engine's writer, less the type option the command already has right.
    const flags = engine.scalingFlags;
    const opts = (flags.write(f.type === 'yarn' ? { type: 'yarn', factor, original: T } : { type: f.type, factor }) ?? []).filter(
      (o) => o.name !== flags.typeOption,
    );
    // A factor written as a frequency scale (llama.cpp's --rope-freq-scale) alone is not rewritten.
    const r = ctx.request.rope;
    const inverseOnly = flags.scales.some((x) => x.inverse && r[x.name]) && !flags.scales.some((x) => !x.inverse && r[x.name]);
    edits = !opts.length || inverseOnly ? [] : flagSetter(ctx)(opts);
    title = `Set ${optionText(opts)}`;
  } else return [];
  return edits.length
    ? [{ title, kind: f.type === 'yarn' ? ('yarn' as const) : f.type === 'linear' ? ('linear' as const) : ('dynamic' as const), preferred: true, edits }]
    : [];
}
