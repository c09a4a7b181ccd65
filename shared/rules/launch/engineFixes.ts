/**
 * advice.md situation 3 in each engine's own syntax, edited into the user's command: override
 * JSON for vLLM and SGLang (shared with the --config YAML, rules/launch/vllmLength.ts), flags for
 * llama.cpp (`--rope-scaling yarn --rope-scale s --yarn-orig-ctx T`, NTK through
 * `--rope-freq-base`, linear) and TGI (`--rope-scaling dynamic|linear --rope-factor s`; its CLI
 * has no YaRN). Each with its verdict on the bound at the served length; the preferred one ranked
 * as for a checkpoint run as is. Ollama has no RoPE option: none.
 */
import type { Fix, TextEdit } from '../../core/findings';
import { LaunchRuleContext, engineOf, flagSetter, overrideWriter } from './context';
import type { Engine, FlagScaling } from '../../serving/engine';
import { overrideExtensionFixes } from './vllmLength';
import { judgedRewrites, RewriteCandidate } from '../../fixes/extension';
import { factorValue } from '../../fixes/rewrites';
import { ntkAwareBase } from '../../rope/seedMethods';
import { fmt, fmtPlain } from '../../core/format';
import { optionText } from '../../serving/engine';

/** Scaling fixes for running the model at `length` past its trained context, in the engine's syntax. */
export function extensionFixes(ctx: LaunchRuleContext, length: number, opts: { liftCap?: boolean } = {}): Fix[] {
  const T = ctx.trained, effect = ctx.effect;
  if (T === undefined || !effect || effect.facts.type !== 'none' || !(length > T)) return [];
  const rope = effect.rope;
  const engine = engineOf(ctx);
  if (engine.override) {
    const o = engine.override;
    return overrideExtensionFixes({ length, trained: T, effective: rope, facts: effect.facts, setOverrides: overrideWriter(ctx, o.flag), overrideName: o.name, ...(o.yarnSetsLength ? { yarnSetsLength: true } : {}) })
      .filter((f) => f.edits.length > 0);
  }
  return engine.scalingFlags ? flagFixes(ctx, engine.scalingFlags, length, T, opts.liftCap === true) : [];
}

type ScalingFlags = NonNullable<Engine['scalingFlags']>;

/**
 * Scalings written as the engine's flags, each kind its writer can say (llama.cpp: YaRN, NTK through
 * the base, linear; TGI: dynamic NTK, linear), judged at the served length.
 */
function flagFixes(ctx: LaunchRuleContext, flags: ScalingFlags, C: number, T: number, liftCap: boolean): Fix[] {
  const set = flagSetter(ctx);
  const s = C / T;
  const factor = factorValue(s);
  const base = ctx.effect!.rope.base.value, dim = ctx.effect!.rope.rotaryDim.value;
  const kv = liftCap ? engineOf(ctx).liftLength?.(ctx.model?.modelType, C) : undefined;
  const tail = kv ? [kv] : [];
  const tailTitle = kv ? `, ${kv.flag} ${kv.value}` : '';
  const common = { base, rotaryDim: dim, maxPositionEmbeddings: C };
  const candidates: RewriteCandidate[] = [];
  // Options, edits and titles from the engine's one writer of its scaling flags.
  const add = (scaling: FlagScaling, title: (text: string) => string, kind: Fix['kind'], spec: RewriteCandidate['spec'], seqLen?: number) => {
    const opts = flags.write(scaling);
    if (!opts) return;
    const edits = set([...opts, ...tail]);
    const note = flags.titleNote?.[scaling.type];
    if (edits.length) candidates.push({ fix: { title: `${title(optionText(opts))}${note ? ` (${note})` : ''}${tailTitle}`, kind, edits }, spec, ...(seqLen !== undefined ? { seqLen } : {}) });
  };
  add({ type: 'yarn', factor, original: T }, (t) => `Add YaRN flags: ${t}`, 'yarn', { ...common, ropeType: 'yarn', factor, originalMaxPositionEmbeddings: T });
  if (Number.isFinite(base) && Number.isFinite(dim)) {
    const ntk = ntkAwareBase(base, s, dim);
    add({ type: 'ntk', base: fmtPlain(ntk) }, (t) => `Apply NTK scaling: ${t} (was ${fmtPlain(base)}; s = ${fmt(s)}, d = ${dim})`, 'ntk', { ...common, ropeType: 'default', base: ntk });
  }
  add({ type: 'dynamic', factor }, (t) => `Add dynamic NTK flags: ${t}`, 'dynamic', { ...common, ropeType: 'dynamic', factor, maxPositionEmbeddings: T }, C);
  add({ type: 'linear', factor }, (t) => `Add linear scaling flags: ${t}`, 'linear', { ...common, ropeType: 'linear', factor });
  return judgedRewrites(candidates, { reach: C, variant: ctx.variant, training: false });
}
