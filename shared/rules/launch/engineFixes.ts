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
import { judgedRewrites, rewriteOf, RewriteCandidate } from '../../fixes/extension';
import { RewriteAdvice, RewriteOption, adviseRewrite } from '../../advice/advice';
import { ropeReachAt } from '../../config/reach';
import { ntkAwareBase } from '../../rope/seedMethods';
import { fmt, fmtPlain } from '../../core/format';
import { argNumber } from '../../serving/common';
import { llamaCppArch, llamaCppOptionsOf, llamaOptionText } from '../../serving/llamacpp';

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

/** The one recommendation (advice/advice.ts) for this launch, judged over what the layers see at C. */
function adviceFor(ctx: LaunchRuleContext, C: number, T: number): RewriteAdvice | undefined {
  const rope = ctx.effect!.rope;
  return adviseRewrite({ rope, length: C, trained: T, from: T, reach: ropeReachAt(rope, C), variant: ctx.variant });
}

function llamaFixes(ctx: LaunchRuleContext, C: number, T: number, liftCap: boolean): Fix[] {
  const set = flagSetter(ctx);
  const advice = adviceFor(ctx, C, T);
  if (!advice) return [];
  const kv = liftCap ? contextOverrideKv(ctx, C) : undefined;
  const tail = kv ? [kv] : [];
  const tailTitle = kv ? `, ${kv.flag} ${kv.value}` : '';
  const candidates: RewriteCandidate[] = [];
  const add = (title: string, kind: Fix['kind'], edits: TextEdit[], o: RewriteOption) => {
    if (edits.length) candidates.push({ fix: { title, kind, edits, rewrite: rewriteOf(o) }, spec: o.spec, seqLen: o.seqLen, recipe: !!o.recipe });
  };
  for (const o of advice.options) {
    // Options, edits and titles from the engine's one writer of its scaling flags.
    const opts = llamaCppOptionsOf(o);
    if (!opts) continue;
    if (o.kind === 'yarn') {
      const whose = o.recipe ? (o.recipe.restores ? ` restoring ${o.recipe.who}'s YaRN` : ` as ${o.recipe.who} documents them`) : '';
      add(`Add YaRN flags${whose}: ${llamaOptionText(opts)}${tailTitle}`, 'yarn', set([...opts, ...tail]), o);
    } else if (o.kind === 'ntk') {
      add(`Apply NTK scaling: ${llamaOptionText(opts)} (was ${fmtPlain(advice.base)}; s = ${fmt(o.factor)}, d = ${advice.dim})${tailTitle}`, 'ntk', set([...opts, ...tail]), o);
    } else if (o.kind === 'linear' && !o.recipe) {
      add(`Add linear scaling flags: ${llamaOptionText(opts)}${tailTitle}`, 'linear', set([...opts, ...tail]), o);
    }
  }
  // Listed as before: YaRN, NTK, linear; the preferred one is the advice's first llama.cpp can write.
  const order: Record<string, number> = { yarn: 0, ntk: 1, linear: 2 };
  candidates.sort((a, b) => (a.recipe ? -1 : 0) - (b.recipe ? -1 : 0) || order[a.fix.kind] - order[b.fix.kind]);
  return judgedRewrites(candidates, { reach: advice.reach, variant: ctx.variant, training: false, advice });
}

function tgiFixes(ctx: LaunchRuleContext, C: number, T: number): Fix[] {
  const set = flagSetter(ctx);
  const advice = adviceFor(ctx, C, T);
  if (!advice) return [];
  const candidates: RewriteCandidate[] = [];
  for (const o of advice.options) {
    if (o.recipe) continue;
    if (o.kind === 'dynamic') {
      const dyn = set([{ name: 'rope-scaling', flag: '--rope-scaling', value: 'dynamic' }, { name: 'rope-factor', flag: '--rope-factor', value: argNumber(o.factor) }]);
      if (dyn.length) candidates.push({ fix: { title: `Add dynamic NTK flags: --rope-scaling dynamic --rope-factor ${argNumber(o.factor)} (TGI's CLI has no YaRN; YaRN goes in config.json)`, kind: 'dynamic', edits: dyn, rewrite: rewriteOf(o) }, spec: o.spec, seqLen: o.seqLen });
    } else if (o.kind === 'linear') {
      const lin = set([{ name: 'rope-scaling', flag: '--rope-scaling', value: 'linear' }, { name: 'rope-factor', flag: '--rope-factor', value: argNumber(o.factor) }]);
      if (lin.length) candidates.push({ fix: { title: `Add linear scaling flags: --rope-scaling linear --rope-factor ${argNumber(o.factor)}`, kind: 'linear', edits: lin, rewrite: rewriteOf(o) }, spec: o.spec });
    }
  }
  candidates.sort((a, b) => (a.fix.kind === 'dynamic' ? 0 : 1) - (b.fix.kind === 'dynamic' ? 0 : 1));
  return judgedRewrites(candidates, { reach: advice.reach, variant: ctx.variant, training: false, advice });
}
