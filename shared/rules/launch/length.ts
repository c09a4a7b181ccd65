/**
 * The requested length against the length the engine derives for this command:
 *   vLLM: vllm/max-model-len-exceeds / vllm/context-beyond-trained (rules/launch/vllmLength.ts,
 *     shared with the --config YAML).
 *   launch/length-exceeds-derived, as each engine behaves:
 *     SGLang (error): `_derive_context_length` refuses "User-specified context_length (…) is greater
 *       than the derived context_length (…)" unless SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN=1
 *       (then a warning: it runs, "This may lead to incorrect model outputs or CUDA errors");
 *     llama-server (warning): caps each slot at the GGUF's context_length ("… exceeds the training
 *       context of the model … - capping"); llama-cli runs past it and warns of overflow;
 *     TGI (warning): the launcher never compares max_total_tokens with max_position_embeddings;
 *     Ollama (warning): clamps num_ctx ("requested context size too large for model").
 */
import type { Fix, Finding } from '../../core/findings';
import { finding, fmt } from '../context';
import { ENGINE_LABEL, LaunchRule, LaunchRuleContext, flagSetter, flagText, useRange } from './context';
import { vllmAllowsLong, vllmLengthFindings } from './vllmLength';
import { VLLM_LONG_ENV } from '../../serving/vllm';
import { SGLANG_LONG_ENV } from '../../serving/sglang';
import { MAX_LEN_EXCEEDS, SERVING_BEYOND_TRAINED, SERVING_STATIC_YARN } from './vllmLength';
import { commandRaisedBase, contextOverrideKv, extensionFixes } from './engineFixes';
import { overrideWriter } from './context';

export const LENGTH_EXCEEDS_DERIVED = 'launch/length-exceeds-derived';

/** The length option as the command writes it (`--context-length`, `-c`, `num_ctx`, `OLLAMA_CONTEXT_LENGTH`). */
export function lengthLabel(ctx: LaunchRuleContext): string {
  const o = ctx.request.length?.option;
  if (!o) return 'the length';
  if (o.flag === o.value) return o.name;
  return flagText(o, o.name);
}

/** Whether the scaling in effect reaches `length` (factor × original, or × trained). */
export function scalingCovers(ctx: LaunchRuleContext, length: number): boolean {
  const f = ctx.effect?.facts;
  if (!f || f.type === 'none' || ctx.trained === undefined) return false;
  if (f.type === 'llama3' || f.type === 'longrope') return (ctx.model?.contextLength.value ?? 0) >= length;
  const reach = (f.factor ?? 1) * (f.original ?? ctx.trained);
  return reach >= length * 0.999;
}

