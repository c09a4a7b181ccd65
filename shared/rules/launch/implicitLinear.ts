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
import { LaunchRule, engineOf, flagSetter, useRange } from './context';
import { optionText } from '../../serving/engine';

export const IMPLICIT_LINEAR = 'launch/implicit-linear';

/** The factor the flags set: `--rope-scale N`, else 1 / `--rope-freq-scale F`. */
function flagFactor(value: string | undefined, inverse: boolean): number | undefined {
  const n = value === undefined ? NaN : Number(value);
  if (!Number.isFinite(n) || n <= 0) return undefined;
  return inverse ? 1 / n : n;
}

export const implicitLinearRule: LaunchRule = {
  codes: [IMPLICIT_LINEAR],
  check(ctx) {
    const engine = engineOf(ctx);
    const flags = engine.scalingFlags;
    if (!flags?.scaleAloneIsLinear) return [];
    const rope = ctx.request.rope;
    const scaleSpec = flags.scales.find((x) => rope[x.name]);
    const scale = scaleSpec && rope[scaleSpec.name];
    if (!scale || rope[flags.typeOption]) return [];
    let factor: number | undefined,
      T: number | undefined,
      vendor = '';
    if (ctx.resolved) {
      if (!ctx.effect || ctx.trained === undefined) return [];
      const own = ctx.modelFacts?.type;
      if (own === 'yarn' || own === 'linear') return [];
      if (ctx.effect.facts.type !== 'linear') return [];
      factor = ctx.effect.facts.factor;
      T = ctx.trained;
      if (/^qwen[23]/.test(ctx.model?.modelType ?? '')) vendor = ` Qwen documents YaRN for inputs past ${fmt(T)}.`;
    } else {
      // Not in the catalog: the file name may still say the family, and with it that the GGUF stores no scaling type.
      const name = ctx.request.model?.value;
      const fam = name ? engine.familyFromFileName?.(name) : undefined;
      if (!fam) return [];
      factor = flagFactor(scale.value?.value, !!scaleSpec.inverse);
      T = fam.yarnOriginal;
      vendor = ` Qwen documents YaRN for inputs past ${fmt(T)} (${fam.family}, assumed from the name ${name!.replace(/\\/g, '/').split('/').pop()}; its GGUFs store no scaling type).`;
    }
    if (factor === undefined || factor === 1) return [];
    const written = scale.flag === scale.value ? `${scale.name}=${scale.value?.value}` : `${scale.flag.value} ${scale.value?.value ?? ''}`.trim();
    // The engine's writer for YaRN, less the factor the command already gives and an original it already has.
    const yarn = (flags.write({ type: 'yarn', factor, original: T }) ?? []).filter(
      (o) => !flags.scales.some((x) => x.name === o.name) && !(o.name === flags.originalOption && rope[o.name]),
    );
    const typeFlag = yarn.find((o) => o.name === flags.typeOption)?.flag ?? `--${flags.typeOption}`;
    const edits = yarn.length ? flagSetter(ctx)(yarn) : [];
    return [
      finding(
        IMPLICIT_LINEAR,
        'warning',
        `${engine.label} compresses every position ×${fmt(factor)} (linear), blurring nearby tokens: ${typeFlag} is not set.`,
        useRange(scale, ctx.commandRange),
        edits.length ? [{ title: `Use YaRN: ${optionText(yarn)}`, kind: 'yarn', preferred: true, edits }] : [],
        `${written} without ${typeFlag} runs linear interpolation (${engine.label}'s default when the GGUF names no scaling type), which blurs nearby tokens on a model not fine-tuned for it.${vendor}`,
      ),
    ];
  },
};
