/**
 * Why a request is not judged: the model it names is neither a local folder, nor in the Hugging
 * Face cache, nor in the catalog (also after dropping a GGUF quantisation suffix), or it is only
 * known when the script runs, so the engine's derived length and the trained context are unknown:
 * nothing is invented. This is not a finding on each launch (on real launch files it was most of
 * them): the reason goes on the launch's description, the CLI sums them up in one line and the
 * hover says it. The codes stay reserved for what was reported before.
 */
import { shown } from '../context';
import { LaunchRuleContext, engineOf } from './context';
import { trimTrailing } from '../../core/text';
import { noRopeSentence } from '../../config/noRopeModel';

/** The model as written, and the catalog's id when the name only stands for it (a folder, a file). */
function noRopeName(written: string, id: string): string {
  return written.toLowerCase() === id.toLowerCase() ? id : `${shown(written)} (read as ${id}, built-in catalog)`;
}

/** A vLLM request's model (command or --config YAML): one code for both. */
export const SERVING_MODEL_UNRESOLVED = 'serving/model-unresolved';

export const LAUNCH_MODEL_UNRESOLVED = 'launch/model-unresolved';

/** Why a request is not judged; `notFoundOffline` when a Hub lookup (`--hub`) could still find its model. */
export interface Unjudged {
  reason: string;
  notFoundOffline: boolean;
}

/** The reason a request with a named model is not judged, or undefined when its model was resolved. */
export function unjudgedReason(ctx: LaunchRuleContext): Unjudged | undefined {
  const m = ctx.request.model;
  if (ctx.resolved || !m) return undefined;
  const said = (reason: string): Unjudged => ({ reason, notFoundOffline: false });
  const notFound = (reason: string): Unjudged => ({ reason, notFoundOffline: true });
  // A catalog model without RoPE: the words `serve` uses for it, and nothing to judge.
  if (ctx.noRope) return said(`${noRopeSentence(noRopeName(m.value, ctx.noRope.entry.id), ctx.noRope.why)}: there is no RoPE to judge.`);
  // `$1`, `${MODEL_NAME}` with nothing assigned in the file: the model is chosen when the script runs.
  // A path whose folder is `$HOME/…` still names its model by its last segment.
  const atRunTime = /\$/.test(trimTrailing(m.value, '/').split('/').pop() ?? m.value);
  const lookedFor = atRunTime ? `The model is only known when the script runs (${shown(m.value)})` : undefined;
  const engine = engineOf(ctx);
  if (engine.ownCodes) {
    // Its config file and its command say it alike (serving/model-unresolved).
    if (lookedFor) return said(`${lookedFor}: max-model-len cannot be checked against the length ${engine.label} derives.`);
    return notFound(
      `Model ${shown(m.value)} was not found offline (local folder, Hugging Face cache, built-in catalog): max-model-len cannot be checked against the length ${engine.label} derives.`,
    );
  }
  const named = ctx.named ? ` It is read as ${ctx.named}, which is not in the catalog.` : '';
  const what = ctx.request.length
    ? `${ctx.request.length.option.name} ${ctx.request.length.value} cannot be checked against the length ${engine.label} derives or the context it was trained at`
    : `the length ${engine.label} derives and the context it was trained at are unknown`;
  if (lookedFor) return said(`${lookedFor}: ${what}.`);
  return notFound(
    `Model ${shown(m.value)} was not found offline (local folder, Hugging Face cache, built-in catalog${engine.gguf ? ', its file name without the quantisation suffix' : ''}): ${what}.${named}`,
  );
}
