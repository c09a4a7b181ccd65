/**
 * The requested length against the length the engine derives for this command:
 *   vLLM: vllm/max-model-len-exceeds / vllm/context-beyond-trained (rules/launch/vllmLength.ts,
 *     shared with the --config YAML).
 *   launch/length-exceeds-derived, as each engine behaves (its effect's `overLength` verdict; the words are
 *     the engine object's `overLengthText`):
 *     SGLang (error): `_derive_context_length` refuses "User-specified context_length (…) is greater
 *       than the derived context_length (…)" unless SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN=1
 *       (then a warning: it runs, "This may lead to incorrect model outputs or CUDA errors");
 *     llama-server (warning): caps each slot at the GGUF's context_length ("… exceeds the training
 *       context of the model … - capping"); llama-cli runs past it and warns of overflow;
 *     TGI (warning): the launcher never compares max_total_tokens with max_position_embeddings;
 *     Ollama (warning): clamps num_ctx ("requested context size too large for model").
 */
import type { Finding, Fix } from '../../core/findings';
import { finding, fmt } from '../context';
import { ENGINE_LABEL, LaunchRule, LaunchRuleContext, engineOf, flagSetter, flagText, useRange } from './context';
import { vllmLengthFindings } from './vllmLength';
import { MAX_LEN_EXCEEDS, SERVING_BEYOND_TRAINED, SERVING_STATIC_YARN } from './vllmLength';
import { commandRaisedBase, extensionFixes } from './engineFixes';
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
    if (!len) return impliedLengthFindings(ctx);
    if (!effect || ctx.trained === undefined || !ctx.model) return [];
    // The engine stops at load (a KeyError: launch/override-drops-keys): no run to judge the length of.
    if (effect.droppedScalingKeys) return [];
    const C = len.value,
      D = effect.derived;
    const range = useRange(len.option, ctx.commandRange);
    const engine = engineOf(ctx);
    if (engine.ownCodes) {
      // Judged with the engine's own length rule and variable (its Engine object), never its module.
      if (!engine.lengthPolicy || !engine.longEnv) return [];
      const allow = ctx.request.invocation?.env[engine.longEnv.name]?.value;
      return vllmLengthFindings({
        policy: engine.lengthPolicy,
        longEnv: engine.longEnv.name,
        length: C,
        derived: D,
        trained: ctx.trained,
        facts: effect.facts,
        effective: effect.rope,
        // An assumed identity (a family, a file name) is named with what was assumed.
        model: ctx.assumed ? ctx.modelName : (ctx.request.model?.value ?? ctx.modelName),
        resolved: true,
        range,
        windowsOff: !!ctx.request.rope['disable-sliding-window'],
        ropeIgnored: engine.override?.ignoresRopeKeys?.(effect.rope.modelType),
        scalingRelease: engine.override?.scalingNeedsRelease?.(effect.rope.modelType, ctx.request.version?.value),
        // Judged as launch/beyond-trained judges it for the other engines: a base raised to the NTK-aware one extends.
        raisedBaseCovers: !!commandRaisedBase(ctx, C)?.covers,
        setOverrides: engine.override ? overrideWriter(ctx, engine.override.flag) : () => [],
        setLength: (n) => (len.option.value ? ctx.editor.replaceValue(len.option.value, String(n)) : []),
        ...(allow !== undefined && engine.longEnv.allows(allow) ? { allowLong: allow } : {}),
      });
    }
    if (!(C > D) || !engine.overLengthText) return [];
    const label = lengthLabel(ctx);
    const lower: Fix[] = [];
    if (len.option.value) {
      const edits = ctx.editor.replaceValue(len.option.value, String(D));
      if (edits.length) lower.push({ title: `Set ${label} to ${D}`, kind: 'other', edits });
    }
    // A base the command raised to the NTK-aware base for C covers C as a scaling would.
    const raised = commandRaisedBase(ctx, C);
    const scaled = scalingCovers(ctx, C);
    const covered = scaled || !!raised?.covers;
    const words = {
      label,
      length: C,
      derived: D,
      model: ctx.modelName,
      basis: effect.basis,
      scaled: effect.facts.type !== 'none',
      verdict: effect.overLength,
      ...(scaled ? { covered: String(effect.facts.type) } : {}),
      ...(!scaled && raised?.covers ? { raisedBase: { base: raised.base, factor: C / ctx.trained } } : {}),
    };
    // What the engine does with it is its effect's verdict (data); the headline says that, the engine's words explain it.
    const said = (allowedBy?: string) => overLengthHeadline(engine.label, effect.overLength, label, C, D, allowedBy);
    const explained = (w: typeof words & { allowedBy?: string }) => engine.overLengthText!(w);
    switch (effect.overLength) {
      case 'refuses': {
        const env = engine.longEnv ? ctx.request.invocation?.env[engine.longEnv.name]?.value : undefined;
        const allowed = env !== undefined && !!engine.longEnv?.allows(env);
        if (allowed) {
          // The README's recommended setup: the override's scaling covers it, the variable lets the engine use it.
          if (covered) return [];
          return [
            finding(
              LENGTH_EXCEEDS_DERIVED,
              'warning',
              said(env),
              range,
              covered ? [] : [...extensionFixes(ctx, C), ...lower],
              explained({ ...words, allowedBy: env }),
            ),
          ];
        }
        const fixes: Fix[] = [];
        const envFix = longEnvFix(ctx);
        if (envFix) fixes.push({ ...envFix, preferred: covered });
        fixes.push(...extensionFixes(ctx, C), ...lower);
        return [finding(LENGTH_EXCEEDS_DERIVED, 'error', said(), range, fixes, explained(words))];
      }
      case 'caps': {
        const fixes: Fix[] = [];
        const kv = engine.liftLength?.(ctx.model?.modelType, C);
        if (covered && kv) {
          const edits = flagSetter(ctx)([kv]);
          if (edits.length) fixes.push({ title: `Lift the cap: ${kv.flag} ${kv.value}`, kind: 'other', preferred: true, edits });
        }
        fixes.push(...extensionFixes(ctx, C, { liftCap: true }), ...lower);
        return [finding(LENGTH_EXCEEDS_DERIVED, 'warning', said(), range, fixes, explained(words))];
      }
      case 'warns':
        return [finding(LENGTH_EXCEEDS_DERIVED, 'warning', said(), range, covered ? lower : [...extensionFixes(ctx, C), ...lower], explained(words))];
      case 'unchecked': {
        if (covered) return [];
        return [finding(LENGTH_EXCEEDS_DERIVED, 'warning', said(), range, [...extensionFixes(ctx, C), ...lower], explained(words))];
      }
      case 'clamps':
        return [
          finding(
            LENGTH_EXCEEDS_DERIVED,
            'warning',
            said(),
            range,
            lower.map((f) => ({ ...f, preferred: true })),
            explained(words),
          ),
        ];
      default:
        return [];
    }
  },
};

