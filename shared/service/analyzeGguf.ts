/**
 * A GGUF judged like its config: the header metadata is mapped back to config.json keys, the same
 * analysis runs on them, and each finding names the GGUF key it is about (a binary file has no
 * line to point at, and no text fix: the remedies are llama.cpp flags or a new conversion).
 */
import { analyzeText } from './analyze';
import type { BoundOracle, Finding } from './types';
import type { Located, ModelRope } from '../config/modelRope';
import type { TransformersVariant } from '../rope/spec';
import { readModelRope } from '../config/modelConfig';
import { parseJsonDocument } from '../document/parseJson';
import { trainedContextOf } from '../config/trainedContext';
import { CONTEXT_EXTENDED } from '../rules/contextExtended';
import { GgufConfig, GgufMetadata, ggufConfigText, ggufKeyAtLine, ggufToConfig } from '../gguf/metadata';
import { fmt } from '../core/format';
import { findCatalogEntryStrict } from '../config/catalog';

export const GGUF_CONTEXT_BEYOND_TRAINED = 'gguf/context-beyond-trained';
export const GGUF_NOT_A_MODEL = 'gguf/no-architecture';

export interface GgufFinding {
  code: string;
  severity: Finding['severity'];
  message: string;
  /** The explanation behind the headline, when there is one. */
  detail?: string;
  /** The GGUF metadata key the finding is about, when one is. */
  key: string | null;
}

export interface GgufAnalysis {
  kind: 'gguf';
  rope: ModelRope | null;
  gguf: { architecture: string | null; name: string | null; hubRef: string | null; scalingType: string | null };
  /** The config.json keys the header stands for. */
  config: Record<string, unknown> | null;
  diagnostics: GgufFinding[];
}

/** Findings about keys a GGUF cannot hold: longrope factor lists live in tensors, not in the header. */
const LONGROPE_TENSOR_CODES = new Set(['rope/scaling-missing-key', 'rope/longrope-factor-length']);

/** Quantization and precision tags a GGUF file name adds to the model's name (`-Q4_K_M`, `.f16`, `-IQ3_XS`). */
const QUANT_TAG = /[-._](i?q\d[\w]*|f16|bf16|f32|fp16|fp8)$/i;
/** A file name is at most 255 characters (NAME_MAX); a longer "stem" is not one and keeps its tags. */
const MAX_FILE_NAME = 255;

/** `stem` without its trailing quantization tags, one at a time (`(tag)+$` backtracks exponentially on `_q1_q1…!`). */
function withoutQuantTags(stem: string): string {
  if (stem.length > MAX_FILE_NAME) return stem;
  for (let m = QUANT_TAG.exec(stem); m; m = QUANT_TAG.exec(stem)) stem = stem.slice(0, m.index);
  return stem;
}

/**
 * The names the user gave a GGUF, strongest first: the hub id convert_hf_to_gguf.py recorded
 * (general.organization/basename…), general.name, then the file name without its quantization
 * tag. The first that names a catalog model is its identity; they win over any fingerprint.
 */
function namedIdentity(g: GgufConfig, fileName: string | undefined): { name: string; key: string } | undefined {
  if (g.hubRef) return undefined; // already the config's _name_or_path
  const file = fileName?.split(/[\\/]/).pop();
  const stem = file === undefined ? undefined : withoutQuantTags(file.replace(/\.gguf$/i, ''));
  const candidates: [string | undefined, string][] = [
    [g.name, 'general.name'],
    [stem, 'file name'],
  ];
  for (const [raw, key] of candidates) {
    const name = raw?.trim().replace(/\s+/g, '-');
    if (name && findCatalogEntryStrict(name)) return { name, key };
  }
  return undefined;
}

