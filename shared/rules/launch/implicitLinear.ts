/**
 * launch/implicit-linear (warning): llama.cpp given a scale (`--rope-scale N`, `--rope-freq-scale`,
 * or their LLAMA_ARG_* variables) with no `--rope-scaling`, on a GGUF that carries no scaling type:
 * `--rope-scaling` "defaults to linear unless specified by the model" (common/arg.cpp), so the
 * model runs with linear interpolation — which blurs nearby positions without fine-tuning, and is
 * not what vendors document for long inputs (Qwen2.5/Qwen3: YaRN). Fix: name YaRN with the trained
 * context as its original.
 */
import { finding, fmt } from '../context';
import { LaunchRule, flagSetter, useRange } from './context';

export const IMPLICIT_LINEAR = 'launch/implicit-linear';

export const implicitLinearRule: LaunchRule = {
  codes: [IMPLICIT_LINEAR],
  check(ctx) {
    if (ctx.engine !== 'llama.cpp' || !ctx.effect || ctx.trained === undefined) return [];
    const rope = ctx.request.rope;
    const scale = rope['rope-scale'] ?? rope['rope-freq-scale'];
    if (!scale || rope['rope-scaling']) return [];
    const own = ctx.modelFacts?.type;
    if (own === 'yarn' || own === 'linear') return [];
    if (ctx.effect.facts.type !== 'linear' || (ctx.effect.facts.factor ?? 1) === 1) return [];
    const T = ctx.trained;
    const vendor = /^qwen[23]/.test(ctx.model?.modelType ?? '') ? ` Qwen documents YaRN for inputs past ${fmt(T)}.` : '';
    const written = scale.flag === scale.value ? `${scale.name}=${scale.value?.value}` : `${scale.flag.value} ${scale.value?.value ?? ''}`.trim();
    const set = flagSetter(ctx);
    const edits = set([{ name: 'rope-scaling', flag: '--rope-scaling', value: 'yarn' }, ...(rope['yarn-orig-ctx'] ? [] : [{ name: 'yarn-orig-ctx', flag: '--yarn-orig-ctx', value: String(T) }])]);
    return [finding(IMPLICIT_LINEAR, 'warning',
      `${written} without --rope-scaling runs linear interpolation (llama.cpp's default when the GGUF names no scaling type): every position is compressed ×${fmt(ctx.effect.facts.factor ?? 1)}, which blurs nearby tokens on a model not fine-tuned for it.${vendor}`,
      useRange(scale, ctx.commandRange),
      edits.length ? [{ title: `Use YaRN: --rope-scaling yarn${rope['yarn-orig-ctx'] ? '' : ` --yarn-orig-ctx ${T}`}`, kind: 'yarn', preferred: true, edits }] : [])];
  },
};
