/**
 * Vendor recipes: the scaling a model's publisher documents (or ships) for running it past the
 * context it was trained at. Used without training, one that reaches the length is the preferred
 * rewrite, judged by its reach and its vendor's validation (advice/scalingVerdict.ts). Two sources:
 *  - the model's own shipped scaling, when the file lost it (a Llama-3.1 config without its
 *    `llama3` block is restored, not given a new scaling);
 *  - the model card's long-context section, for checkpoints that ship without scaling and document
 *    one (Qwen2/2.5/3: YaRN factor 4 over 32,768).
 */
import type { ModelRope } from '../config/modelRope';
import { CATALOG, CatalogEntry, findCatalogEntryStrict, namesOf } from '../config/catalog';
import { languageScope } from '../config/identity';

export interface VendorRecipe {
  /** The scaling block as the vendor writes it, modern spelling (`rope_type`). */
  scaling: { rope_type: 'yarn' | 'llama3' | 'linear' | 'dynamic'; factor: number; original_max_position_embeddings?: number; [k: string]: unknown };
  /** The longest context the recipe covers (YaRN: original × factor; llama3: the shipped context). */
  reach: number;
  /** "Qwen/Qwen2.5-7B-Instruct's model card" / "Meta's shipped config of meta-llama/Llama-3.1-8B". */
  who: string;
  /** Who validated it, short, for verdicts ("Qwen's model card", "meta-llama's shipped config"). */
  validatedBy: string;
  /** Where it is documented (URL or catalog source). */
  source: string;
  /** True when the recipe is the model's own shipped scaling that this file lost. */
  restores: boolean;
}

/**
 * Model cards that document a scaling for checkpoints shipped without one. Read from the cards'
 * "Processing Long Texts" sections: `"rope_scaling": {"factor": 4.0, "original_max_position_embeddings":
 * 32768, "type": "yarn"}` "to handle extensive inputs exceeding 32,768 tokens".
 */
const DOCUMENTED: { ids: RegExp; card: string; scaling: VendorRecipe['scaling'] }[] = [
  {
    ids: /^Qwen\/Qwen2-(7B|72B)(-Instruct)?$/,
    card: 'https://huggingface.co/Qwen/Qwen2-7B-Instruct (model card, Processing Long Texts: YaRN factor 4.0, original_max_position_embeddings 32768)',
    scaling: { rope_type: 'yarn', factor: 4, original_max_position_embeddings: 32768 },
  },
  {
    ids: /^Qwen\/Qwen2\.5-(7B|14B|32B|72B)(-Instruct)?$/,
    card: 'https://huggingface.co/Qwen/Qwen2.5-7B-Instruct (model card, Processing Long Texts: YaRN factor 4.0, original_max_position_embeddings 32768)',
    scaling: { rope_type: 'yarn', factor: 4, original_max_position_embeddings: 32768 },
  },
  {
    ids: /^Qwen\/Qwen3-(4B|8B|14B|32B|30B-A3B|235B-A22B)$/,
    card: 'https://huggingface.co/Qwen/Qwen3-8B (model card, Processing Long Texts: YaRN factor 4.0, original_max_position_embeddings 32768)',
    scaling: { rope_type: 'yarn', factor: 4, original_max_position_embeddings: 32768 },
  },
];

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The scaling block an entry shipped (language scope), modern spelling, when it stretches positions. */
export function shippedScaling(e: CatalogEntry): VendorRecipe['scaling'] | undefined {
  const scope = languageScope(e.config);
  const raw = isObject(scope['rope_scaling']) ? scope['rope_scaling'] : isObject(scope['rope_parameters']) ? scope['rope_parameters'] : undefined;
  if (!raw) return undefined;
  const t = String(raw['rope_type'] ?? raw['type'] ?? '').toLowerCase();
  if (t !== 'yarn' && t !== 'llama3' && t !== 'linear' && t !== 'dynamic') return undefined;
  const factor = raw['factor'];
  if (typeof factor !== 'number' || !(factor > 1)) return undefined;
  const out: Record<string, unknown> = { rope_type: t };
  for (const [k, v] of Object.entries(raw)) if (k !== 'type' && k !== 'rope_type' && k !== 'rope_theta') out[k] = v;
  return out as VendorRecipe['scaling'];
}

