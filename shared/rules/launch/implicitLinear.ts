/**
 * launch/implicit-linear (warning): llama.cpp given a scale (`--rope-scale N`, `--rope-freq-scale`,
 * or their LLAMA_ARG_* variables) with no `--rope-scaling`, on a GGUF that carries no scaling type:
 * `--rope-scaling` "defaults to linear unless specified by the model" (common/arg.cpp), and
 * llama-model.cpp reads `<arch>.rope.scaling.type` with "linear" as its default, so the model runs
 * with linear interpolation — which blurs nearby positions without fine-tuning, and is not what
 * vendors document for long inputs (Qwen2.5/Qwen3: YaRN). Fix: name YaRN with the trained context
 * as its original.
 *
 * The finding needs only the flags and whether the GGUF stores a scaling type: from the resolved
 * model, or — for a GGUF not in the catalog — from its family as its file name says (Qwen GGUFs
 * store none), said as assumed from the name.
 */
import { finding, fmt } from '../context';
import { LaunchRule, type LaunchRuleContext, engineOf, flagSetter, useRange } from './context';
import { factorValue } from '../../fixes/rewrites';
import { optionText } from '../../serving/engine';
import { familyAssumptionOf } from '../../config/catalog';

export const IMPLICIT_LINEAR = 'launch/implicit-linear';

/** The factor the flags set: `--rope-scale N`, else 1 / `--rope-freq-scale F`. */
function flagFactor(value: string | undefined, inverse: boolean): number | undefined {
  const n = value === undefined ? NaN : Number(value);
  if (!Number.isFinite(n) || n <= 0) return undefined;
  return inverse ? 1 / n : n;
}

/** What makes the command's scale linear interpolation, when it is: the factor, the trained context, the scale option, the vendor's word. */
export interface ImplicitLinear {
  factor: number;
  T: number;
  vendor: string;
  /** The scale option the command gives, and whether it is a frequency scale (1 / factor). */
  scale: NonNullable<LaunchRuleContext['request']['rope'][string]>;
  inverse: boolean;
}

/**
 * The scale flags alone, on a GGUF that names no scaling type, make llama.cpp interpolate linearly;
 * undefined when they do not (a type flag given, the model's own scaling, no factor). Also asked by
 * launch/scaling-mismatch, which leaves a linear factor that falls short to this finding.
 */
export function implicitLinearOf(ctx: LaunchRuleContext): ImplicitLinear | undefined {
  const engine = engineOf(ctx);
  const flags = engine.scalingFlags;
  if (!flags?.scaleAloneIsLinear) return undefined;
  const rope = ctx.request.rope;
  const scaleSpec = flags.scales.find((x) => rope[x.name]);
  const scale = scaleSpec && rope[scaleSpec.name];
  if (!scale || rope[flags.typeOption]) return undefined;
  let factor: number | undefined, T: number | undefined;
  let vendor = '';
  if (ctx.resolved) {
    if (!ctx.effect || ctx.trained === undefined) return undefined;
    const own = ctx.modelFacts?.type;
    if (own === 'yarn' || own === 'linear') return undefined;
    if (ctx.effect.facts.type !== 'linear') return undefined;
    factor = ctx.effect.facts.factor;
    T = ctx.trained;
    const fam = familyAssumptionOf(ctx.resolved.from);
    if (/^qwen[23]/.test(ctx.model?.modelType ?? ''))
      vendor = fam
        ? ` Qwen documents YaRN for inputs past ${fmt(T)} (${fam.generation}, assumed from the name ${ctx.request.model?.value.replace(/\\/g, '/').split('/').pop()}).`
        : ` Qwen documents YaRN for inputs past ${fmt(T)}.`;
  } else {
    // Not in the catalog: the file name may still say the family, and with it that the GGUF stores no scaling type.
    const name = ctx.request.model?.value;
    const fam = name ? engine.familyFromFileName?.(name) : undefined;
    if (!fam) return undefined;
    factor = flagFactor(scale.value?.value, !!scaleSpec.inverse);
    T = fam.yarnOriginal;
    vendor = ` Qwen documents YaRN for inputs past ${fmt(T)} (${fam.family}, assumed from the name ${name!.replace(/\\/g, '/').split('/').pop()}; its GGUFs store no scaling type).`;
  }
  if (factor === undefined || factor === 1 || T === undefined) return undefined;
  return { factor, T, vendor, scale, inverse: !!scaleSpec.inverse };
}

export const implicitLinearRule: LaunchRule = {
  codes: [IMPLICIT_LINEAR],
  check(ctx) {
    const il = implicitLinearOf(ctx);
    if (!il) return [];
    const { factor, T, vendor, scale } = il;
    const engine = engineOf(ctx);
    const flags = engine.scalingFlags!;
    const rope = ctx.request.rope;
    const written = scale.flag === scale.value ? `${scale.name}=${scale.value?.value}` : `${scale.flag.value} ${scale.value?.value ?? ''}`.trim();
    // A length served past factor × T needs a larger factor too: one finding says both, one fix writes both.
    const C = ctx.request.length?.value;
    const short = C !== undefined && C > factor * T * 1.001 ? factorValue(C / T) : undefined;
    const yarnFactor = short ?? factor;
    // The engine's writer for YaRN, less the factor the command already gives (unless it falls short) and an original it already has.
    const yarn = (flags.write({ type: 'yarn', factor: yarnFactor, original: T }) ?? []).filter(
      (o) => (short !== undefined || !flags.scales.some((x) => x.name === o.name)) && !(o.name === flags.originalOption && rope[o.name]),
    );
    // A factor written as a frequency scale (--rope-freq-scale) is left as it is: the new one would be written beside it.
    const inverseOnly = short !== undefined && il.inverse;
    const typeFlag = yarn.find((o) => o.name === flags.typeOption)?.flag ?? `--${flags.typeOption}`;
    const edits = yarn.length && !inverseOnly ? flagSetter(ctx)(yarn) : [];
    const covers =
      short !== undefined
        ? ` Its factor ${fmt(factor)} also covers only ${fmt(factor * T)} of the ${fmt(C!)} served; YaRN ×${fmt(short)} over ${fmt(T)} covers them.`
        : '';
    return [
      finding(
        IMPLICIT_LINEAR,
        'warning',
        `${engine.label} compresses every position ×${fmt(factor)} (linear), blurring nearby tokens: ${typeFlag} is not set.`,
        useRange(scale, ctx.commandRange),
        edits.length ? [{ title: `Use YaRN${short !== undefined ? ` ×${fmt(short)}` : ''}: ${optionText(yarn)}`, kind: 'yarn', preferred: true, edits }] : [],
        `${written} without ${typeFlag} runs linear interpolation (${engine.label}'s default when the GGUF names no scaling type), which blurs nearby tokens on a model not fine-tuned for it.${vendor}${covers}`,
      ),
    ];
  },
};
