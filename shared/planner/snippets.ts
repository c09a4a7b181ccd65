/**
 * Trainer YAML fragments for one stage, in each trainer's own keys (read from the trainer readers
 * in config/trainers/): axolotl's `overrides_of_model_config`, LLaMA-Factory's `rope_scaling` name
 * and `cutoff_len`, torchtune's component builder arguments `rope_base` / `max_seq_len`. A fragment
 * never names the base model (the YAML it is merged into already does).
 */
import type { RopeSpec } from '../rope/spec';
import { computeFrequencies, defaultInvFreq } from '../rope/invFreq';
import { lmaxOfFrequencies } from '../bstar/index';
import { floatText } from '../fixes/render';
import { roundBase } from '../fixes/rewrites';
import { isLlamaFamily } from './options';
import type { PlanOption, Trainer } from './types';
import { enUS } from '../core/format';

export interface SnippetContext {
  length: number;
  trained: number;
  base: number;
  rotaryDim: number;
  modelType?: string;
  /** max_position_embeddings as shipped. */
  shippedContext: number;
  /**
   * The length LLaMA-Factory scales from: the shipped scaling block's original length, else the
   * shipped context (config/trainers/llamaFactoryRope.ts). Absent: the shipped context.
   */
  llamaFactoryOld?: number;
  /** The model's own scaling type, when it ships one. */
  shippedScaling?: string;
  /** Raw config values (vocab_size, num_hidden_layers, …) for torchtune's builders. */
  config?: Record<string, unknown>;
  /** Options in recommendation order (eligible ones), and all options. */
  ranked: PlanOption[];
  options: PlanOption[];
}

export interface Snippet {
  yaml?: string;
  note?: string;
}

const fmt = (n: number) => enUS(n);

/** A YAML scalar: integers as written, other numbers with a decimal point (PyYAML reads 1e6 as a string). */
function num(v: number, float = false): string {
  return Number.isInteger(v) && !float ? String(v) : floatText(v);
}

function theta(v: number): string {
  return floatText(roundBase(v));
}

function scalingLines(sc: Record<string, string | number>, indent: string): string[] {
  const floatKeys = new Set(['factor', 'low_freq_factor', 'high_freq_factor']);
  return Object.entries(sc).map(([k, v]) => `${indent}${k}: ${typeof v === 'number' ? num(v, floatKeys.has(k)) : v}`);
}

function pick(ctx: SnippetContext, trainer: Trainer): PlanOption | undefined {
  return ctx.ranked.find((o) => o.trainers.includes(trainer));
}

/** The option a trainer can write that holds furthest, when none meets the bound. */
function closest(ctx: SnippetContext, trainer: Trainer): PlanOption | undefined {
  return ctx.options.filter((o) => o.trainers.includes(trainer) && o.trainable && o.method !== 'as-shipped').sort((a, b) => b.lmax - a.lmax)[0];
}

function differs(ctx: SnippetContext, o: PlanOption | undefined, trainer: Trainer): string | undefined {
  const rec = ctx.ranked[0];
  if (!o || !rec || rec.method === o.method) return undefined;
  return `${trainerName(trainer)} cannot write ${rec.label}; this uses ${o.label}, the next option that meets the bound.`;
}

function trainerName(t: Trainer): string {
  return t === 'axolotl' ? 'axolotl' : t === 'llama-factory' ? 'LLaMA-Factory' : 'torchtune';
}

export function axolotlSnippet(ctx: SnippetContext): Snippet {
  const L = ctx.length;
  let o = pick(ctx, 'axolotl');
  let note = differs(ctx, o, 'axolotl');
  if (!o) {
    o = closest(ctx, 'axolotl');
    if (!o) return { note: 'No option axolotl can write.' };
    note = `No option axolotl can write meets the bound at ${fmt(L)}; this uses ${o.label}, which holds to ${fmt(o.lmax)}.`;
  }
  const lines = [`sequence_len: ${L}`];
  if (o.method === 'as-shipped') return { yaml: lines.join('\n') + '\n', note };
  lines.push('overrides_of_model_config:', `  max_position_embeddings: ${L}`);
  // axolotl runs transformers 5 (config/trainers/axolotlOverrides.ts): a base reaches the model only
  // inside rope_parameters, a scaling dict replaces the model's rope_theta, and null fails to build.
  if (o.ropeTheta !== undefined) {
    // A base option replaces the model's own scaling: the frequencies judged are the plain ones.
    lines.push('  rope_parameters:', '    rope_type: default', `    rope_theta: ${theta(o.ropeTheta)}`);
  } else if (o.ropeScaling) {
    lines.push('  rope_scaling:', ...scalingLines(o.ropeScaling, '    '), `    rope_theta: ${theta(ctx.base)}`);
  }
  return { yaml: lines.join('\n') + '\n', note };
}

