/**
 * launch/model-unresolved (information): the model the command names is neither a local folder,
 * nor in the Hugging Face cache, nor in the catalog (also after dropping a GGUF quantisation suffix),
 * so the engine's derived length and the trained context are unknown: nothing is invented. A
 * vLLM command uses serving/model-unresolved, as its --config YAML does.
 */
import { finding, shown } from '../context';
import { ENGINE_LABEL, LaunchRule, tokenRange } from './context';

/** A vLLM request's model (command or --config YAML): one code for both. */
export const SERVING_MODEL_UNRESOLVED = 'serving/model-unresolved';

export const LAUNCH_MODEL_UNRESOLVED = 'launch/model-unresolved';

export const launchUnresolvedRule: LaunchRule = {
  codes: [LAUNCH_MODEL_UNRESOLVED, SERVING_MODEL_UNRESOLVED],
  check(ctx) {
    const m = ctx.request.model;
    if (ctx.resolved || !m) return [];
    const range = tokenRange(m, ctx.commandRange);
    // `$1`, `${MODEL_NAME}` with nothing assigned in the file: the model is chosen when the script runs.
    // A path whose folder is `$HOME/…` still names its model by its last segment.
    const atRunTime = /\$/.test(m.value.replace(/\/+$/, '').split('/').pop() ?? m.value);
    const lookedFor = atRunTime
      ? `The model is only known when the script runs (${shown(m.value)})`
      : undefined;
    if (ctx.engine === 'vllm') {
      if (lookedFor) return [finding(SERVING_MODEL_UNRESOLVED, 'information', `${lookedFor}: max-model-len cannot be checked against the length vLLM derives.`, range)];
      return [finding(SERVING_MODEL_UNRESOLVED, 'information',
        `Model ${shown(m.value)} was not found offline (local folder, Hugging Face cache, built-in catalog): max-model-len cannot be checked against the length vLLM derives.`, range)];
    }
    const named = ctx.named ? ` It is read as ${ctx.named}, which is not in the catalog.` : '';
    const what = ctx.request.length ? `${ctx.request.length.option.name} ${ctx.request.length.value} cannot be checked against the length ${ENGINE_LABEL[ctx.engine]} derives or the context it was trained at` : `the length ${ENGINE_LABEL[ctx.engine]} derives and the context it was trained at are unknown`;
    if (lookedFor) return [finding(LAUNCH_MODEL_UNRESOLVED, 'information', `${lookedFor}: ${what}.`, range)];
    return [finding(LAUNCH_MODEL_UNRESOLVED, 'information',
      `Model ${shown(m.value)} was not found offline (local folder, Hugging Face cache, built-in catalog${ctx.engine === 'llama.cpp' || ctx.engine === 'ollama' ? ', its file name without the quantisation suffix' : ''}): ${what}.${named}`, range)];
  },
};
