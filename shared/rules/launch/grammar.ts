/**
 * What the engine's own argument parser does with the command, read by its module in serving/:
 *   launch/foreign-flag (error): another engine's option; the parser stops the launch.
 *   launch/misspelled-flag (error): this engine's option in a spelling its parser refuses
 *     (SGLang/TGI underscores, llama.cpp `--flag=value`).
 *   launch/removed-flag (warning or error, as the engine behaves) — for vLLM `--rope-scaling` /
 *     `--rope-theta` the code is vllm/removed-option, shared with the --config YAML.
 *   launch/bad-value (error): a value the parser refuses.
 *   launch/unknown-env (warning or information): an engine variable (OLLAMA_*) the server does not read.
 *   launch/override-key-ignored (warning): an override key set on the config that nothing reads.
 * Fixes replace the flag with the engine's own spelling when it is certain; a removed vLLM option
 * moves into --hf-overrides; an ignored key is renamed in the JSON.
 */
import type { Fix, Finding } from '../../core/findings';
import { elide, pyRepr } from '../../core/quote';
import type { GrammarProblem } from '../../launch/request';
import { finding, splitSentence } from '../context';
import { LaunchRuleContext, LaunchRule, engineOf, jsonKeyRange, overrideWriter, tokenRange } from './context';
import { ignoredOverrideKeys, renameKey } from '../../serving/argv';
import { jsonText, modernScaling } from '../../serving/common';
import { combineEdits } from '../../fixes/launchEdits';
import { scalingWords } from '../../serving/launchModel';
import { REMOVED_OPTION, removedOptionMessage } from './removedOption';
import { loadsPython } from '../../document/strictJson';
import { beforeFirst } from '../../core/text';

export const FOREIGN_FLAG = 'launch/foreign-flag';
export const MISSPELLED_FLAG = 'launch/misspelled-flag';
export const REMOVED_FLAG = 'launch/removed-flag';
export const BAD_VALUE = 'launch/bad-value';
export const OVERRIDE_KEY_IGNORED = 'launch/override-key-ignored';
export const UNKNOWN_ENV = 'launch/unknown-env';

const CODE: Record<GrammarProblem['kind'], string> = {
  foreign: FOREIGN_FLAG,
  misspelled: MISSPELLED_FLAG,
  removed: REMOVED_FLAG,
  'bad-value': BAD_VALUE,
  'ignored-key': OVERRIDE_KEY_IGNORED,
  'unknown-env': UNKNOWN_ENV,
};

export const grammarRule: LaunchRule = {
  codes: [FOREIGN_FLAG, MISSPELLED_FLAG, REMOVED_FLAG, BAD_VALUE, OVERRIDE_KEY_IGNORED, UNKNOWN_ENV, REMOVED_OPTION],
  check(ctx) {
    const out: Finding[] = [];
    let keysDone = false;
    for (const p of ctx.request.problems) {
      const range = tokenRange(p.token, ctx.commandRange);
      if (p.kind === 'removed' && engineOf(ctx).ownCodes) {
        const name = p.token.value.replace(/^--/, '').split('=', 1)[0].replace(/_/g, '-');
        // Unpinned (or a release without the option): the YAML's words; a pinned older release says so.
        // A pinned older release still reads it: the engine's words say so, led by what newer releases do.
        const split = splitSentence(p.message);
        const said =
          p.severity === 'error'
            ? removedOptionMessage(name)
            : split.message.length <= 120
              ? split
              : { message: `vLLM from v0.11.1 on stops with "unrecognized arguments": it removed the ${name} option.`, detail: p.message };
        out.push(finding(REMOVED_OPTION, p.severity, said.message, range, vllmRemovedFixes(ctx, p), said.detail));
        continue;
      }
      if (p.kind === 'ignored-key') {
        // One finding per key, on that key inside the JSON; the fix renames every such key at once.
        const at = p.keyPath ? jsonKeyRange(ctx.editor, p.token, p.keyPath, range) : range;
        const keepsOwn = ownScalingKept(ctx, p.keyPath?.[0]);
        const detail = keepsOwn
          ? `${p.message.replace(/ Write "[^"]*"\.$/, '')} ${ctx.modelName} ships its own ${scalingWords(ctx.modelFacts!)}: written as ${keepsOwn} the override would replace it whole, so the dead key is better removed.`
          : p.message;
        const key = p.keyPath?.[0];
        const message = `Nothing reads the override key ${key !== undefined ? JSON.stringify(key) : 'here'}: the model keeps its own value.`;
        out.push(finding(OVERRIDE_KEY_IGNORED, p.severity, message, at, keysDone ? [] : renameKeysFix(ctx), detail));
        keysDone = true;
        continue;
      }
      // The engine's words: their first sentence leads, unless it is long (a parser's quoted error): then what happens.
      const said = splitSentence(p.message);
      const headline = said.message.length <= 120 ? said : { message: grammarHeadline(ctx, p.kind, p.severity, p.token.value), detail: p.message };
      out.push(finding(CODE[p.kind], p.severity, headline.message, range, replacementFix(ctx, p), headline.detail));
    }
    for (const d of ctx.effect?.deadOverrideKeys ?? []) out.push(deadKeyFinding(ctx, d.key, d.scope));
    return out;
  },
};

