/**
 * launch/beyond-trained (warning): the engine accepts the requested length (it is within what it
 * derives), but the length is beyond the context the checkpoint was trained at and no RoPE scaling
 * is in effect: every position past the trained context is extrapolated (advice.md situation 3).
 * Fixes: that engine's scaling, edited into the command (rules/launch/engineFixes.ts). vLLM's
 * counterpart is vllm/context-beyond-trained (rules/launch/length.ts, shared with the YAML).
 */
import { finding, fmt } from '../context';
import { ENGINE_LABEL, LaunchRule, useRange } from './context';
import { commandRaisedBase, extensionFixes } from './engineFixes';
import { lengthLabel } from './length';
import { extensionFrom } from '../../serving/common';
import { sglangHonoursWindows } from '../../serving/sglang';
import { llamaCppHonoursWindows } from '../../serving/llamacpp';

/** Whether the engine applies the model's sliding windows (serving/sglang.ts, serving/llamacpp.ts). */
function honoursWindows(engine: string, modelType: string | undefined): boolean {
  if (engine === 'sglang') return sglangHonoursWindows(modelType);
  if (engine === 'llama.cpp' || engine === 'ollama') return llamaCppHonoursWindows(modelType);
  return true;
}

export const BEYOND_TRAINED = 'launch/beyond-trained';

export const beyondTrainedRule: LaunchRule = {
  codes: [BEYOND_TRAINED],
  check(ctx) {
    const len = ctx.request.length;
    const effect = ctx.effect, T = ctx.trained;
    if (ctx.engine === 'vllm' || !len || !effect || T === undefined) return [];
    const C = len.value;
    if (C > effect.derived) return [];
    // The command raised the base to the NTK-aware base for C: that is its extension.
    if (commandRaisedBase(ctx, C)?.covers) return [];
    // From the model's own reach (a fine-tune's own rope_theta may already extend it), and only
    // where some layer the engine runs without a window would see past it.
    const from = extensionFrom({ rope: effect.rope, trainedContext: T }, effect.facts, C, honoursWindows(ctx.engine, effect.rope.modelType));
    if (from === undefined) return [];
    const engine = ENGINE_LABEL[ctx.engine];
    const how = ctx.engine === 'ollama'
      ? ' Ollama has no RoPE option: convert the GGUF from a config with rope_scaling yarn, or serve it with llama.cpp\'s --rope-scaling yarn flags.'
      : '';
    return [finding(BEYOND_TRAINED, 'warning',
      `${lengthLabel(ctx)} ${fmt(C)} is beyond the ${fmt(from)} tokens ${ctx.modelName} was trained ${from === T ? 'at' : 'to'} and no RoPE scaling is in effect: ${engine} accepts it and extrapolates every position past ${fmt(from)}.${how}`,
      useRange(len.option, ctx.commandRange), extensionFixes(ctx, C))];
  },
};
