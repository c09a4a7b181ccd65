/**
 * Model families and generations, as data (`catalog/families.json`, schema `catalog/families.schema.json`):
 * what a generation shares (the context it was trained at, the max_position_embeddings, base and
 * scaling it ships, the vendor's documented long-context recipe) and what each size or variant
 * changes (head_dim, windows, the MoE model_type). Any name of a generation — another size, an
 * instruct or base variant, a quantised repack (AWQ, GPTQ, FP8, bnb-4bit, MLX, GGUF), a fine-tune
 * named after it — resolves to a description built from that data, marked as assumed from the
 * family so findings say so. The catalog's own entries win: this is the fallback.
 */
import familiesData from './catalog/families.json';
import type { CatalogEntry } from './catalog';
import { modelNameOf } from './modelName';
import { enUS } from '../core/format';

export interface FamilyVariant {
  /** A regular expression (case-insensitive) on the model name: the sizes or variants it covers. */
  when: string;
  /** Config values that differ for those names, merged over the generation's (nested scopes key by key). */
  config?: Record<string, unknown>;
  /** The trained context when it differs for those names. */
  trainedContext?: { value: number; source: string };
  /** Why, and where it was read. */
  note?: string;
}

export interface Generation {
  /** The generation's name as the vendor writes it (`Qwen2.5`, `Llama-3.1`). */
  name: string;
  /**
   * A regular expression (case-insensitive) for the generation's names, matched where a name
   * part starts; of several generations that match, the longest match wins (`Qwen2.5-VL-` over `Qwen2.5-`).
   */
  match: string;
  /** A representative shipped config.json (URL or `github:…`), where the shared values were read. */
  source: string;
  /** Real config files the values were checked against (`corpus:FILE` or `github:OWNER/REPO/PATH`). */
  verified?: string[];
  trainedContext: { value: number; source: string };
  /** The generation has no rotary embedding. */
  noRope?: boolean;
  /** What every size shares (the shipped config's RoPE subset). */
  config: Record<string, unknown>;
  /** The vendor's documented scaling for running past the trained context, with its source. */
  recipe?: { scaling: Record<string, unknown>; source: string };
  /** What some sizes or variants change, applied in order. */
  variants?: FamilyVariant[];
  note?: string;
}

export interface Family {
  /** The model line (`Qwen`, `Llama 3`, `Gemma`). */
  family: string;
  vendor: string;
  generations: Generation[];
}

/** How a catalog-shaped description was built from a generation: said in findings. */
export interface FamilyAssumption {
  family: string;
  generation: string;
  /** The size token read from the name (`72B`, `30B-A3B`), when there is one. */
  size?: string;
  /** The values taken from the generation, worded (`trained at 32,768`, `base 1,000,000`); no config key is quoted. */
  assumed: string[];
  /** The vendor's recipe of the generation, when it documents one. */
  recipe?: Generation['recipe'];
}

export const FAMILIES: readonly Family[] = (familiesData as unknown as { families: Family[] }).families;

interface Compiled {
  family: Family;
  generation: Generation;
  re: RegExp;
  variants: { v: FamilyVariant; re: RegExp }[];
}

const COMPILED: Compiled[] = FAMILIES.flatMap((family) =>
  family.generations.map((generation) => ({
    family,
    generation,
    // A generation's name starts a name part: at the start, or after `-`, `_`, `.` or a space.
    re: new RegExp(`(?:^|[-_. ])(${generation.match})`, 'i'),
    variants: (generation.variants ?? []).map((v) => ({ v, re: new RegExp(v.when, 'i') })),
  })),
);

/** The generation a model name belongs to: the longest generation match, then the earliest. */
export function generationOf(name: string): { family: Family; generation: Generation; rest: string } | undefined {
  let best: { c: Compiled; len: number; at: number } | undefined;
  for (const c of COMPILED) {
    const m = c.re.exec(name);
    if (!m) continue;
    const len = m[1].length;
    const at = m.index + m[0].length - len;
    if (!best || len > best.len || (len === best.len && at < best.at)) best = { c, len, at };
  }
  if (!best) return undefined;
  return { family: best.c.family, generation: best.c.generation, rest: name.slice(0, best.at) + '-' + name.slice(best.at + best.len) };
}

/**
 * Words in a name, outside the generation's own, that say a fine-tune changed the context or the
 * positions (`-1048k`, `-1M`, `Yarn-`, `LongLoRA`, `Gradient`): its RoPE values are its own, not the
 * family's, so it does not resolve from the family.
 */
const CONTEXT_CHANGED = /(?:^|[-_.])([a-z]*\d+k|1m|yarn|longlora|long-?context|longctx|ntk|gradient|pose|extended)(?=$|[-_.])/gi;

/** A context word other than the generation's own length (`Nemotron-H-8B-Base-8K` is 8,192 as shipped). */
function contextChanged(rest: string, g: Generation): boolean {
  for (const m of rest.matchAll(CONTEXT_CHANGED)) {
    const k = /^[a-z]*(\d+)k$/i.exec(m[1]);
    const own = k !== null && [1000, 1024].some((u) => Number(k[1]) * u === g.trainedContext.value || Number(k[1]) * u === declaredContext(g));
    if (!own) return true;
  }
  return false;
}

