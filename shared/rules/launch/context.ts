/**
 * What the launch rules receive: one request read by its engine's grammar, the model it names
 * resolved offline, what the engine builds and derives for this command, and an editor over the
 * file's text so fixes edit the user's own tokens.
 */
import type { Finding, TextEdit } from '../../core/findings';
import type { Range } from '../../core/range';
import type { ModelRope } from '../../config/modelRope';
import type { ResolvedBaseModel } from '../../config/resolve';
import type { NoRopeModel } from '../../config/noRopeModel';
import type { LaunchRequest, OptionUse } from '../../launch/request';
import type { Token } from '../../launch/types';
import type { TransformersVariant } from '../../rope/spec';
import type { EngineName } from '../../serving/types';
import { ENGINES, engineById } from '../../serving/engines';
import type { Engine } from '../../serving/engines';
import type { ScalingFacts } from '../../serving/common';
import type { LaunchEffect } from '../../serving/launchModel';
import { jsonText } from '../../serving/common';
import { combineEdits } from '../../fixes/launchEdits';
import type { RequestEditor } from '../../fixes/requestEditor';

export interface LaunchRuleContext {
  request: LaunchRequest;
  engine: EngineName;
  /** Edits the request's options in its own file: a command's tokens, or a config file's keys. */
  editor: RequestEditor;
  /** The model as written (or as the catalog names it, with "assumed from …"), for messages. */
  modelName: string;
  resolved?: ResolvedBaseModel;
  /**
   * The model's identity is assumed, not read: its name matched a catalog entry only after dropping
   * a GGUF quantisation suffix or `-GGUF`, or it is an engine's own name for a hub model (an Ollama
   * library tag). `how` completes "assumed from …": "the name x.gguf", "the Ollama library tag qwen2.5:7b".
   */
  assumed?: { written: string; id: string; how: string };
  /** The hub model the engine's naming stands for when that model is not in the catalog (unresolved). */
  named?: string;
  /** The catalog model without RoPE the name stands for (unresolved: nothing to judge, and said so). */
  noRope?: NoRopeModel;
  /** The resolved model (positions detached). */
  model?: ModelRope;
  trained?: number;
  /** The model's own scaling. */
  modelFacts?: ScalingFacts;
  /** What the engine builds and derives for this command. */
  effect?: LaunchEffect;
  variant: TransformersVariant;
  /** Where findings about the whole command go (the program token, else the command). */
  commandRange: Range;
}

export interface LaunchRule {
  codes: readonly string[];
  check(ctx: LaunchRuleContext): Finding[];
}

/** Engine names as people write them (each engine module's label; looked up when asked, so an engine registered later has one). */
export const ENGINE_LABEL: Record<string, string> = new Proxy({}, { get: (_t, id) => ENGINES.find((e) => e.id === id)?.label });

/** The engine the request is for: what the rules know of it is data and small writers there, never a branch on its name. */
export function engineOf(ctx: LaunchRuleContext): Engine {
  return engineById(ctx.engine);
}

/** The range of an option's value (else its flag), for findings on what the user wrote. */
export function useRange(u: OptionUse | undefined, fallback: Range): Range {
  return u?.value && u.value.offset >= 0 ? u.value.range : u?.flag && u.flag.offset >= 0 ? u.flag.range : fallback;
}

export function tokenRange(t: Token | undefined, fallback: Range): Range {
  return t && t.offset >= 0 ? t.range : fallback;
}

/**
 * The range of one key inside a JSON object written in a token (`--hf-overrides '{"rope-scaling": …}'`)
 * or in a config file's mapping, as the request's editor can locate it; else the token's range.
 */
export function jsonKeyRange(editor: RequestEditor, tok: Token | undefined, path: readonly string[], fallback: Range): Range {
  return editor.keyRange(tok, path, fallback);
}

/**
 * Where a finding about one key of the command's config override goes (`rope_scaling`, or
 * `rope_scaling.original_max_position_embeddings`): that key inside the override's JSON when it
 * can be located exactly, else the override's value (or flag), else the command.
 */
export function overrideKeyRange(ctx: LaunchRuleContext, path: readonly string[]): Range {
  const opt = ctx.request.overrides?.option;
  const whole = useRange(opt, ctx.commandRange);
  if (!opt) return whole;
  return jsonKeyRange(ctx.editor, opt.value ?? opt.flag, path, whole);
}

/** The key of the command's override that holds its scaling object (`rope_scaling` or `rope_parameters`). */
export function overrideScalingKey(ctx: LaunchRuleContext): string | undefined {
  const v = ctx.request.overrides?.value;
  if (!v) return undefined;
  return ['rope_scaling', 'rope_parameters'].find((k) => v[k] && typeof v[k] === 'object' && !Array.isArray(v[k]));
}

/** The flag spelling the command writes for an option (as the user spelt it, else the canonical long flag). */
export function flagText(u: OptionUse | undefined, canonical: string): string {
  if (!u || u.flag === u.value) return canonical;
  const v = u.flag.value;
  return v.includes('=') ? v.slice(0, v.indexOf('=')) : v;
}

/**
 * Writes a config override into the command: merged into the JSON the command already passes
 * (its quoting kept), else a new `--flag '{…}'` at the append point. Dotted vLLM overrides
 * (`--hf-overrides.rope_scaling.factor 4`) are not rewritten: no edit.
 */
export function overrideWriter(ctx: LaunchRuleContext, flag: string): (values: Record<string, unknown>) => TextEdit[] {
  return (written) => {
    const ov = ctx.request.overrides;
    // Where the engine applies RoPE keys to the language model (vLLM: under text_config for Gemma 3).
    const scope = ctx.effect?.overrideScope;
    const inner = scope ? ov?.value?.[scope] : undefined;
    const values = scope
      ? { [scope]: { ...(inner && typeof inner === 'object' && !Array.isArray(inner) ? (inner as Record<string, unknown>) : {}), ...written } }
      : written;
    if (ov) {
      if (!ov.value || !ov.option.value || ov.option.flag.value.startsWith(`${flag}.`)) return [];
      return ctx.editor.replaceValue(ov.option.value, jsonText({ ...ov.value, ...values }));
    }
    return ctx.editor.appendOptions([[flag, jsonText(values)]]);
  };
}

/**
 * Sets options to values: an option the command already has gets its value token replaced (in
 * its quoting); the others are appended in order. No edit when a value to replace came from the
 * environment or is not a plain token of this file.
 */
export function flagSetter(ctx: LaunchRuleContext): (opts: { name: string; flag: string; value?: string }[]) => TextEdit[] {
  return (opts) => {
    const groups: TextEdit[][] = [];
    const appended: [string, string?][] = [];
    for (const o of opts) {
      const u = ctx.request.rope[o.name];
      if (u && u.flag !== u.value) {
        if (o.value === undefined) continue;
        if (!u.value) return [];
        const e = ctx.editor.replaceValue(u.value, o.value);
        if (!e.length) return [];
        groups.push(e);
      } else if (u) {
        // Set through the environment: the command line wins (llama.cpp warns and overwrites it).
        appended.push([o.flag, o.value]);
      } else {
        appended.push([o.flag, o.value]);
      }
    }
    if (appended.length) groups.push(ctx.editor.appendOptions(appended));
    return groups.length ? combineEdits(...groups) : [];
  };
}
