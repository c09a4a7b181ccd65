/**
 * Which public model a config is, and what that tells about it: the context it was trained at and
 * what it shipped with (advice.md, "trained context T", order 2). Pure: works on plain objects and
 * strings, the caller reads the file.
 *
 * Order: `_name_or_path`, the Hugging Face cache path, a training config's base model, then a
 * fingerprint of architecture and RoPE values that matches one catalog entry (or several that
 * agree on T), or a known model with a scaling added and its base unchanged (situation 4).
 * Architecture alone never names a model: a fine-tune that changed rope_theta, the shipped
 * scaling or the context is a derivative (`derivativeOf`), judged on its own values; and a
 * `_name_or_path` naming a hub model the catalog does not know wins over any fingerprint.
 */
import { CATALOG, CatalogEntry, findCatalogEntryStrict, findListedEntry, namesOf } from './catalog';
import { FAMILIES, generationOf } from './modelFamilies';
import { modelNameOf } from './modelName';
import type { ModelIdentity, ShippedValues } from './modelRope';
import { familyDefaultBase } from './families';
import { currentTypeName } from '../rope/spec';
import { enUS } from '../core/format';
import { rotaryTableOf } from './rotaryTables';

/** Architecture values that tell models apart; max_position_embeddings is deliberately absent (users raise it). */
export interface Fingerprint {
  modelType?: string;
  hiddenSize?: number;
  numHiddenLayers?: number;
  numAttentionHeads?: number;
  numKeyValueHeads?: number;
  intermediateSize?: number;
  vocabSize?: number;
  ropeTheta?: number;
  /** Normalized scaling type (`su` → `longrope`); `default` when the scope has no scaling block. */
  scalingType?: string;
  /** The scaling block's factor, when it has one. */
  scalingFactor?: number;
}

export interface IdentityMatch {
  identity: ModelIdentity;
  /** The matching catalog entries, the identity's first. */
  entries: CatalogEntry[];
  /** `source` is `catalog:<id>`; the entry's own `trainedContext.source` says where the number is stated. */
  trainedContext: { value: number; source: string };
  /** What the identified model's config.json shipped with (its language-model scope). */
  shipped: ShippedValues;
}

/** A file with the architecture of catalog models but RoPE values of its own. */
export interface DerivativeMatch {
  /** The models it has the architecture of (ids and aliases). */
  candidates: string[];
  /** The closest of them (the first candidate's catalog id). */
  closestId: string;
  /** What the first of them was trained at (`catalog:<id>`): not the derivative's T. */
  trainedContext: { value: number; source: string };
  shipped: IdentityMatch['shipped'];
  /** Its RoPE values that differ from that model's, worded (`rope_theta 283,461,213 (shipped 500,000)`). */
  differences: string[];
  /** What the closest model of the architecture that shipped no scaling was trained at (Llama-2-7B: 4,096). */
  unscaledTrainedContext?: number;
}