export function analyzeGguf(
  m: GgufMetadata,
  opts: { oracle: BoundOracle; variant?: TransformersVariant; log?: (message: string) => void; fileName?: string },
): GgufAnalysis {
  const g0 = ggufToConfig(m);
  if (!g0) {
    return {
      kind: 'gguf',
      rope: null,
      config: null,
      gguf: { architecture: null, name: null, hubRef: null, scalingType: null },
      diagnostics: [
        {
          code: GGUF_NOT_A_MODEL,
          severity: 'information',
          message: 'The GGUF header has no general.architecture: not a model file (vocabulary or adapter only?), nothing to check.',
          key: 'general.architecture',
        },
      ],
    };
  }
  const named = namedIdentity(g0, opts.fileName);
  // The analysis reads the name as the config's _name_or_path; the reported config stays the header's.
  const g: GgufConfig = named ? { ...g0, config: { _name_or_path: named.name, ...g0.config }, keyOf: { ...g0.keyOf, _name_or_path: named.key } } : g0;
  const text = ggufConfigText(g);
  const analysis = analyzeText(text, { fileName: 'config.json', oracle: opts.oracle, variant: opts.variant, log: opts.log, verifyFixes: false });
  const rope = withGgufKeys(g, analysis.rope ?? readModelRope(parseJsonDocument(text)));
  const diagnostics: GgufFinding[] = analysis.diagnostics
    .filter((d) => !(g.scalingType === 'longrope' && LONGROPE_TENSOR_CODES.has(d.code)))
    .map(
      (d) =>
        (d.code === CONTEXT_EXTENDED && rope ? contextBeyondTrained(g, rope) : null) ?? {
          code: d.code,
          severity: d.severity,
          message: d.message,
          ...(d.detail ? { detail: d.detail } : {}),
          key: ggufKeyAtLine(g, d.range.start.line) ?? null,
        },
    );
  return {
    kind: 'gguf',
    rope,
    config: g0.config,
    gguf: { architecture: g.arch, name: g.name ?? null, hubRef: g.hubRef ?? null, scalingType: g.scalingType ?? null },
    diagnostics,
  };
}

function withGgufKeys(g: GgufConfig, rope: ModelRope | undefined): ModelRope | null {
  if (!rope) return null;
  const rename = <T>(l: Located<T> | undefined): Located<T> | undefined => (l && l.key && g.keyOf[l.key] ? { ...l, key: g.keyOf[l.key] } : l);
  const out: ModelRope = {
    ...rope,
    base: rename(rope.base)!,
    contextLength: rename(rope.contextLength)!,
    headDim: rename(rope.headDim)!,
    rotaryDim: rename(rope.rotaryDim)!,
  };
  if (rope.originalContextLength) out.originalContextLength = rename(rope.originalContextLength);
  return out;
}

/**
 * advice.md situation 3 in a GGUF's terms: the config rule found context_length above the trained
 * context with no scaling; for a GGUF the remedy is llama.cpp flags or a new conversion, not a
 * text edit, so the finding is worded for that and names the GGUF key.
 */
function contextBeyondTrained(g: GgufConfig, rope: ModelRope): GgufFinding | null {
  const ctx = rope.contextLength.value;
  const trained = trainedContextOf(rope).value;
  if (!(ctx > trained)) return null;
  const s = Number((ctx / trained).toFixed(6));
  const who = rope.identity ? rope.identity.id : 'the model';
  return {
    code: GGUF_CONTEXT_BEYOND_TRAINED,
    severity: 'warning',
    message: `llama.cpp and Ollama extrapolate every position past ${fmt(trained)}: the GGUF has no RoPE scaling.`,
    detail: `${g.arch}.context_length is ${fmt(ctx)}, above the ${fmt(trained)} ${who} was trained at. Run llama-server with --rope-scaling yarn --rope-scale ${s} --yarn-orig-ctx ${trained}, or convert from a config with rope_scaling {"rope_type": "yarn", "factor": ${s}, "original_max_position_embeddings": ${trained}}.`,
    key: `${g.arch}.context_length`,
  };
}
