/**
 * launch/beyond-trained (warning): the engine accepts the requested length (it is within what it
 * derives), but the length is beyond the context the checkpoint was trained at and no RoPE scaling
 * is in effect: every position past the trained context is extrapolated (advice.md situation 3).
 * Fixes: that engine's scaling, edited into the command (rules/launch/engineFixes.ts). vLLM's
 * counterpart is vllm/context-beyond-trained (rules/launch/length.ts, shared with the YAML).
 */
import { finding, fmt } from '../context';
import { LaunchRule, engineOf, useRange } from './context';
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
    if (spec.ownCodes || !len || !effect || T === undefined || effect.droppedScalingKeys) return [];
    const C = len.value;
    if (C > effect.derived) return [];
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