export interface IdentifyInput {
  /** `_name_or_path` of the config file. */
  nameOrPath?: string;
  /** Path of the config file (Hugging Face cache layout is recognised). */
  filePath?: string;
  /** A training config's base model (hub id or path). */
  baseModel?: string;
  fingerprint?: Fingerprint;
  /** The context the config declares: among fingerprint candidates that agree on T, the one that
   *  shipped this context names the model (Qwen2-7B shipped 32,768, Qwen2.5-7B 131,072). */
  contextLength?: number;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const firstNum = (o: Record<string, unknown>, keys: string[]): number | undefined => {
  for (const k of keys) {
    const v = num(o[k]);
    if (v !== undefined) return v;
  }
  return undefined;
};

/** Keys under which multimodal configs nest their language model. */
const LANGUAGE_SCOPES = ['text_config', 'language_config', 'llm_config'];

/** The language-model scope of a config: its `text_config` (or similar) when it has one, else the root. */
export function languageScope(config: Record<string, unknown>): Record<string, unknown> {
  for (const k of LANGUAGE_SCOPES) {
    const v = config[k];
    // A family description (families.json) carries only RoPE keys in its text_config.
    if (
      isObject(v) &&
      ['hidden_size', 'num_hidden_layers', 'max_position_embeddings', 'rope_theta', 'rope_parameters', 'head_dim'].some((k) => v[k] !== undefined)
    )
      return v;
  }
  return config;
}

function scalingBlock(scope: Record<string, unknown>): Record<string, unknown> | undefined {
  if (isObject(scope['rope_scaling'])) return scope['rope_scaling'];
  const p = scope['rope_parameters'];
  // v5 per-layer-type form: {full_attention: {...}, sliding_attention: {...}}; the full-attention block decides
  // (DeepSeek-V4 keys it `compress`, the table its full-context layers read).
  if (isObject(p)) {
    const table = rotaryTableOf(typeof scope['model_type'] === 'string' ? scope['model_type'] : undefined, 'full_attention') ?? 'full_attention';
    return isObject(p[table]) ? p[table] : p;
  }
  return undefined;
}

function normalizeScalingType(raw: unknown): string | undefined {
  if (typeof raw !== 'string' || raw === '') return undefined;
  return currentTypeName(raw.toLowerCase());
}

/** The fingerprint of one config scope (root, or the `text_config` of a multimodal config). */
export function fingerprintOf(scope: Record<string, unknown>): Fingerprint {
  const fp: Fingerprint = {};
  if (typeof scope['model_type'] === 'string') fp.modelType = scope['model_type'];
  // Family spellings: GPT-2/BigCode (n_*), ChatGLM (num_layers, multi_query_group_num, ffn_hidden_size), DBRX/MPT (d_model, n_heads), T5.
  fp.hiddenSize = firstNum(scope, ['hidden_size', 'n_embd', 'd_model']);
  fp.numHiddenLayers = firstNum(scope, ['num_hidden_layers', 'n_layer', 'num_layers', 'n_layers']);
  fp.numAttentionHeads = firstNum(scope, ['num_attention_heads', 'n_head', 'num_heads', 'n_heads']);
  fp.numKeyValueHeads = firstNum(scope, ['num_key_value_heads', 'multi_query_group_num', 'num_kv_heads']);
  fp.intermediateSize = firstNum(scope, ['intermediate_size', 'ffn_hidden_size', 'n_inner', 'd_ff']);
  fp.vocabSize = firstNum(scope, ['vocab_size', 'padded_vocab_size']);
  const scaling = scalingBlock(scope);
  const attn = isObject(scope['attn_config']) ? scope['attn_config'] : {};
  fp.ropeTheta =
    num(scope['rope_theta']) ?? num(scaling?.['rope_theta']) ?? num(scope['rotary_emb_base']) ?? num(scope['global_rope_theta']) ?? num(attn['rope_theta']);
  // A scaling block whose type is `default` (v5 writes one for every model) is no scaling.
  fp.scalingType = normalizeScalingType(scaling?.['rope_type'] ?? scaling?.['type']) ?? 'default';
  if (fp.scalingType !== 'default') fp.scalingFactor = num(scaling?.['factor']);
  for (const k of Object.keys(fp) as (keyof Fingerprint)[]) if (fp[k] === undefined) delete fp[k];
  return fp;
}

const ARCH_FIELDS: (keyof Fingerprint)[] = [
  'modelType',
  'hiddenSize',
  'numHiddenLayers',
  'numAttentionHeads',
  'numKeyValueHeads',
  'intermediateSize',
  'vocabSize',
];
/** Without these on the input, a fingerprint says too little to name a model. */
const REQUIRED_FIELDS: (keyof Fingerprint)[] = ['modelType', 'hiddenSize', 'numHiddenLayers', 'numAttentionHeads'];

/** Every field both sides have is equal (numbers exactly); the required fields must be on both sides. */
function fingerprintsMatch(input: Fingerprint, entry: Fingerprint, fields: (keyof Fingerprint)[]): boolean {
  if (REQUIRED_FIELDS.some((f) => entry[f] === undefined)) return false;
  return fields.every((f) => input[f] === undefined || entry[f] === undefined || input[f] === entry[f]);
}

const ENTRY_FINGERPRINTS = new Map<CatalogEntry, Fingerprint>(CATALOG.map((e) => [e, fingerprintOf(languageScope(e.config))]));

/** The context a config scope declares, read as the catalog records it: max_position_embeddings first. */
export function shippedContextOf(scope: Record<string, unknown>): number | undefined {
  return firstNum(scope, ['max_position_embeddings', 'seq_length', 'n_positions', 'max_seq_len']);
}

/** The entry's shipped context, base and scaling type (language-model scope). */
export function shippedOf(e: CatalogEntry): IdentityMatch['shipped'] {
  const scope = languageScope(e.config);
  const fp = ENTRY_FINGERPRINTS.get(e) ?? fingerprintOf(scope);
  const shipped: IdentityMatch['shipped'] = {};
  const ctx = shippedContextOf(scope);
  if (ctx !== undefined) shipped.contextLength = ctx;
  if (!e.noRope && fp.ropeTheta !== undefined) shipped.base = fp.ropeTheta;
  if (!e.noRope && fp.scalingType !== undefined) shipped.scalingType = fp.scalingType;
  if (!e.noRope && fp.scalingFactor !== undefined) shipped.scalingFactor = fp.scalingFactor;
  return shipped;
}

function matchOf(entries: CatalogEntry[], via: ModelIdentity['via'], withCandidates: boolean): IdentityMatch {
  const first = entries[0];
  const identity: ModelIdentity = { id: first.id, via };
  // A model known by its generation's data, not an entry of its own (modelFamilies.ts).
  if (first.assumedFrom) identity.family = first.assumedFrom.generation;
  if (withCandidates) {
    const names = entries.flatMap(namesOf);
    if (names.length > 1) identity.candidates = names;
  }
  return {
    identity,
    entries,
    trainedContext: { value: first.trainedContext.value, source: `catalog:${first.id}` },
    shipped: shippedOf(first),
  };
}

/** `…/models--org--name/snapshots/<rev>/config.json` → `org/name`. */
export function hubIdFromCachePath(filePath: string): string | undefined {
  // Folder by folder (a pattern over the whole path would rescan it from every "models--").
  const parts = filePath.split(/[\\/]/);
  for (let i = 0; i + 2 < parts.length; i++) {
    if (!parts[i].startsWith('models--') || parts[i + 1] !== 'snapshots') continue;
    const inner = parts[i].slice('models--'.length);
    const cut = inner.indexOf('--', 1);
    if (cut > 0 && cut + 2 < inner.length) return `${inner.slice(0, cut)}/${inner.slice(cut + 2)}`;
  }
  return undefined;
}

/** How a fingerprint compares with the catalog: one model (or twins agreeing on T), a derivative of one, or nothing. */
type FingerprintVerdict = { match: IdentityMatch } | { derivative: DerivativeMatch } | undefined;

/**
 * A fingerprint names a model only when its RoPE values agree too: rope_theta, the scaling type and
 * factor, and max_position_embeddings where every candidate shipped the same one — or when the file
 * only adds a scaling to a model that shipped none (situation 4). A file that has the architecture
 * of known models but other RoPE values is a derivative (a fine-tune that raised the base or the
 * context, a copy with another scaling): it is judged on its own values (advice.md, rule 3), and
 * the models it derives from are kept only to say so.
 */
function byFingerprint(fp: Fingerprint, contextLength?: number, hint?: string): FingerprintVerdict {
  if (REQUIRED_FIELDS.some((f) => fp[f] === undefined)) return undefined;
  const archHits = CATALOG.filter((e) => fingerprintsMatch(fp, ENTRY_FINGERPRINTS.get(e)!, ARCH_FIELDS));
  if (archHits.length === 0) return undefined;
  const ropeHits = archHits.filter((e) => ropeDifferences(fp, contextLength, e, archHits).length === 0);
  // Every value counts: a file without scaling whose context is exactly what a scaled model of the
  // architecture shipped (and no unscaled one did) is that model with its scaling lost — a
  // Llama-3.1-8B config without its llama3 block (131,072, rope_theta 500,000) is not Llama-3-8B.
  const lost = lostScaling(fp, contextLength, archHits, ropeHits);
  if (lost) return { match: lost };
  if (ropeHits.length > 0) {
    // The nearest entry wins only when every RoPE value agrees, the declared context included
    // (Llama-1's 2,048 is not Llama-2-7B's 4,096); otherwise, when the candidates agree on T,
    // the family is named as such (a Llama-3.1-8B config without its scaling at 262,144 is a
    // Llama 3 8B, not Llama-3-8B).
    const exact = contextLength === undefined ? ropeHits : ropeHits.filter((e) => shippedOf(e).contextLength === contextLength);
    if (exact.length > 0 && agreeOnT(exact)) return { match: matchOf(namedFirst(shippingFirst(exact, contextLength), hint), 'fingerprint', true) };
    if (!agreeOnT(ropeHits)) return pastEveryCandidate(ropeHits, contextLength, hint);
    const match = matchOf(namedFirst(ropeHits, hint), 'fingerprint', true);
    const family = familyOfArchitecture(fp, archHits, match.trainedContext.value);
    if (family) {
      match.identity.family = family.name;
      match.identity.candidates = family.members;
    }
    return { match };
  }
  // A scaling added to a model that shipped none, with its base unchanged (advice.md situation 4:
  // the user extends a known model, as Qwen's card says to add YaRN): still that model, when every
  // such model agrees on T, so the scaling is judged against the context it was trained at.
  if (fp.scalingType !== undefined && fp.scalingType !== 'default') {
    const extended = archHits.filter((e) => {
      const shipped = ENTRY_FINGERPRINTS.get(e)!;
      return shipped.scalingType === 'default' && thetaOf(shipped) === thetaOf(fp);
    });
    // Models of one body trained at different lengths (LLaMA-1 at 2,048, Llama-2 at 4,096): the one
    // whose shipped context the file kept, else whose trained context the factor stretches nearest to its context.
    const nearest = nearestStretch(extended, fp.scalingFactor, contextLength);
    if (nearest.length > 0 && agreeOnT(nearest)) {
      return { match: matchOf(shippingFirst(nearest, contextLength), 'fingerprint', true) };
    }
  }
  // The closest model, named first: the fewest differing values, then the same scaling type (a
  // linear model's factor changed is closer to the linear one), then catalog order.
  const otherType = (e: CatalogEntry) => (ENTRY_FINGERPRINTS.get(e)!.scalingType === fp.scalingType ? 0 : 1);
  const ranked = archHits
    .map((e, i) => ({ e, i, d: ropeDifferences(fp, contextLength, e, archHits) }))
    .sort((a, b) => a.d.length - b.d.length || otherType(a.e) - otherType(b.e) || a.i - b.i);
  const closest = ranked[0];
  const unscaled = ranked.find((r) => ENTRY_FINGERPRINTS.get(r.e)!.scalingType === 'default')?.e;
  return {
    derivative: {
      candidates: ranked.flatMap((r) => namesOf(r.e)),
      closestId: closest.e.id,
      trainedContext: { value: closest.e.trainedContext.value, source: `catalog:${closest.e.id}` },
      shipped: shippedOf(closest.e),
      differences: closest.d,
      ...(unscaled ? { unscaledTrainedContext: unscaled.trainedContext.value } : {}),
    },
  };
}

function nearestStretch(entries: CatalogEntry[], factor: number | undefined, contextLength: number | undefined): CatalogEntry[] {
  if (agreeOnT(entries) || contextLength === undefined) return entries;
  // The one whose shipped context the file kept (Vicuna-v1.5-16k: Llama-2's 4,096 with linear ×4).
  const kept = entries.filter((e) => shippedOf(e).contextLength === contextLength);
  if (kept.length > 0) return kept;
  if (factor === undefined || !(factor > 0)) return entries;
  const gap = (e: CatalogEntry) => Math.abs(Math.log((e.trainedContext.value * factor) / contextLength));
  const best = Math.min(...entries.map(gap));
  return entries.filter((e) => gap(e) === best);
}

/**
 * Models of one body trained at different lengths (LLaMA-1-7B at 2,048, Llama-2-7B at 4,096): a context
 * past every one of them (and past what each shipped) is an extension whichever it is, so the file is
 * judged from the longest T, for which the claim holds for all, and every candidate is named. A context
 * within one of them names none.
 */
function pastEveryCandidate(entries: CatalogEntry[], contextLength: number | undefined, hint?: string): FingerprintVerdict {
  if (contextLength === undefined) return undefined;
  const reach = Math.max(...entries.map((e) => Math.max(e.trainedContext.value, shippedOf(e).contextLength ?? 0)));
  if (!(contextLength > reach)) return undefined;
  const longest = Math.max(...entries.map((e) => e.trainedContext.value));
  const match = matchOf(
    namedFirst(
      entries.filter((e) => e.trainedContext.value === longest),
      hint,
    ),
    'fingerprint',
    true,
  );
  match.identity.candidates = entries.flatMap((e) => namesOf(e));
  return { match };
}

function agreeOnT(entries: CatalogEntry[]): boolean {
  return new Set(entries.map((e) => e.trainedContext.value)).size === 1;
}

/**
 * Candidates that agree on everything the file says, the one its file or folder name names first
 * (`qwen2.5-7b-instruct/config.json` is Qwen2.5-7B-Instruct, not its twin Qwen2-7B-Instruct): the
 * entry of that exact name, then entries of the same generation.
 */
function namedFirst(entries: CatalogEntry[], hint: string | undefined): CatalogEntry[] {
  if (!hint) return entries;
  const named = findListedEntry(hint);
  const gen = generationOf(modelNameOf(hint)?.name ?? '')?.generation;
  const genOf = (e: CatalogEntry) => namesOf(e).some((n) => generationOf(modelNameOf(n)?.name ?? '')?.generation === gen);
  const rank = (e: CatalogEntry) => (e === named ? 0 : gen && genOf(e) ? 1 : 2);
  return [...entries].sort((a, b) => rank(a) - rank(b));
}

/**
 * The family a file of a known architecture belongs to when no entry has all its values: the
 * entries of the architecture with its base and trained context (scaled or not), and the family
 * their generations share (families.json). Undefined when they span families or none is known.
 */
function familyOfArchitecture(fp: Fingerprint, archHits: CatalogEntry[], trained: number): { name: string; members: string[] } | undefined {
  const members = archHits.filter((e) => e.trainedContext.value === trained && thetaOf(ENTRY_FINGERPRINTS.get(e)!) === thetaOf(fp));
  const families = new Set(
    members.map((e) => {
      const g = generationOf(modelNameOf(e.id)?.name ?? '')?.generation;
      return g ? FAMILIES.find((f) => f.generations.includes(g))?.family : undefined;
    }),
  );
  const [name] = [...families];
  if (families.size !== 1 || name === undefined) return undefined;
  return { name, members: members.flatMap(namesOf) };
}

function lostScaling(fp: Fingerprint, contextLength: number | undefined, archHits: CatalogEntry[], ropeHits: CatalogEntry[]): IdentityMatch | undefined {
  if (fp.scalingType !== 'default' || contextLength === undefined) return undefined;
  if (ropeHits.some((e) => shippedOf(e).contextLength === contextLength)) return undefined;
  const scaled = archHits.filter((e) => {
    const shipped = ENTRY_FINGERPRINTS.get(e)!;
    return (
      shipped.scalingType !== undefined && shipped.scalingType !== 'default' && thetaOf(shipped) === thetaOf(fp) && shippedOf(e).contextLength === contextLength
    );
  });
  if (scaled.length === 0 || new Set(scaled.map((e) => e.trainedContext.value)).size !== 1) return undefined;
  const match = matchOf(scaled, 'fingerprint', true);
  match.identity.lostScaling = ENTRY_FINGERPRINTS.get(scaled[0])!.scalingType;
  return match;
}

/** Candidates that agree on T, the one that shipped this context first (Qwen2-7B 32,768, Qwen2.5-7B 131,072). */
function shippingFirst(entries: CatalogEntry[], contextLength: number | undefined): CatalogEntry[] {
  const ships = (e: CatalogEntry) => contextLength !== undefined && shippedOf(e).contextLength === contextLength;
  return [...entries.filter(ships), ...entries.filter((e) => !ships(e))];
}

/** rope_theta as the config class reads it: the file's value, else its family's default (Llama: 10,000). */
function thetaOf(fp: Fingerprint): number {
  return fp.ropeTheta ?? familyDefaultBase(fp.modelType).value;
}

/**
 * The RoPE values of a file that differ from what a catalog entry shipped, worded for a message
 * (`rope_theta 283,461,213 (shipped 500,000)`). max_position_embeddings counts only when every
 * model of the architecture `family` shipped the same one (Gemma-7B: 8,192). Where the family
 * shipped several (Llama-3-70B 8,192, Llama-3.1/3.3-70B 131,072; Qwen2 and Qwen2.5), a raised
 * context alone does not make a derivative: it stays the classic mistake of advice.md situation 3.
 */
function ropeDifferences(fp: Fingerprint, contextLength: number | undefined, e: CatalogEntry, family: CatalogEntry[]): string[] {
  const shipped = ENTRY_FINGERPRINTS.get(e)!;
  const out: string[] = [];
  const n = (v: number) => enUS(v);
  if (thetaOf(fp) !== thetaOf(shipped)) out.push(`rope_theta ${n(thetaOf(fp))} (shipped ${n(thetaOf(shipped))})`);
  if (fp.scalingType !== undefined && shipped.scalingType !== undefined && fp.scalingType !== shipped.scalingType) {
    out.push(`scaling ${fp.scalingType === 'default' ? 'none' : fp.scalingType} (shipped ${shipped.scalingType === 'default' ? 'none' : shipped.scalingType})`);
  } else if (fp.scalingFactor !== undefined && shipped.scalingFactor !== undefined && fp.scalingFactor !== shipped.scalingFactor) {
    out.push(`scaling factor ${n(fp.scalingFactor)} (shipped ${n(shipped.scalingFactor)})`);
  }
  const contexts = new Set(family.map((f) => shippedOf(f).contextLength));
  const familyContext = contexts.size === 1 ? [...contexts][0] : undefined;
  if (contextLength !== undefined && familyContext !== undefined && contextLength !== familyContext) {
    out.push(`max_position_embeddings ${n(contextLength)} (shipped ${n(familyContext)})`);
  }
  return out;
}

/** Identifies a config's model from the strongest evidence available; undefined when none decides. */
export function identifyModel(input: IdentifyInput): IdentityMatch | undefined {
  const named = (ref: string | undefined, via: ModelIdentity['via']): IdentityMatch | undefined => {
    if (!ref || ref.trim() === '') return undefined;
    const e = findCatalogEntryStrict(ref);
    // A name known only by its family counts when the file's RoPE values are the family's: a
    // fine-tune named after Llama-3 with its own base and context is judged on its own values.
    if (e?.assumedFrom && input.fingerprint && !agreesWithFamily(e, input.fingerprint)) return undefined;
    return e ? matchOf([e], via, false) : undefined;
  };
  const fromCache = input.filePath ? hubIdFromCachePath(input.filePath) : undefined;
  return named(input.nameOrPath, '_name_or_path') ?? named(fromCache, 'path') ?? named(input.baseModel, 'base_model') ?? fingerprintMatch(input);
}

function fingerprintMatch(input: IdentifyInput): IdentityMatch | undefined {
  if (namesAnotherModel(input.nameOrPath)) return undefined;
  const v = input.fingerprint ? byFingerprint(input.fingerprint, input.contextLength, nameHint(input)) : undefined;
  return v && 'match' in v ? v.match : undefined;
}

/** The name a local file or folder gives the model (`examples/qwen2.5-7b-instruct/config.json`): a tie-break only. */
function nameHint(input: IdentifyInput): string | undefined {
  return input.filePath ?? input.nameOrPath;
}

/**
 * `_name_or_path` is a hub id (ORG/NAME, not a path) that no catalog entry answers to: the file
 * says which model it is (lmsys/longchat-7b-16k, gradientai/…), so no fingerprint may name another.
 * A local path says nothing about the model and leaves the fingerprint its say.
 */
export function namesAnotherModel(nameOrPath: string | undefined): boolean {
  const ref = nameOrPath?.trim();
  if (!ref || !/^[A-Za-z0-9][\w.-]*\/[\w.-]+$/.test(ref)) return false;
  // A family member is another model too: its name says which, the fingerprint may not say otherwise.
  const e = findCatalogEntryStrict(ref);
  return e === undefined || e.assumedFrom !== undefined;
}

/** The file's base and scaling are what the family ships (its values, not a fine-tune's own). */
function agreesWithFamily(e: CatalogEntry, fp: Fingerprint): boolean {
  const shipped = fingerprintOf(languageScope(e.config));
  const type = (f: Fingerprint) => (f.scalingType === 'mrope' ? 'default' : (f.scalingType ?? 'default'));
  return thetaOf(shipped) === thetaOf(fp) && type(shipped) === type(fp);
}

/**
 * The catalog models a file has the architecture of but whose RoPE values it does not share: a
 * derivative, judged on its own values. Undefined when the file names a model, matches one, or
 * has no known architecture.
 */
export function derivativeOf(input: IdentifyInput): DerivativeMatch | undefined {
  if (!input.fingerprint || identifyModel(input)) return undefined;
  const v = byFingerprint(input.fingerprint, input.contextLength, nameHint(input));
  return v && 'derivative' in v ? v.derivative : undefined;
}

/** A derivative taken as an edit of its closest model: that model's identity, with the edited values said. */
export function editedModel(d: DerivativeMatch): IdentityMatch | undefined {
  const e = findCatalogEntryStrict(d.closestId);
  if (!e) return undefined;
  const match = matchOf([e], 'fingerprint', false);
  match.identity.edit = [...d.differences];
  return match;
}
