/**
 * advice.md situation 3 in each engine's own syntax, edited into the user's command: override
 * JSON for vLLM and SGLang (shared with the --config YAML, rules/launch/vllmLength.ts), flags for
 * llama.cpp (`--rope-scaling yarn --rope-scale s --yarn-orig-ctx T`, NTK through
 * `--rope-freq-base`, linear) and TGI (`--rope-scaling dynamic|linear --rope-factor s`; its CLI
 * has no YaRN). Each with its verdict on the bound at the served length; the preferred one ranked
 * as for a checkpoint run as is. Ollama has no RoPE option: none.
 */
import type { Fix, TextEdit } from '../../core/findings';
import { LaunchRuleContext, flagSetter, overrideWriter } from './context';
import { overrideExtensionFixes } from './vllmLength';
import { judgedRewrites, RewriteCandidate } from '../../fixes/extension';
import { factorValue } from '../../fixes/rewrites';
import { ntkAwareBase } from '../../rope/seedMethods';
import { fmt, fmtPlain } from '../../core/format';
import { argNumber } from '../../serving/common';
import { llamaCppArch, llamaCppScalingOptions, llamaOptionText } from '../../serving/llamacpp';

/** The `--override-kv` that lifts llama-server's per-slot cap to `length`, when the architecture is known. */
export function contextOverrideKv(ctx: LaunchRuleContext, length: number): { name: string; flag: string; value: string } | undefined {
  const arch = llamaCppArch(ctx.model?.modelType);
  return arch ? { name: 'override-kv', flag: '--override-kv', value: `${arch}.context_length=int:${length}` } : undefined;
}

/**
 * The base the command itself sets above the model's own (llama.cpp `--rope-freq-base`, an
 * override's rope_theta), and whether it already is the NTK-aware base for `length` (within 10%:
 * 2,000,000 for Llama-3's 500,000 at ×4, whose exact value is 2,044,497). Such a command has
 * extended the context its own way: no scaling goes on top of it, and no second raise.
 */
export function commandRaisedBase(ctx: LaunchRuleContext, length: number): { base: number; own: number; covers: boolean } | undefined {
  const own = ctx.model?.base.value, base = ctx.effect?.rope.base.value, T = ctx.trained;
  const dim = ctx.effect?.rope.rotaryDim.value;
  if (own === undefined || base === undefined || !(base > own * (1 + 1e-9)) || !Number.isFinite(base)) return undefined;
  const s = T !== undefined && T > 0 ? length / T : 1;
  const covers = s <= 1 || (dim !== undefined && Number.isFinite(dim) && base >= 0.9 * ntkAwareBase(own, s, dim));
  return { base, own, covers };
}

/** Scaling fixes for running the model at `length` past its trained context, in the engine's syntax. */
export function extensionFixes(ctx: LaunchRuleContext, length: number, opts: { liftCap?: boolean } = {}): Fix[] {
  const T = ctx.trained, effect = ctx.effect;
  if (T === undefined || !effect || effect.facts.type !== 'none' || !(length > T)) return [];
  // Never stack a scaling (or a second raise) on a base the command already raised.
  if (commandRaisedBase(ctx, length)) return [];
  const rope = effect.rope;
  switch (ctx.engine) {
    case 'vllm':
      return overrideExtensionFixes({ length, trained: T, effective: rope, facts: effect.facts, setOverrides: overrideWriter(ctx, '--hf-overrides') })
        .filter((f) => f.edits.length > 0);
    case 'sglang':
      return overrideExtensionFixes({ length, trained: T, effective: rope, facts: effect.facts, setOverrides: overrideWriter(ctx, '--json-model-override-args'), overrideName: 'json-model-override-args', yarnSetsLength: true })
        .filter((f) => f.edits.length > 0);
    case 'llama.cpp':
      return llamaFixes(ctx, length, T, opts.liftCap === true);
    case 'tgi':
      return tgiFixes(ctx, length, T);
    default:
      return [];
  }
}

function llamaFixes(ctx: LaunchRuleContext, C: number, T: number, liftCap: boolean): Fix[] {
  const set = flagSetter(ctx);
  const s = C / T;
  const factor = factorValue(s);
  const base = ctx.effect!.rope.base.value, dim = ctx.effect!.rope.rotaryDim.value;
  const kv = liftCap ? contextOverrideKv(ctx, C) : undefined;
  const tail = kv ? [kv] : [];
  const tailTitle = kv ? `, ${kv.flag} ${kv.value}` : '';
  const common = { base, rotaryDim: dim, maxPositionEmbeddings: C };
  const candidates: RewriteCandidate[] = [];
  const add = (title: string, kind: Fix['kind'], edits: TextEdit[], spec: RewriteCandidate['spec']) => {
    if (edits.length) candidates.push({ fix: { title, kind, edits }, spec });
  };
  // Options, edits and titles from the engine's one writer of its scaling flags.
  const yarn = llamaCppScalingOptions({ type: 'yarn', factor, original: T });
  add(`Add YaRN flags: ${llamaOptionText(yarn)}${tailTitle}`, 'yarn', set([...yarn, ...tail]),
    { ...common, ropeType: 'yarn', factor, originalMaxPositionEmbeddings: T });
  if (Number.isFinite(base) && Number.isFinite(dim)) {
    const ntk = ntkAwareBase(base, s, dim);
    const opts = llamaCppScalingOptions({ type: 'ntk', base: fmtPlain(ntk) });
    add(`Apply NTK scaling: ${llamaOptionText(opts)} (was ${fmtPlain(base)}; s = ${fmt(s)}, d = ${dim})${tailTitle}`, 'ntk',
      set([...opts, ...tail]), { ...common, ropeType: 'default', base: ntk });
  }
  const linear = llamaCppScalingOptions({ type: 'linear', factor });
  add(`Add linear scaling flags: ${llamaOptionText(linear)}${tailTitle}`, 'linear', set([...linear, ...tail]),
    { ...common, ropeType: 'linear', factor });
  return judgedRewrites(candidates, { reach: C, variant: ctx.variant, training: false });
}

function tgiFixes(ctx: LaunchRuleContext, C: number, T: number): Fix[] {
  const set = flagSetter(ctx);
  const factor = factorValue(C / T);
  const base = ctx.effect!.rope.base.value, dim = ctx.effect!.rope.rotaryDim.value;
  const common = { base, rotaryDim: dim, maxPositionEmbeddings: C };
  const candidates: RewriteCandidate[] = [];
  const dyn = set([{ name: 'rope-scaling', flag: '--rope-scaling', value: 'dynamic' }, { name: 'rope-factor', flag: '--rope-factor', value: argNumber(factor) }]);
  if (dyn.length) candidates.push({ fix: { title: `Add dynamic NTK flags: --rope-scaling dynamic --rope-factor ${argNumber(factor)} (TGI's CLI has no YaRN; YaRN goes in config.json)`, kind: 'dynamic', edits: dyn }, spec: { ...common, ropeType: 'dynamic', factor, maxPositionEmbeddings: T }, seqLen: C });
  const lin = set([{ name: 'rope-scaling', flag: '--rope-scaling', value: 'linear' }, { name: 'rope-factor', flag: '--rope-factor', value: argNumber(factor) }]);
  if (lin.length) candidates.push({ fix: { title: `Add linear scaling flags: --rope-scaling linear --rope-factor ${argNumber(factor)}`, kind: 'linear', edits: lin }, spec: { ...common, ropeType: 'linear', factor } });
  return judgedRewrites(candidates, { reach: C, variant: ctx.variant, training: false });
}