/** What an engine does with an option its parser has a problem with, when its own first sentence is too long to lead. */
function grammarHeadline(ctx: LaunchRuleContext, kind: string, severity: string, token: string): string {
  const engine = engineOf(ctx).label;
  const flag = beforeFirst(token, '=');
  const shown = flag.length > 40 ? `${flag.slice(0, 37)}...` : flag;
  if (severity !== 'error') return `${engine} does not read ${shown}: it has no effect.`;
  if (kind === 'foreign') return `${engine} stops at startup: it does not know ${shown}.`;
  // A flag is named as written; a refused value (a YAML config's `max-model-len: "NaN"`) is the user's text, quoted as Python shows it.
  return `${engine} stops at startup: its parser refuses ${flag.startsWith('-') ? shown : pyRepr(elide(flag, 40))}.`;
}

/**
 * A RoPE key the engine sets on the top-level config of a model whose language model is built from
 * a sub-config (`text_config`): set, never read. Fix: moved under the sub-config, unless there it
 * would replace the scaling the model ships with (Gemma 3's linear ×8): then removed.
 */
function deadKeyFinding(ctx: LaunchRuleContext, key: string, scope: string): Finding {
  const ov = ctx.request.overrides;
  const range = tokenRange(ov?.option.value ?? ov?.option.flag ?? ctx.request.overrides!.option.flag, ctx.commandRange);
  const at = ov?.option.value ? jsonKeyRange(ctx.editor, ov.option.value, [key], range) : range;
  const own =
    ctx.modelFacts && ctx.modelFacts.type !== 'none' && (key === 'rope_scaling' || key === 'rope_parameters') ? scalingWords(ctx.modelFacts) : undefined;
  const name = ov?.option.name ?? 'the override';
  const message = `Nothing reads the override key ${JSON.stringify(key)}: the model keeps its own value.`;
  const detail = `${name} key ${JSON.stringify(key)} is set on the top-level config, but ${ctx.modelName} builds its language model from ${scope} (and its length is read there).${own ? ` ${ctx.modelName} ships ${own} in ${scope}; written there the override would replace it, so the dead key is better removed.` : ` Write it under ${JSON.stringify(scope)}.`}`;
  return finding(OVERRIDE_KEY_IGNORED, 'warning', message, at, deadKeyFix(ctx, key, scope, !!own), detail);
}

function deadKeyFix(ctx: LaunchRuleContext, key: string, scope: string, remove: boolean): Fix[] {
  const ov = ctx.request.overrides;
  if (!ov?.value || !ov.option.value || ov.option.flag.value.includes('.') || !(key in ov.value)) return [];
  const obj = withoutKey(ov.value, key);
  if (!remove) {
    const inner = ov.value[scope];
    obj[scope] = { ...(inner && typeof inner === 'object' && !Array.isArray(inner) ? (inner as Record<string, unknown>) : {}), [key]: ov.value[key] };
  }
  const edits = Object.keys(obj).length
    ? ctx.editor.replaceValue(ov.option.value, jsonText(obj))
    : ctx.editor.removeOption([ov.option.flag, ...(ov.option.value !== ov.option.flag ? [ov.option.value] : [])]);
  const title = remove
    ? Object.keys(obj).length
      ? `Remove the dead ${key} in ${ov.option.name} (the model keeps its own ${scalingWords(ctx.modelFacts!)})`
      : `Remove ${beforeFirst(ov.option.flag.value, '=')}, whose ${key} is dead (the model keeps its own ${scalingWords(ctx.modelFacts!)})`
    : `Move ${key} under ${scope} in ${ov.option.name}`;
  return edits.length ? [{ title, kind: 'other', preferred: true, edits }] : [];
}

function replacementFix(ctx: LaunchRuleContext, p: GrammarProblem): Fix[] {
  if (p.replacement === undefined) return [];
  // A replacement names a flag (`--context-length`), or a split `--flag value` for llama.cpp's `=` form,
  // or an environment variable's name (`OLLAMA_CONTEXT_LENGTH` for `OLLAMA_MAX_CTX`), renamed where it is written.
  if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(p.token.value) && /^[A-Za-z_][A-Za-z0-9_]*$/.test(p.replacement)) {
    const edits = ctx.editor.replaceRaw(p.token, p.replacement);
    return edits.length ? [{ title: `Rename to ${p.replacement}`, kind: 'other', preferred: true, edits }] : [];
  }
  if (!p.token.value.startsWith('-')) return [];
  if (!p.replacement.includes(' ') && usesFlag(ctx, p.replacement)) {
    // The request already sets the option the flag stands for: renaming would set it twice.
    const edits = ctx.editor.removeOption(p.tokens ?? [p.token]);
    return edits.length ? [{ title: `Remove ${flagName(p.token.value)} (${p.replacement} is already set)`, kind: 'other', preferred: true, edits }] : [];
  }
  const edits = p.replacement.includes(' ')
    ? p.token.quote === 'none'
      ? ctx.editor.replaceRaw(p.token, p.replacement)
      : []
    : ctx.editor.replaceFlag(p.token, p.replacement);
  return edits.length ? [{ title: `Write ${p.replacement}`, kind: 'other', preferred: true, edits }] : [];
}