export const lengthRule: LaunchRule = {
  codes: [LENGTH_EXCEEDS_DERIVED, MAX_LEN_EXCEEDS, SERVING_BEYOND_TRAINED, SERVING_STATIC_YARN],
  check(ctx) {
    const len = ctx.request.length;
    const effect = ctx.effect;
    if (!len || !effect || ctx.trained === undefined || !ctx.model) return [];
    const C = len.value, D = effect.derived;
    const range = useRange(len.option, ctx.commandRange);
    if (ctx.engine === 'vllm') {
      const allow = ctx.request.invocation?.env[VLLM_LONG_ENV]?.value;
      return vllmLengthFindings({
        length: C, derived: D, trained: ctx.trained, facts: effect.facts, effective: effect.rope,
        model: ctx.request.model?.value ?? ctx.modelName, resolved: true, range,
        windowsOff: !!ctx.request.rope['disable-sliding-window'],
        setOverrides: overrideWriter(ctx, '--hf-overrides'),
        setLength: (n) => (len.option.value ? ctx.editor.replaceValue(len.option.value, String(n)) : []),
        ...(vllmAllowsLong(allow) ? { allowLong: allow } : {}),
      });
    }
    if (!(C > D)) return [];
    const label = lengthLabel(ctx);
    const m = ctx.modelName;
    const lower: Fix[] = [];
    if (len.option.value) {
      const edits = ctx.editor.replaceValue(len.option.value, String(D));
      if (edits.length) lower.push({ title: `Set ${label} to ${D}`, kind: 'other', edits });
    }
    // A base the command raised to the NTK-aware base for C covers C as a scaling would.
    const raised = commandRaisedBase(ctx, C);
    const covered = scalingCovers(ctx, C) || !!raised?.covers;
    const coveredBy = raised?.covers ? `raised --rope-freq-base ${fmt(raised.base)} (the NTK-aware base for ×${fmt(C / ctx.trained)})` : `${effect.facts.type} scaling in effect`;
    switch (ctx.engine) {
      case 'sglang': {
        const env = ctx.request.invocation?.env[SGLANG_LONG_ENV]?.value;
        const allowed = env !== undefined && ['1', 'true'].includes(env.trim().toLowerCase());
        const quote = `"User-specified context_length (${C}) is greater than the derived context_length (${D})"`;
        const past = covered ? `the ${effect.facts.type} scaling in effect covers ${fmt(C)}` : `positions past ${fmt(D)} are extrapolated`;
        if (allowed) {
          // The README's recommended setup: the override's scaling covers it, the variable lets SGLang use it.
          if (covered) return [];
          return [finding(LENGTH_EXCEEDS_DERIVED, 'warning',
            `${label} ${fmt(C)} is above the ${fmt(D)} SGLang derives from ${m} (${effect.basis}): with ${SGLANG_LONG_ENV}=${env} SGLang only warns (${quote}) and runs; ${past}.`,
            range, covered ? [] : [...extensionFixes(ctx, C), ...lower])];
        }
        const fixes: Fix[] = [];
        const envFix = sglangEnvFix(ctx);
        if (envFix) fixes.push({ ...envFix, preferred: covered });
        fixes.push(...extensionFixes(ctx, C), ...lower);
        return [finding(LENGTH_EXCEEDS_DERIVED, 'error',
          `${label} ${fmt(C)} is above the ${fmt(D)} SGLang derives from ${m} (${effect.basis}): SGLang refuses it at startup with ${quote} unless ${SGLANG_LONG_ENV}=1; ${past}.`,
          range, fixes)];
      }
      case 'llama.cpp': {
        const server = isLlamaServer(ctx);
        const fixes: Fix[] = [];
        if (server) {
          const kv = contextOverrideKv(ctx, C);
          if (covered && kv) {
            const edits = flagSetter(ctx)([kv]);
            if (edits.length) fixes.push({ title: `Lift the cap: ${kv.flag} ${kv.value}`, kind: 'other', preferred: true, edits });
          }
          fixes.push(...extensionFixes(ctx, C, { liftCap: true }), ...lower);
          return [finding(LENGTH_EXCEEDS_DERIVED, 'warning',
            `${label} ${fmt(C)} is above the GGUF's context_length ${fmt(D)} for ${m}: llama-server caps each slot there ("the slot context (…) exceeds the training context of the model (${D}) - capping") and serves ${fmt(D)}, not ${fmt(C)}.${covered ? ` The ${coveredBy} covers ${fmt(C)}: --override-kv raises the cap.` : ''}`,
            range, fixes)];
        }
        return [finding(LENGTH_EXCEEDS_DERIVED, 'warning',
          `${label} ${fmt(C)} is above the GGUF's context_length ${fmt(D)} for ${m}: llama.cpp runs it and only warns "n_ctx_seq (${C}) > n_ctx_train (${D}) -- possible training context overflow"${covered ? '' : `; positions past ${fmt(D)} are extrapolated`}.`,
          range, covered ? lower : [...extensionFixes(ctx, C), ...lower])];
      }
      case 'tgi': {
        if (covered) return [];
        return [finding(LENGTH_EXCEEDS_DERIVED, 'warning',
          `${label} ${fmt(C)} is above the ${fmt(D)} TGI's launcher reads from the max_position_embeddings of ${m}; the launcher does not check it, and with ${effect.facts.type === 'none' ? 'no RoPE scaling' : 'this scaling'} positions past ${fmt(D)} are extrapolated.`,
          range, [...extensionFixes(ctx, C), ...lower])];
      }
      case 'ollama':
        return [finding(LENGTH_EXCEEDS_DERIVED, 'warning',
          `${label} ${fmt(C)} is above the GGUF's context_length ${fmt(D)} for ${m}: Ollama clamps it to ${fmt(D)} ("requested context size too large for model"); serving ${fmt(C)} needs a GGUF converted with that context (and YaRN scaling, which Ollama has no option for).`,
          range, lower.map((f) => ({ ...f, preferred: true })))];
      default:
        return [];
    }
  },
};

/** llama-server caps each slot at the GGUF's length; llama-cli runs the whole context with a warning (the engine's effect says which). */
function isLlamaServer(ctx: LaunchRuleContext): boolean {
  return ctx.effect?.overLength !== 'warns';
}

/** `SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN=1 ` before the program, when the program starts its line in a shell file. */
function sglangEnvFix(ctx: LaunchRuleContext): Fix | undefined {
  const inv = ctx.request.invocation;
  const first = inv?.argv[0];
  if (!inv || inv.source !== 'shell' || inv.entrypoint !== 'program' || !first || !ctx.editor.editable(first)) return undefined;
  const lineStart = ctx.editor.text.lastIndexOf('\n', first.offset - 1) + 1;
  if (ctx.editor.text.slice(lineStart, first.offset).trim() !== '') return undefined;
  return {
    title: `Set ${SGLANG_LONG_ENV}=1 for this command`, kind: 'other',
    edits: [{ range: ctx.editor.lines.rangeOf(first.offset, 0), newText: `${SGLANG_LONG_ENV}=1 ` }],
  };
}

export { ENGINE_LABEL };
