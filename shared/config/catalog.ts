/**
 * Built-in catalog of public models: for each, the RoPE and architecture subset of the config.json
 * it shipped with (values copied from the published file named in `source`) and the context it was
 * trained at. The data lives in `catalog/models.json` (schema: `catalog/schema.json`); this module
 * types it and looks entries up. Used when a training config names a hub model that is neither a
 * local path nor in the Hugging Face cache, and by `identity.ts` to recognise a config.
 */
import catalogData from './catalog/models.json';
import { FamilyAssumption, familyEntryFor } from './modelFamilies';
import { modelNameOf } from './modelName';

export interface CatalogEntry {
  /** Hub id, e.g. `meta-llama/Llama-3.1-8B`. */
  id: string;
  /** Other ids with the same config values (instruct/chat variants, renamed repos). */
  aliases?: string[];
  /** Where the values were read: an https URL, `github:OWNER/REPO/PATH[#KEY]` or `corpus:FILE`. */
  source: string;
  /**
   * An independent copy of the real config.json the values were checked against: `corpus:FILE`
   * (test/fixtures/corpus/models, see its SOURCES.md) or `github:OWNER/REPO/PATH` (`#KEY`: the entry of that
   * name in a file holding several configs). Absent: not yet cross-checked.
   */
  verified?: string;
  /** The model has no rotary embedding (absolute, ALiBi or relative-bucket positions, or none). */
  noRope?: boolean;
  /** The length the checkpoint was trained at, and where that is stated (paper/card URL or `config:<key>`). */
  trainedContext: { value: number; source: string };
  /** Caveats about the values or the source. */
  note?: string;
  /** The shipped config.json's subset (nested `text_config` for multimodal models). */
  config: Record<string, unknown>;
  /**
   * Set on descriptions built from a family's data (modelFamilies.ts), never in models.json: the
   * model is not in the catalog and these values are its generation's, said so in findings.
   */
  assumedFrom?: FamilyAssumption;
}

interface CatalogFile {
  models: CatalogEntry[];
}

export const CATALOG: readonly CatalogEntry[] = (catalogData as unknown as CatalogFile).models;

/** Every id and alias of an entry, the id first. */
export function namesOf(e: CatalogEntry): string[] {
  return [e.id, ...(e.aliases ?? [])];
}

const BY_ID = new Map<string, CatalogEntry>();
const BY_NAME = new Map<string, CatalogEntry>();
/** Names (last path segment) claimed by more than one entry. */
const AMBIGUOUS_NAMES = new Set<string>();
for (const e of CATALOG) {
  for (const id of namesOf(e)) {
    BY_ID.set(id.toLowerCase(), e);
    const name = id.split('/').pop()!.toLowerCase();
    const prior = BY_NAME.get(name);
    if (prior && prior !== e) AMBIGUOUS_NAMES.add(name);
    if (!prior) BY_NAME.set(name, e);
  }
}

/**
 * Finds a catalog entry for a hub id, a path ending in ORG/NAME (LitGPT's checkpoints/ORG/NAME), a
 * re-upload of a known model under another org (unsloth/…, bartowski/…), a quantised repack or GGUF
 * file name of one, or a Hugging Face cache path; else a description built from the model's family
 * (`assumedFrom` set), when its name names a known generation.
 */
export function findCatalogEntry(ref: string): CatalogEntry | undefined {
  return lookup(ref, false) ?? familyEntry(ref);
}

/**
 * Like `findCatalogEntry`, but a match on the last path segment alone counts only when exactly one
 * entry has that name (for deciding a config's identity, where a wrong guess misleads).
 */
export function findCatalogEntryStrict(ref: string): CatalogEntry | undefined {
  return lookup(ref, true) ?? familyEntry(ref);
}

/** The catalog's own entry only (no family fallback): for callers that compare entries. */
export function findListedEntry(ref: string): CatalogEntry | undefined {
  return lookup(ref, false);
}

/** Family descriptions, one object per reference (identity compares entries by object). */
const FAMILY_ENTRIES = new Map<string, CatalogEntry | undefined>();
function familyEntry(ref: string): CatalogEntry | undefined {
  const key = ref.trim();
  if (!FAMILY_ENTRIES.has(key)) FAMILY_ENTRIES.set(key, familyEntryFor(key));
  return FAMILY_ENTRIES.get(key);
}

/** Hub id, then ORG/NAME at the end of a path, then the bare name (unambiguous only, when strict). */
function lookup(ref: string, strict: boolean): CatalogEntry | undefined {
  const parts = normalizeRef(ref);
  if (parts.length === 0) return undefined;
  const direct = BY_ID.get(parts.join('/'));
  if (direct) return direct;
  if (parts.length >= 2) {
    const tail = BY_ID.get(parts.slice(-2).join('/'));
    if (tail) return tail;
  }
  const mn = modelNameOf(ref);
  if (mn?.hubId) {
    const cached = BY_ID.get(mn.hubId.toLowerCase());
    if (cached) return cached;
  }
  const names = [parts[parts.length - 1], mn?.name.toLowerCase()].filter((n): n is string => !!n);
  for (const name of names) {
    if (strict && AMBIGUOUS_NAMES.has(name)) return undefined;
    const hit = BY_NAME.get(name);
    if (hit) return hit;
  }
  return undefined;
}

function normalizeRef(ref: string): string[] {
  // Empty parts dropped below: trailing slashes need no pattern of their own.
  return ref
    .trim()
    .replace(/\\/g, '/')
    .toLowerCase()
    .split('/')
    .filter((p) => p !== '');
}

/**
 * The family assumption behind a resolver's `catalog:<id>` (undefined for a listed entry or another
 * source): how a finding says the model's values are its generation's, not its own config's.
 */
export function familyAssumptionOf(from: string | undefined): FamilyAssumption | undefined {
  if (!from?.startsWith('catalog:')) return undefined;
  return findCatalogEntry(from.slice('catalog:'.length))?.assumedFrom;
}

/**
 * How a message cites a trained context that came from the catalog (`catalog:<id>`): "per the
 * catalog entry <id>", or "assumed from the <generation> family" for a model known by its family.
 */
export function catalogCitation(source: string): string {
  const id = source.slice('catalog:'.length);
  const family = familyAssumptionOf(source);
  return family ? `assumed from the ${family.generation} family for ${id}` : `per the catalog entry ${id}`;
}

/** The entry as config.json text (what the config reader parses). */
export function catalogConfigText(e: CatalogEntry): string {
  return JSON.stringify({ _name_or_path: e.id, ...e.config }, null, 2);
}
