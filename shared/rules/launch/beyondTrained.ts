/**
 * launch/beyond-trained (warning): the engine accepts the requested length (it is within what it
 * derives), but the length is beyond the context the checkpoint was trained at and no RoPE scaling
 * is in effect: every position past the trained context is extrapolated (advice.md situation 3).
 * Fixes: that engine's scaling, edited into the command (rules/launch/engineFixes.ts). vLLM's
 * counterpart is vllm/context-beyond-trained (rules/launch/length.ts, shared with the YAML).
 */
import type { Finding, Fix } from '../../core/findings';
import type { Range } from '../../core/range';
import { finding, fmt } from '../context';
import { LaunchRule, LaunchRuleContext, engineOf, overrideWriter, useRange } from './context';
import { roundFactor } from '../../fixes/rewrites';
import { modelReach } from '../../config/reach';
import { commandRaisedBase, extensionFixes } from './engineFixes';
import { lengthLabel } from './length';
import { extensionFrom } from '../../serving/common';

export const BEYOND_TRAINED = 'launch/beyond-trained';

export const beyondTrainedRule: LaunchRule = {
  codes: [BEYOND_TRAINED],
  check(ctx) {
    const len = ctx.request.length;
    const effect = ctx.effect,
      T = ctx.trained;
    const spec = engineOf(ctx);
    // An engine judged under its own codes says this as its own (vllm/context-beyond-trained).
    if (spec.ownCodes || !effect || T === undefined || effect.droppedScalingKeys) return [];
    if (!len) return pastShippedScaling(ctx, effect.derived, useRange(ctx.request.overrides?.option, ctx.commandRange), true);
    const C = len.value;
    if (C > effect.derived) return [];
    const past = pastShippedScaling(ctx, C, useRange(len.option, ctx.commandRange), false);
    if (past.length) return past;
    // The command raised the base to the NTK-aware base for C: that is its extension.
    if (commandRaisedBase(ctx, C)?.covers) return [];
    // From the model's own reach (a fine-tune's own rope_theta may already extend it), and only
    // where some layer the engine runs without a window would see past it.
    const from = extensionFrom({ rope: effect.rope, trainedContext: T }, effect.facts, C, spec.honoursWindows(effect.rope.modelType));
    if (from === undefined) return [];
    const engine = spec.label;
    const none = spec.noScalingOption ?? spec.override?.ignoresRopeKeys?.(effect.rope.modelType);
    const how = none ? ` ${none}` : '';
    return [
      finding(
        BEYOND_TRAINED,
        'warning',
        `${engine} extrapolates every position past ${fmt(from)}: no RoPE scaling covers ${lengthLabel(ctx)} ${fmt(C)}.`,
        useRange(len.option, ctx.commandRange),
        extensionFixes(ctx, C),
        `${lengthLabel(ctx)} ${fmt(C)} is beyond the ${fmt(from)} tokens ${ctx.modelName} was trained ${from === T ? 'at' : 'to'} and no RoPE scaling is in effect; ${engine} accepts it.${how}`,
      ),
    ];
  },
};

/**
 * advice.md situation 4 at an engine: the model keeps the scaling it ships (same type and factor)
 * while the command asks for more than it covers (SGLang `--json-model-override-args
 * '{"max_position_embeddings": 262144}'` on Llama-3.1-8B, whose llama3 ×8 covers 131,072). With
 * no length option (`implied`), the engine serves the context the override raised.
 */
function pastShippedScaling(ctx: LaunchRuleContext, C: number, range: Range, implied: boolean): Finding[] {
  const effect = ctx.effect!;
  if (implied && !(ctx.model && effect.rope.contextLength.value > ctx.model.contextLength.value)) return [];
  if (effect.facts.type === 'none') return [];
  const reach = modelReach(effect.rope, ctx.trained);
  if (!reach.shippedScaling || !(C > reach.value)) return [];
  const engine = engineOf(ctx).label;
  const said = implied ? `max_position_embeddings ${fmt(C)} from ${ctx.request.overrides?.option.name ?? 'the override'}` : `${lengthLabel(ctx)} ${fmt(C)}`;
  return [
    finding(
      BEYOND_TRAINED,
      'warning',
      `${engine} extrapolates every position past ${fmt(reach.value)}: ${said} is beyond what the model's scaling covers.`,
      range,
      resizeFix(ctx, C, reach.value),
      `${said} is beyond the ${fmt(reach.value)} tokens ${ctx.modelName} reaches (${reach.basis}); ${engine} accepts it. Re-size the model's own scaling for ${fmt(C)} or lower the length to ${fmt(reach.value)}.`,
    ),
  ];
}

/** The model's own llama3 block re-sized to cover C, written into the engine's JSON override (SGLang), when it has one. */
function resizeFix(ctx: LaunchRuleContext, C: number, covered: number): Fix[] {
  const e = ctx.effect!;
  const flag = engineOf(ctx).override?.flag;
  const s = e.rope.scaling;
  const { type, factor, original } = e.facts;
  if (!flag || !ctx.request.overrides || !s || type !== 'llama3' || factor === undefined || original === undefined) return [];
  const next = roundFactor(C / original);
  if (!(next > factor) || !(next * original >= covered)) return [];
  const block: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(s.params)) if (v.value !== undefined) block[k] = v.value;
  block.rope_type = 'llama3';
  block.factor = next;
  const edits = overrideWriter(ctx, flag)({ rope_scaling: block });
  return edits.length
    ? [
        {
          title: `Re-size the llama3 scaling in ${flag.replace(/^--/, '')}: factor ${fmt(factor)} → ${fmt(next)} over original_max_position_embeddings ${fmt(original)}, covers ${fmt(next * original)}`,
          kind: 'llama3',
          preferred: true,
          edits,
        },
      ]
    : [];
}