/** LLaMA-Factory's own derivation (model_args.py): factor = ceil(cutoff_len / mpe), original = mpe. */
export function llamaFactoryDerived(ctx: SnippetContext, name: 'yarn' | 'linear' | 'llama3'): { factor: number; lmax: number; meets: boolean; change: number } {
  const mpe = ctx.llamaFactoryOld ?? ctx.shippedContext;
  const factor = Math.ceil(ctx.length / mpe);
  const common = { base: ctx.base, rotaryDim: ctx.rotaryDim, factor, maxPositionEmbeddings: mpe * factor };
  const spec: RopeSpec =
    name === 'linear'
      ? { ...common, ropeType: 'linear' }
      : name === 'yarn'
        ? { ...common, ropeType: 'yarn', originalMaxPositionEmbeddings: mpe }
        : { ...common, ropeType: 'llama3', lowFreqFactor: 1, highFreqFactor: 4, originalMaxPositionEmbeddings: mpe };
  const f = computeFrequencies(spec).invFreq;
  const hit = lmaxOfFrequencies(f, ctx.length);
  const orig = defaultInvFreq(ctx.base, ctx.rotaryDim);
  let change = 0;
  for (let i = 0; i < orig.length; i++) change += Math.abs(Math.log(f[i] / orig[i]));
  return { factor, lmax: hit ?? ctx.length, meets: hit === null, change: change / orig.length };
}

export function llamaFactorySnippet(ctx: SnippetContext): Snippet {
  const L = ctx.length,
    mpe = ctx.llamaFactoryOld ?? ctx.shippedContext;
  const noTheta = "LLaMA-Factory has no rope_theta key: a base change (NTK-aware, Gradient's law, robust base) needs the model's config.json edited.";
  if (L <= mpe) {
    const shipped = ctx.options.find((o) => o.method === 'as-shipped');
    const ok = shipped?.meetsBound === true;
    return {
      yaml: `cutoff_len: ${L}\n`,
      note: `cutoff_len ${fmt(L)} is within the ${fmt(mpe)} LLaMA-Factory scales from (the model's ${ctx.llamaFactoryOld !== undefined && ctx.llamaFactoryOld !== ctx.shippedContext ? 'original length' : 'max_position_embeddings'}), where it turns rope_scaling off: it trains the model as shipped${ok ? ', which meets the bound here' : `, which holds only to ${fmt(shipped?.lmax ?? 0)}`}. ${noTheta}`,
    };
  }
  const names: ('yarn' | 'linear' | 'llama3')[] = isLlamaFamily(ctx.modelType) ? ['yarn', 'llama3', 'linear'] : ['yarn', 'linear'];
  const evaluated = names.map((n) => ({ name: n, ...llamaFactoryDerived(ctx, n) }));
  const meets = evaluated.filter((e) => e.meets).sort((a, b) => a.change - b.change);
  const chosen = meets[0] ?? evaluated.slice().sort((a, b) => b.lmax - a.lmax)[0];
  const notes = [
    `LLaMA-Factory derives factor = ceil(${fmt(L)} / ${fmt(mpe)}) = ${chosen.factor} and original_max_position_embeddings = ${fmt(mpe)} itself (the model then covers ${fmt(chosen.factor * mpe)}).`,
  ];
  if (!chosen.meets) notes.push(`No scaling LLaMA-Factory can name meets the bound at ${fmt(L)}; ${chosen.name} holds to ${fmt(chosen.lmax)}.`);
  if (mpe !== ctx.trained)
    notes.push(
      `Its factor is relative to ${ctx.llamaFactoryOld !== undefined && ctx.llamaFactoryOld !== ctx.shippedContext ? "the original length of the model's scaling block" : 'max_position_embeddings'} ${fmt(mpe)}, not the trained context ${fmt(ctx.trained)}.`,
    );
  if (ctx.shippedScaling) notes.push(`It replaces the model's own ${ctx.shippedScaling} scaling.`);
  notes.push('Its scaling loads on transformers 4.x only: pin transformers>=4.55.0,<5 (5.x refuses the float max_position_embeddings it writes).');
  const rec = ctx.ranked[0];
  if (rec && rec.method !== chosen.name && rec.method !== 'as-shipped')
    notes.push(`The recommendation (${rec.label}) is not something LLaMA-Factory can write. ${rec.ropeTheta !== undefined ? noTheta : ''}`.trim());
  return { yaml: `cutoff_len: ${L}\nrope_scaling: ${chosen.name}\n`, note: notes.join(' ') };
}

interface TorchtuneBuilder {
  component: string;
  args: [string, unknown][];
}

