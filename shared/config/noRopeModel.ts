/**
 * A model the catalog knows to have no rotary embedding (BERT/XLM-RoBERTa encoders and rerankers,
 * GPT-2, Nemotron-H, Kimi-K3): no base-model hit for the resolver (there is no RoPE to read), but
 * every front-end must say "it has no RoPE", not "not found". `serve` and `check` both ask here,
 * and both word it with `noRopeSentence`, so the two commands give one answer.
 */
import { parseJsonDocument } from '../document/parseJson';
import { CatalogEntry, catalogConfigText, findCatalogEntry } from './catalog';
import { readModelConfig } from './modelConfig';

export interface NoRopeModel {
  /** The reference as written. */
  ref: string;
  entry: CatalogEntry;
  /** The catalog's config text (what `serve` describes). */
  text: string;
  /** Why it has no RoPE, as the model-config reader says it for that config. */
  why: string;
}

/** The first of `refs` that names a catalog model without RoPE. */
export function noRopeModelOf(refs: readonly string[]): NoRopeModel | undefined {
  for (const ref of refs) {
    const entry = ref.trim() ? findCatalogEntry(ref.trim()) : undefined;
    if (!entry?.noRope) continue;
    const text = catalogConfigText(entry);
    const why = readModelConfig(parseJsonDocument(text))?.noRope ?? entry.note ?? 'no rotary position embedding in its architecture';
    return { ref, entry, text, why };
  }
  return undefined;
}

/** "X has no rotary position embedding (why)": the words every command uses before its own consequence. */
export function noRopeSentence(name: string, why: string): string {
  return `${name} has no rotary position embedding (${why})`;
}
