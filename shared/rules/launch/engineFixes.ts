/**
 * advice.md situation 3 in each engine's own syntax, edited into the user's command: override
 * JSON for vLLM and SGLang (shared with the --config YAML, rules/launch/vllmLength.ts), flags for
 * llama.cpp (`--rope-scaling yarn --rope-scale s --yarn-orig-ctx T`, NTK through
 * `--rope-freq-base`, linear) and TGI (`--rope-scaling dynamic|linear --rope-factor s`; its CLI
 * has no YaRN). Each with its verdict on the bound at the served length; the preferred one ranked
 * as for a checkpoint run as is. Ollama has no RoPE option: none.
 */
import type { Fix } from '../../core/findings';
import { LaunchRuleContext, engineOf, flagSetter, overrideWriter } from './context';
import { optionText, type Engine, type FlagScaling } from '../../serving/engine';
import { overrideExtensionFixes } from './vllmLength';
import { judgedRewrites, rewriteOf, RewriteCandidate } from '../../fixes/extension';
import { RewriteAdvice, RewriteOption, adviseRewrite } from '../../advice/advice';
import { ropeReachAt } from '../../config/reach';
import { ntkAwareBase } from '../../rope/seedMethods';
import { fmt, fmtPlain } from '../../core/format';

/**
 * The base the command itself sets above the model's own (llama.cpp `--rope-freq-base`, an
 * override's rope_theta), and whether it already is the NTK-aware base for `length` (within 10%:
 * 2,000,000 for Llama-3's 500,000 at ×4, whose exact value is 2,044,497). Such a command has
 * extended the context its own way: no scaling goes on top of it, and no second raise.
 */
export function commandRaisedBase(ctx: LaunchRuleContext, length: number): { base: number; own: number; covers: boolean } | undefined {
  const own = ctx.model?.base.value,
    base = ctx.effect?.rope.base.value,
    T = ctx.trained;
  const dim = ctx.effect?.rope.rotaryDim.value;
  if (own === undefined || base === undefined || !(base > own * (1 + 1e-9)) || !Number.isFinite(base)) return undefined;
  const s = T !== undefined && T > 0 ? length / T : 1;
  const covers = s <= 1 || (dim !== undefined && Number.isFinite(dim) && base >= 0.9 * ntkAwareBase(own, s, dim));
  return { base, own, covers };
}

/** Scaling fixes for running the model at `length` past its trained context, in the engine's syntax. */
export function extensionFixes(ctx: LaunchRuleContext, length: number, opts: { liftCap?: boolean } = {}): Fix[] {
  const T = ctx.trained,
    effect = ctx.effect;
  if (T === undefined || !effect || effect.facts.type !== 'none' || !(length > T)) return [];
  // Never stack a scaling (or a second raise) on a base the command already raised.
  if (commandRaisedBase(ctx, length)) return [];
  const rope = effect.rope;
  const engine = engineOf(ctx);
  if (engine.override) {
    const o = engine.override;
    // The fixes are checked against the length the engine derives with them: without its rule, none.
    if (!engine.lengthPolicy) return [];
    // An override the model's attention never reads extends nothing (SGLang's ChatGLM: rope_ratio only).
    if (o.ignoresRopeKeys?.(rope.modelType)) return [];
    // Judged as the finding is: over every distance up to C where the engine runs the model without its windows.
    const windowsOff = !engine.honoursWindows(rope.modelType);
    return overrideExtensionFixes({
      policy: engine.lengthPolicy,
      length,
      trained: T,
      effective: rope,
      facts: effect.facts,
      setOverrides: overrideWriter(ctx, o.flag),
      overrideName: o.name,
      ...(o.yarnSetsLength ? { yarnSetsLength: true } : {}),
      ...(windowsOff ? { windowsOff } : {}),
    }).filter((f) => f.edits.length > 0);
  }
  return engine.scalingFlags ? flagFixes(ctx, engine.scalingFlags, length, T, opts.liftCap === true) : [];
}

