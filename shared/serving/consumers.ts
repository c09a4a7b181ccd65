/**
 * The consumer table: one row per reader of a config.json, each computed by the module that holds
 * that consumer's other truths (transformers.ts for the library generations, the engine modules).
 */
import type { ModelRope } from '../config/modelRope';
import type { ParsedDocument } from '../document/configNode';
import type { ConsumerInput, ConsumerReading } from './consumer';
import { configView } from './consumer';
import { contextKeysOf } from './contextKeys';
import { transformers442Reading, transformers4Reading, transformers5Reading } from './transformers';
import { vllmLegacyReading, vllmReading } from './vllm';
import { sglangReading } from './sglang';
import { llamaCppReading } from './llamacpp';
import { tgiReading } from './tgi';
import { ollamaReading } from './ollama';
import { withEngineRotaryDim } from './rotaryDims';

export type { ConsumerReading, ConsumerId, ConsumerPackage, ConfigView } from './consumer';

/** In table order: library generations oldest first, then the engines. */
export const CONSUMER_READERS: readonly ((input: ConsumerInput) => ConsumerReading)[] = [
  transformers442Reading,
  transformers4Reading,
  transformers5Reading,
  vllmLegacyReading,
  vllmReading,
  sglangReading,
  llamaCppReading,
  tgiReading,
  ollamaReading,
];

/** How every consumer reads this model config (empty when the document has no object root). */
export function consumerTable(rope: ModelRope, doc: ParsedDocument): ConsumerReading[] {
  const view = configView(doc);
  if (!view) return [];
  const input: ConsumerInput = { rope, view, contextKeys: contextKeysOf(doc), text: doc.text };
  const rows = CONSUMER_READERS.map((read) => ({ ...withEngineRotaryDim(read(input), input), modelRotaryDim: rope.rotaryDim.value }));
  return inheritRefusal(rows);
}

/**
 * vLLM ≥ 0.24 builds the config through transformers 5 (it refuses 4.x), so a file 5.x's validation
 * refuses fails there first, with the same error.
 */
function inheritRefusal(rows: ConsumerReading[]): ConsumerReading[] {
  const v5 = rows.find((r) => r.consumer === 'transformers-5');
  if (v5?.status !== 'refuses') return rows;
  return rows.map((r) =>
    r.consumer === 'vllm' && r.status === 'reads'
      ? { ...r, status: 'refuses', error: v5.error, notes: [...r.notes, 'the config is built by transformers 5 (AutoConfig) before vLLM reads it'] }
      : r,
  );
}

/** Relative tolerance for comparing bases (files write 5e5 and 500000.0 alike). */
const SAME = 1e-9;

/**
 * What the file means: transformers 5's reading (the model reader's own semantics). When 5.x's
 * validation refuses the file, its row keeps those values, and they stay the file's meaning.
 */
export function intendedReading(rows: readonly ConsumerReading[]): ConsumerReading | undefined {
  const row = rows.find((r) => r.consumer === 'transformers-5');
  return row?.status === 'refuses' ? { ...row, status: 'reads' } : row;
}

/**
 * Whether a row rotates a different number of dimensions than the model's own config states (the
 * model reader's rotary dimension: what its code rotates). Rows whose count was not verified are
 * never judged; a refusing row is (it rotates so once the file is fixed to load).
 */
export function rotaryDimDiffers(row: ConsumerReading): boolean {
  return (
    row.rotaryDim !== undefined &&
    row.modelRotaryDim !== undefined &&
    row.rotaryDim !== row.modelRotaryDim &&
    (row.status === 'reads' || row.status === 'refuses')
  );
}

/** The differences between a consumer's reading and the file's meaning (base, scaling type, factor). */
export function misreadOf(row: ConsumerReading, intended: ConsumerReading): string[] {
  if (row.status !== 'reads' || intended.status !== 'reads') return [];
  const out: string[] = [];
  if (row.base !== null && intended.base !== null && Math.abs(row.base - intended.base) > SAME * Math.abs(intended.base)) out.push('base');
  // A type the consumer reads but cannot apply is a capability gap (serving notes), not a misread.
  const dropped = row.scalingDropped !== undefined && row.scalingDropped === intended.scalingType;
  // A null scaling cell is one not verified for this consumer: never judged.
  if (row.scalingType === null) return out;
  if (row.scalingType !== (intended.scalingType ?? 'none') && !dropped) out.push('scaling');
  else if (row.scalingType !== 'none' && !dropped && row.factor !== intended.factor) out.push('factor');
  return out;
}

/** Relative tolerance for attention factors: the readers compute in float64 from the same keys. */
const SAME_FACTOR = 1e-6;

/** Whether a row's attention factor differs from the file's meaning (both known, both loading). */
export function attentionFactorDiffers(row: ConsumerReading, intended: ConsumerReading | undefined): boolean {
  if (!intended || row === intended || row.status !== 'reads' || intended.status !== 'reads') return false;
  if (row.attentionFactor === null || intended.attentionFactor === null) return false;
  // A row that does not apply the file's scaling at all is a misread (consumer/silent-misread), not this.
  if (row.scalingType !== intended.scalingType) return false;
  return Math.abs(row.attentionFactor - intended.attentionFactor) > SAME_FACTOR * Math.abs(intended.attentionFactor);
}