function intOf(cfg: Record<string, unknown> | undefined, key: string): number | undefined {
  const v = cfg?.[key];
  return typeof v === 'number' && Number.isInteger(v) && v > 0 ? v : undefined;
}

/** torchtune's component builder for this architecture, with every argument from the model's config. */
export function torchtuneBuilder(modelType: string | undefined, cfg: Record<string, unknown> | undefined): TorchtuneBuilder | { reason: string } {
  const component =
    modelType === 'llama'
      ? intOf(cfg, 'vocab_size') === 128256
        ? 'torchtune.models.llama3.llama3'
        : 'torchtune.models.llama2.llama2'
      : modelType === 'qwen2'
        ? 'torchtune.models.qwen2.qwen2'
        : modelType === 'mistral'
          ? 'torchtune.models.mistral.mistral'
          : undefined;
  if (!component) return { reason: `no torchtune component builder with a rope_base argument is known here for model_type ${modelType ?? '(none)'}` };
  const heads = intOf(cfg, 'num_attention_heads'),
    hidden = intOf(cfg, 'hidden_size');
  const headDim = intOf(cfg, 'head_dim');
  if (headDim !== undefined && heads && hidden && headDim * heads !== hidden) {
    return { reason: `torchtune's ${component} derives head_dim = embed_dim // num_heads, but this model's head_dim is ${headDim}` };
  }
  const need: [string, string][] = [
    ['vocab_size', 'vocab_size'],
    ['num_layers', 'num_hidden_layers'],
    ['num_heads', 'num_attention_heads'],
    ['embed_dim', 'hidden_size'],
    ['intermediate_dim', 'intermediate_size'],
  ];
  const args: [string, unknown][] = [];
  const missing: string[] = [];
  for (const [arg, key] of need) {
    const v = intOf(cfg, key);
    if (v === undefined) missing.push(key);
    else args.push([arg, v]);
  }
  if (missing.length) return { reason: `torchtune's component builder needs ${missing.join(', ')}, which the model's config does not give here` };
  args.splice(3, 0, ['num_kv_heads', intOf(cfg, 'num_key_value_heads') ?? heads]);
  const eps = cfg?.['rms_norm_eps'];
  if (typeof eps === 'number' && eps > 0) args.push(['norm_eps', eps]);
  if (modelType === 'qwen2' && cfg?.['tie_word_embeddings'] === true) args.push(['tie_word_embeddings', true]);
  return { component, args };
}

export function torchtuneSnippet(ctx: SnippetContext): Snippet {
  const L = ctx.length;
  const builder = torchtuneBuilder(ctx.modelType, ctx.config);
  if ('reason' in builder) return { note: `No torchtune snippet: ${builder.reason}.` };
  let o = pick(ctx, 'torchtune');
  let note = differs(ctx, o, 'torchtune');
  if (!o) {
    o = closest(ctx, 'torchtune');
    if (!o) return { note: 'No option torchtune can write.' };
    note = `No base torchtune can write meets the bound at ${fmt(L)}; this uses ${o.label}, which holds to ${fmt(o.lmax)}.`;
  }
  if (ctx.shippedScaling && o.method === 'as-shipped') {
    return { note: `torchtune's generic builder has no ${ctx.shippedScaling} scaling; use the model's own torchtune builder to train it as shipped.` };
  }
  const base = o.ropeTheta ?? ctx.base;
  const lines = ['model:', `  _component_: ${builder.component}`];
  for (const [k, v] of builder.args) lines.push(`  ${k}: ${typeof v === 'number' ? num(v) : String(v)}`);
  lines.push(`  max_seq_len: ${L}`, `  rope_base: ${theta(base)}`, 'tokenizer:', `  max_seq_len: ${L}`);
  const extra =
    "torchtune's model builders fix RoPE in code; the component builder takes rope_base and max_seq_len (RotaryPositionalEmbeddings has no scaling types beyond llama3).";
  return { yaml: lines.join('\n') + '\n', note: note ? `${note} ${extra}` : extra };
}

export function stageSnippets(
  ctx: SnippetContext,
  trainers: readonly Trainer[],
): { snippets: Partial<Record<Trainer, string>>; notes: Partial<Record<Trainer, string>> } {
  const snippets: Partial<Record<Trainer, string>> = {};
  const notes: Partial<Record<Trainer, string>> = {};
  for (const t of trainers) {
    const s = t === 'axolotl' ? axolotlSnippet(ctx) : t === 'llama-factory' ? llamaFactorySnippet(ctx) : torchtuneSnippet(ctx);
    if (s.yaml) snippets[t] = s.yaml;
    if (s.note) notes[t] = s.note;
  }
  return { snippets, notes };
}