function reachOf(scaling: VendorRecipe['scaling'], shippedContext: number | undefined, trained: number): number {
  const o = scaling.original_max_position_embeddings ?? trained;
  const stretched = Math.floor(o * scaling.factor);
  // llama3/linear checkpoints ship their extended context as max_position_embeddings (Llama-3.2: 131,072 from 8,192 × 32).
  return scaling.rope_type === 'yarn' || shippedContext === undefined ? stretched : Math.max(shippedContext, scaling.rope_type === 'llama3' ? 0 : stretched);
}

function entryOf(rope: ModelRope): CatalogEntry | undefined {
  const id = rope.identity?.id;
  return id ? (findCatalogEntryStrict(id) ?? CATALOG.find((e) => namesOf(e).includes(id))) : undefined;
}

/**
 * The vendor's recipe for this model, when it has one and the file has no scaling of its own: the
 * shipped scaling it lost, else the model card's documented one. Undefined for unknown models.
 */
export function vendorRecipeOf(rope: ModelRope, trained: number): VendorRecipe | undefined {
  const e = entryOf(rope);
  if (!e) return undefined;
  const scope = languageScope(e.config);
  const ctx = typeof scope['max_position_embeddings'] === 'number' ? (scope['max_position_embeddings'] as number) : undefined;
  const shipped = shippedScaling(e);
  if (shipped) {
    const vendor = e.id.split('/')[0];
    return {
      scaling: shipped,
      reach: reachOf(shipped, ctx, trained),
      who: `${e.id}'s shipped config`,
      validatedBy: `${vendor}'s shipped config`,
      source: e.source,
      restores: true,
    };
  }
  const names = namesOf(e);
  const doc = DOCUMENTED.find((d) => names.some((n) => d.ids.test(n)));
  if (!doc) return familyRecipe(e, trained);
  const org = e.id.split('/')[0];
  return {
    scaling: doc.scaling,
    reach: reachOf(doc.scaling, undefined, trained),
    who: `${org}'s model card for ${e.id}`,
    validatedBy: `${org}'s model card`,
    source: doc.card,
    restores: false,
  };
}

/** A model known only by its family: the generation's documented recipe (families.json), said as the family's. */
function familyRecipe(e: CatalogEntry, trained: number): VendorRecipe | undefined {
  const r = e.assumedFrom?.recipe;
  const t = r?.scaling['rope_type'];
  if (!r || (t !== 'yarn' && t !== 'llama3' && t !== 'linear' && t !== 'dynamic') || typeof r.scaling['factor'] !== 'number') return undefined;
  const scaling = r.scaling as VendorRecipe['scaling'];
  return {
    scaling,
    reach: reachOf(scaling, undefined, trained),
    who: `the ${e.assumedFrom!.generation} family's model card`,
    validatedBy: `the ${e.assumedFrom!.generation} family's model card`,
    source: r.source,
    restores: false,
  };
}

/** Checkpoints of Meta's Llama 3 line, whose own long-context scaling is llama3 (Llama-3.1 shipped it). */
const LLAMA3_LINE = /(^|\/)(meta-)?llama-3([.-]|$)/i;

/**
 * The scaling the model's family uses for long context, ranked before generic ones (issue 33): the
 * type its catalog entry ships (llama3 for Llama-3.1/3.2/3.3, YaRN for DeepSeek), llama3 for the rest
 * of the Llama 3 line, else the type its vendor documents (Qwen's YaRN). Undefined for unknown models.
 */
export function familyScalingKind(rope: ModelRope): 'yarn' | 'llama3' | 'linear' | 'dynamic' | undefined {
  const e = entryOf(rope);
  if (!e) return undefined;
  const shipped = shippedScaling(e);
  if (shipped) return shipped.rope_type;
  const names = namesOf(e);
  if (names.some((n) => LLAMA3_LINE.test(n)) || /^Llama-3/.test(e.assumedFrom?.generation ?? '')) return 'llama3';
  return DOCUMENTED.find((d) => names.some((n) => d.ids.test(n)))?.scaling.rope_type ?? familyRecipe(e, 0)?.scaling.rope_type;
}