/** The one recommendation (advice/advice.ts) for this launch, judged over what the layers see at C. */
function adviceFor(ctx: LaunchRuleContext, C: number, T: number): RewriteAdvice | undefined {
  const rope = ctx.effect!.rope;
  return adviseRewrite({ rope, length: C, trained: T, from: T, reach: ropeReachAt(rope, C), variant: ctx.variant });
}

type ScalingFlags = NonNullable<Engine['scalingFlags']>;

/**
 * An advised rewrite as scaling flags say it; undefined for Gradient's base (a base to train
 * with) and for a vendor recipe other than YaRN (its block holds keys no engine flag takes).
 */
function flagScalingOf(o: RewriteOption): FlagScaling | undefined {
  if (o.recipe && o.kind !== 'yarn') return undefined;
  switch (o.kind) {
    case 'yarn':
      return o.original !== undefined ? { type: 'yarn', factor: o.factor, original: o.original } : undefined;
    case 'ntk':
      return o.base !== undefined && Number.isFinite(o.base) ? { type: 'ntk', base: fmtPlain(o.base) } : undefined;
    case 'linear':
      return { type: 'linear', factor: o.factor };
    case 'dynamic':
      return { type: 'dynamic', factor: o.factor };
    default:
      return undefined;
  }
}

/** Listed YaRN, NTK, dynamic, linear (a vendor's recipe first); the preferred one is the advice's first the engine can write. */
const FLAG_ORDER: Record<string, number> = { yarn: 0, ntk: 1, dynamic: 2, linear: 3 };

/**
 * The advice's rewrites written as the engine's flags, each one its writer can say (llama.cpp:
 * YaRN, NTK through the base, linear; TGI: dynamic NTK, linear), judged at the served length.
 */
function flagFixes(ctx: LaunchRuleContext, flags: ScalingFlags, C: number, T: number, liftCap: boolean): Fix[] {
  const set = flagSetter(ctx);
  const advice = adviceFor(ctx, C, T);
  if (!advice) return [];
  const kv = liftCap ? engineOf(ctx).liftLength?.(ctx.model?.modelType, C) : undefined;
  const tail = kv ? [kv] : [];
  const tailTitle = kv ? `, ${kv.flag} ${kv.value}` : '';
  const candidates: RewriteCandidate[] = [];
  // Options, edits and titles from the engine's one writer of its scaling flags.
  for (const o of advice.options) {
    const scaling = flagScalingOf(o);
    const opts = scaling && flags.write(scaling);
    if (!scaling || !opts) continue;
    const text = optionText(opts);
    const note = flags.titleNote?.[scaling.type];
    const whose = o.recipe ? (o.recipe.restores ? ` restoring ${o.recipe.who}'s YaRN` : ` as ${o.recipe.who} documents them`) : '';
    const title =
      scaling.type === 'yarn'
        ? `Add YaRN flags${whose}: ${text}`
        : scaling.type === 'ntk'
          ? `Apply NTK scaling: ${text} (was ${fmtPlain(advice.base)}; s = ${fmt(o.factor)}, d = ${advice.dim})`
          : scaling.type === 'dynamic'
            ? `Add dynamic NTK flags: ${text}`
            : `Add linear scaling flags: ${text}`;
    const edits = set([...opts, ...tail]);
    if (edits.length) {
      candidates.push({
        fix: { title: `${title}${note ? ` (${note})` : ''}${tailTitle}`, kind: o.kind, edits, rewrite: rewriteOf(o) },
        spec: o.spec,
        ...(o.seqLen !== undefined ? { seqLen: o.seqLen } : {}),
        recipe: !!o.recipe,
      });
    }
  }
  candidates.sort((a, b) => (a.recipe ? -1 : 0) - (b.recipe ? -1 : 0) || (FLAG_ORDER[a.fix.kind] ?? 9) - (FLAG_ORDER[b.fix.kind] ?? 9));
  return judgedRewrites(candidates, { reach: advice.reach, variant: ctx.variant, training: false, advice });
}