/**
 * No length option, but an override raised max_position_embeddings (`--hf-overrides
 * '{"max_position_embeddings": 262144}'`): vLLM serves the length it derives from it, so that
 * length is judged as if asked for, anchored on the override.
 */
function impliedLengthFindings(ctx: LaunchRuleContext): Finding[] {
  const effect = ctx.effect;
  const o = ctx.request.overrides;
  const engine = engineOf(ctx);
  if (!effect || !o || !ctx.model || ctx.trained === undefined || effect.droppedScalingKeys) return [];
  if (!engine.ownCodes || !engine.lengthPolicy || !engine.longEnv) return [];
  if (!(effect.rope.contextLength.value > ctx.model.contextLength.value)) return [];
  return vllmLengthFindings({
    policy: engine.lengthPolicy,
    longEnv: engine.longEnv.name,
    length: effect.derived,
    lengthWords: `max_position_embeddings ${fmt(effect.derived)}`,
    derived: effect.derived,
    trained: ctx.trained,
    facts: effect.facts,
    effective: effect.rope,
    model: ctx.request.model?.value ?? ctx.modelName,
    resolved: true,
    range: useRange(o.option, ctx.commandRange),
    windowsOff: !!ctx.request.rope['disable-sliding-window'],
    ropeIgnored: engine.override?.ignoresRopeKeys?.(effect.rope.modelType),
    scalingRelease: engine.override?.scalingNeedsRelease?.(effect.rope.modelType, ctx.request.version?.value),
    setOverrides: engine.override ? overrideWriter(ctx, engine.override.flag) : () => [],
    setLength: () => [],
  });
}

/** What the engine does with a length above the one it derives, in one sentence (the engine's own words go to the detail). */
function overLengthHeadline(engine: string, verdict: string | undefined, label: string, C: number, D: number, allowedBy?: string): string {
  switch (verdict) {
    case 'refuses':
      return allowedBy !== undefined
        ? `${engine} serves ${label} ${fmt(C)} because the environment allows it, past the ${fmt(D)} it derives.`
        : `${engine} refuses to start: ${label} ${fmt(C)} is above the ${fmt(D)} it derives for this model.`;
    case 'caps':
      return `${engine} serves ${fmt(D)} tokens, not ${fmt(C)}: it caps ${label} at the model's context.`;
    case 'clamps':
      return `${engine} clamps ${label} ${fmt(C)} to ${fmt(D)}, the model's context.`;
    case 'warns':
      return `${engine} warns and serves ${label} ${fmt(C)}, past the ${fmt(D)} it derives for this model.`;
    default:
      return `${engine} does not check ${label} ${fmt(C)}: positions past the model's ${fmt(D)} are extrapolated.`;
  }
}

/** The engine's long-length variable (`SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN=1 `) before the program, when the program starts its line in a shell file. */
function longEnvFix(ctx: LaunchRuleContext): Fix | undefined {
  const name = engineOf(ctx).longEnv?.name;
  const inv = ctx.request.invocation;
  if (!name) return undefined;
  const first = inv?.argv[0];
  if (!inv || inv.source !== 'shell' || inv.entrypoint !== 'program' || !first || !ctx.editor.editable(first)) return undefined;
  const lineStart = ctx.editor.text.lastIndexOf('\n', first.offset - 1) + 1;
  if (ctx.editor.text.slice(lineStart, first.offset).trim() !== '') return undefined;
  return {
    title: `Set ${name}=1 for this command`,
    kind: 'other',
    edits: [{ range: ctx.editor.lines.rangeOf(first.offset, 0), newText: `${name}=1 ` }],
  };
}

export { ENGINE_LABEL };