function declaredContext(g: Generation): number | undefined {
  const v = scopeOf(g.config)['max_position_embeddings'];
  return typeof v === 'number' ? v : undefined;
}

/** The size token of a name: `72B`, `0.5B`, `30B-A3B`, `8x7B`, `135M`, `E4B`. */
export function sizeOf(name: string): string | undefined {
  const m = /(?:^|[-_.])((?:\d+x)?\d+(?:\.\d+)?[bm](?:-a\d+(?:\.\d+)?b)?|e\d+b)(?=$|[-_.])/i.exec(name);
  return m ? m[1] : undefined;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `over` merged into `base`, nested objects key by key (a variant changes one key of `text_config`). */
function merge(base: Record<string, unknown>, over: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(over)) out[k] = isObject(v) && isObject(out[k]) ? merge(out[k] as Record<string, unknown>, v) : v;
  return out;
}

/** The language-model scope of a config (its `text_config` when it has one). */
function scopeOf(config: Record<string, unknown>): Record<string, unknown> {
  return isObject(config['text_config']) ? config['text_config'] : config;
}

function ropeTheta(scope: Record<string, unknown>): number | undefined {
  const p = scope['rope_parameters'];
  const fromParams = isObject(p) ? (isObject(p['full_attention']) ? p['full_attention']['rope_theta'] : p['rope_theta']) : undefined;
  const v = scope['rope_theta'] ?? fromParams;
  return typeof v === 'number' ? v : undefined;
}

function scalingWords(scope: Record<string, unknown>): string | undefined {
  const s = isObject(scope['rope_scaling']) ? scope['rope_scaling'] : undefined;
  if (!s) return undefined;
  const type = s['rope_type'] ?? s['type'];
  if (type === 'mrope' || type === 'default') return undefined;
  const orig = s['original_max_position_embeddings'];
  return `${String(type)} ×${String(s['factor'])}${typeof orig === 'number' ? ` over ${enUS(orig)}` : ''}`;
}

/** The words a finding uses for the values taken from the generation. */
function assumedWords(g: Generation, config: Record<string, unknown>, trained: number, size: string | undefined, headDimByVariant: boolean): string[] {
  const scope = scopeOf(config);
  const out = [`trained at ${enUS(trained)}`];
  if (g.noRope) return [...out, 'no rotary embedding'];
  const theta = ropeTheta(scope);
  if (theta !== undefined) out.push(`base ${enUS(theta)}`);
  const mpe = scope['max_position_embeddings'];
  if (typeof mpe === 'number') out.push(`shipped context ${enUS(mpe)}`);
  const scaling = scalingWords(scope);
  if (scaling) out.push(`scaling ${scaling}`);
  const hd = scope['head_dim'] ?? scope['qk_rope_head_dim'];
  if (typeof hd === 'number') out.push(`head dimension ${hd}${headDimByVariant ? '' : ` (every ${g.name} size)`}`);
  else out.push(`head dimension unknown for ${size ?? 'this size'}: 128 assumed`);
  return out;
}

/**
 * A catalog-shaped description of the model a reference names, built from its generation's data,
 * or undefined when no generation's name is in it. `entry.assumedFrom` says what was assumed.
 */
export function familyEntryFor(ref: string): CatalogEntry | undefined {
  const mn = modelNameOf(ref);
  if (!mn) return undefined;
  const hit = generationOf(mn.name);
  if (!hit || contextChanged(hit.rest, hit.generation)) return undefined;
  const { family, generation: g } = hit;
  let config = { ...g.config };
  let trainedContext = g.trainedContext;
  let headDimByVariant = false;
  const notes: string[] = [];
  for (const { v, re } of COMPILED.find((c) => c.generation === g)!.variants) {
    if (!re.test(mn.name)) continue;
    if (v.config) {
      config = merge(config, v.config);
      const vs = scopeOf(v.config);
      if (vs['head_dim'] !== undefined || vs['qk_rope_head_dim'] !== undefined) headDimByVariant = true;
    }
    if (v.trainedContext) trainedContext = v.trainedContext;
    if (v.note) notes.push(v.note);
  }
  const size = sizeOf(mn.name);
  const id = mn.hubId ?? mn.name;
  const assumedFrom: FamilyAssumption = {
    family: family.family,
    generation: g.name,
    assumed: assumedWords(g, config, trainedContext.value, size, headDimByVariant),
  };
  if (size) assumedFrom.size = size;
  if (g.recipe) assumedFrom.recipe = g.recipe;
  const entry: CatalogEntry = {
    id,
    source: g.source,
    trainedContext,
    config,
    assumedFrom,
    note: [`assumed from the ${g.name} family`, g.note, ...notes].filter(Boolean).join('; '),
  };
  if (g.noRope) entry.noRope = true;
  return entry;
}

/** `assumed from the Qwen2.5 family (trained at 32,768, base 1,000,000, …)`: how findings say it. */
export function assumptionText(a: FamilyAssumption): string {
  return `assumed from the ${a.generation} family (${a.assumed.join(', ')})`;
}