/** A flag as its parser compares it: no `=value`, underscores as dashes. */
function flagName(v: string): string {
  return v.replace(/=.*$/s, '').replace(/_/g, '-');
}

/** Whether the request reads `flag` already (its model, length, override or RoPE options). */
function usesFlag(ctx: LaunchRuleContext, flag: string): boolean {
  const r = ctx.request;
  const uses = [r.length?.option, r.overrides?.option, ...Object.values(r.rope)];
  return uses.some((u) => u && u.flag !== u.value && flagName(u.flag.value) === flag);
}

/**
 * The key the ignored `key` was meant to be, when making it live would replace the scaling the
 * model ships with (gpt-oss's YaRN with its beta_fast/beta_slow): then the key goes, not renamed.
 */
function ownScalingKept(ctx: LaunchRuleContext, key: string | undefined): string | undefined {
  if (!key || !ctx.modelFacts || ctx.modelFacts.type === 'none') return undefined;
  const meant = ignoredOverrideKeys({ [key]: null }).find((r) => r.key === key)?.meant;
  return meant === 'rope_scaling' || meant === 'rope_parameters' ? meant : undefined;
}

function renameKeysFix(ctx: LaunchRuleContext): Fix[] {
  const ov = ctx.request.overrides;
  if (!ov?.value || !ov.option.value) return [];
  let obj = ov.value;
  const renames = ignoredOverrideKeys(obj);
  const removed = renames.filter((r) => ownScalingKept(ctx, r.key));
  for (const r of renames) obj = removed.includes(r) ? withoutKey(obj, r.key) : renameKey(obj, r.key, r.meant);
  const edits = Object.keys(obj).length
    ? ctx.editor.replaceValue(ov.option.value, jsonText(obj))
    : ctx.editor.removeOption([ov.option.flag, ...(ov.option.value !== ov.option.flag ? [ov.option.value] : [])]);
  const renamed = renames.filter((r) => !removed.includes(r)).map((r) => `${r.key} → ${r.meant}`);
  const own = removed.length ? ` (the model keeps its own ${scalingWords(ctx.modelFacts!)})` : '';
  const dead = removed.map((r) => r.key).join(', ');
  const title = !removed.length
    ? `Rename ${renamed.join(', ')} in ${ov.option.name}`
    : !Object.keys(obj).length
      ? `Remove ${beforeFirst(ov.option.flag.value, '=')}, whose only key ${dead} is dead${own}`
      : `Remove ${dead}${renamed.length ? `, rename ${renamed.join(', ')}` : ''} in ${ov.option.name}${own}`;
  return edits.length ? [{ title, kind: 'other', preferred: true, edits }] : [];
}

function withoutKey(obj: Record<string, unknown>, key: string): Record<string, unknown> {
  const out = { ...obj };
  delete out[key];
  return out;
}

/**
 * vLLM's removed `--rope-scaling`/`--rope-theta`: the value moves into --hf-overrides. Without an
 * override already there the option is rewritten in place (flag and value), keeping the layout.
 */
function vllmRemovedFixes(ctx: LaunchRuleContext, p: GrammarProblem): Fix[] {
  const name = p.token.value.replace(/^--/, '').split('=', 1)[0].replace(/_/g, '-');
  const use = ctx.request.rope[name];
  if (!use?.value) return [];
  const isScaling = name === 'rope-scaling';
  const target = isScaling ? 'rope_scaling' : 'rope_theta';
  let value: unknown;
  if (isScaling) {
    // vLLM read the option with json.loads.
    const r = loadsPython(use.value.value);
    if ('error' in r) return [];
    value = r.value;
    if (!value || typeof value !== 'object' || Array.isArray(value)) return [];
    value = modernScaling(value as Record<string, unknown>);
  } else {
    value = Number(use.value.value);
    if (!Number.isFinite(value)) return [];
  }
  const override = engineOf(ctx).override;
  if (!override) return [];
  const title = `Move ${name} into ${override.name}.${target}`;
  if (!ctx.request.overrides) {
    // Rewritten in place (flag and value), keeping the layout.
    const edits = ctx.editor.moveOption(use, override.flag, jsonText({ [target]: value }));
    return edits.length ? [{ title, kind: 'other', preferred: true, edits }] : [];
  }
  const write = overrideWriter(ctx, override.flag)({ [target]: value });
  const remove = use.flag.value.includes('=') ? ctx.editor.removeOption([use.flag]) : ctx.editor.removeOption([use.flag, use.value]);
  const edits = combineEdits(remove, write);
  return edits.length ? [{ title, kind: 'other', preferred: true, edits }] : [];
}
