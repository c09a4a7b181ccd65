/**
 * The analysis service: one pure function from a document's text to its RoPE description,
 * findings and fixes, shared by the CLI, the language server and the Inspector.
 *   sniff (cheap, on the raw text) → parse once → model config | training config | other
 *   → rules → fixes verified by re-analysing the edited text → severity settings.
 */
import { formatOf, parseDocumentText, DocumentFormat } from '../document/parse';
import type { ParsedDocument } from '../document/configNode';
import type { BoundOracle, FileAnalysis, Finding, Severity, TrainingDescription } from './types';
import type { RopeType, TransformersVariant } from '../rope/spec';
import type { Located, ModelRope } from '../config/modelRope';
import { describeScaling, isModelConfig, readModelRope } from '../config/modelConfig';
import { readTrainingConfig, TrainingConfig } from '../config/training';
import { LLAMA_FACTORY_SCALINGS } from '../config/trainers/llamaFactory';
import { BaseModelResolver, ResolvedBaseModel, catalogResolver } from '../config/resolve';
import type { RuleContext } from '../rules/context';
import { RULES } from '../rules/index';
import { DocumentEditor } from '../fixes/documentEditor';
import { applyTextEdits } from '../fixes/textEdits';
import { sniff } from './sniff';
import { analyzeServingConfig } from './analyzeServing';

export interface AnalyzeOptions {
  fileName: string;
  languageId?: string;
  variant?: TransformersVariant;
  oracle: BoundOracle;
  /** Offline base-model resolution for training configs; defaults to the built-in catalog. */
  resolver?: BaseModelResolver;
  /** Per-code severity, or 'off' to drop the code. */
  severityOverrides?: Record<string, Severity | 'off' | string>;
  /** Re-analyse each fix's result and drop fixes that do not remove their finding (default: for texts up to 64 KB). */
  verifyFixes?: boolean;
}

/** Above this size fixes are not re-verified by default (see analyzeText). */
export const VERIFY_FIXES_MAX_CHARS = 64 * 1024;

const OTHER: () => FileAnalysis = () => ({ kind: 'other', rope: null, training: null, diagnostics: [], pendingBounds: [] });

export function analyzeText(text: string, opts: AnalyzeOptions): FileAnalysis {
  const analysis = analyzeOnce(text, opts);
  // Verification re-analyses the whole text once per fix: cheap for real configs (a few KB),
  // too slow as-you-type for giant files, whose fixes stay as the (round-trip-tested) builders made them.
  const verify = opts.verifyFixes ?? text.length <= VERIFY_FIXES_MAX_CHARS;
  if (verify && analysis.diagnostics.some((d) => d.fixes.length)) verifyFixes(text, analysis, opts);
  applySeverity(analysis, opts.severityOverrides);
  return analysis;
}

/** The parsed document and analysis, for callers that also need the tree (hover, inspector). */
export function analyzeOnce(text: string, opts: AnalyzeOptions): FileAnalysis & { document?: ParsedDocument } {
  try {
    return analyzeUnguarded(text, opts);
  } catch {
    // Any file, however odd, yields an answer: nothing known rather than a crash.
    return OTHER();
  }
}

function analyzeUnguarded(text: string, opts: AnalyzeOptions): FileAnalysis & { document?: ParsedDocument } {
  const format: DocumentFormat | undefined = formatOf(opts.languageId ?? '') ?? formatOf(opts.fileName);
  if (!format || sniff(text, opts.fileName, format) === 'other') return OTHER();
  let doc: ParsedDocument;
  try {
    doc = parseDocumentText(text, format);
  } catch {
    return OTHER();
  }
  if (!doc.root && doc.problems.length) return notAnalysed(doc);
  if (!doc.root || doc.root.kind !== 'object') return OTHER();
  const base = { oracle: opts.oracle, variant: opts.variant ?? 'v5', pending: [] as FileAnalysis['pendingBounds'], editor: new DocumentEditor(doc), doc };

  if (isModelConfig(doc)) {
    const rope = safe(() => readModelRope(doc));
    if (!rope) return { ...OTHER(), kind: 'model-config', document: doc };
    const ctx: RuleContext = { ...base, fileKind: 'model-config', model: rope };
    return { kind: 'model-config', rope, training: null, diagnostics: runRules(ctx), pendingBounds: dedupe(base.pending), document: doc };
  }
  const serving = safe(() => analyzeServingConfig(doc, { fileName: opts.fileName, resolver: opts.resolver ?? catalogResolver }));
  if (serving) return serving;
  const training = safe(() => readTrainingConfig(doc));
  if (!training) return OTHER();
  const resolver = opts.resolver ?? catalogResolver;
  const refs = [...training.baseModelCandidates, ...(training.baseModel ? [training.baseModel.value] : [])];
  const resolved = training.ownModel ? undefined : safe(() => resolver.resolve(refs, opts.fileName));
  const effective = training.ownModel ?? (resolved ? effectiveModel(training, resolved) : overridesOnly(training));
  const ctx: RuleContext = { ...base, fileKind: 'training-config', training, resolved, effective, model: training.ownModel };
  const description: TrainingDescription = {
    tool: training.tool,
    resolvedFrom: resolved?.from ?? null,
  };
  if (training.sequenceLength) description.sequenceLength = training.sequenceLength.value;
  const ref = training.baseModel?.value ?? training.baseModelCandidates[0];
  if (ref) description.baseModel = ref;
  return { kind: 'training-config', rope: effective ?? null, training: description, diagnostics: runRules(ctx), pendingBounds: dedupe(base.pending), document: doc };
}

export const NOT_ANALYSED = 'parse/not-analysed';

/**
 * The sniffer found RoPE keys but the parser refused the whole document (an alias bomb, a file it
 * cannot read at all): one finding at the first problem says so, rather than silence. Ordinary
 * syntax errors never get here — the tolerant parsers still give a root and the rest is analysed.
 */
function notAnalysed(doc: ParsedDocument): FileAnalysis {
  const p = doc.problems[0];
  const reason = p.message.replace(/^(YAML|JSON): /, '').replace(/;? *not analysed\.?$/, '');
  const range = doc.lines.rangeOf(Math.min(p.offset, doc.text.length), Math.max(0, Math.min(p.length, doc.text.length - p.offset)));
  return {
    ...OTHER(),
    diagnostics: [{ code: NOT_ANALYSED, severity: 'warning', message: `RoPE Lens could not read this file, so its RoPE settings were not checked: ${reason}`, range, fixes: [] }],
  };
}

function runRules(ctx: RuleContext): Finding[] {
  const out: Finding[] = [];
  for (const rule of RULES) {
    try {
      out.push(...rule.check(ctx));
    } catch {
      // A rule that trips over an odd value must not take the others down.
    }
  }
  return out;
}

function safe<T>(f: () => T): T | undefined {
  try {
    return f();
  } catch {
    return undefined;
  }
}

/** Values from the base model's file lose their nodes (they point into another document). */
function detach<T>(l: Located<T>, from: string): Located<T> {
  return { value: l.value, key: l.key, note: l.note ?? `from ${from}` };
}

/** The base model as the trainer will configure it: its config with the YAML's RoPE overrides. */
export function effectiveModel(t: TrainingConfig, resolved: ResolvedBaseModel): ModelRope {
  const r = resolved.rope;
  const from = resolved.from;
  const out: ModelRope = {
    base: detach(r.base, from),
    headDim: detach(r.headDim, from),
    rotaryDim: detach(r.rotaryDim, from),
    partialRotaryFactor: detach(r.partialRotaryFactor, from),
    contextLength: detach(r.contextLength, from),
  };
  if (r.modelType) out.modelType = r.modelType;
  if (r.originalContextLength) out.originalContextLength = detach(r.originalContextLength, from);
  if (r.scaling) out.scaling = { type: r.scaling.type, key: r.scaling.key, rawType: r.scaling.rawType && detach(r.scaling.rawType, from), params: Object.fromEntries(Object.entries(r.scaling.params).map(([k, v]) => [k, detach(v, from)])) };
  if (r.slidingWindow) out.slidingWindow = detach(r.slidingWindow, from);
  applyOverrides(out, t);
  if (t.scalingByName) {
    // LLaMA-Factory: factor = ceil(cutoff_len / mpe), original = mpe, new mpe = mpe × factor.
    const mpe = r.contextLength.value;
    const L = t.sequenceLength?.value ?? 0;
    const type = t.scalingByName.value.trim().toLowerCase();
    if (L > mpe && LLAMA_FACTORY_SCALINGS.includes(type)) {
      const factor = Math.ceil(L / mpe);
      out.scaling = {
        type: type as RopeType,
        key: 'rope_scaling', rawType: t.scalingByName,
        params: {
          rope_type: t.scalingByName,
          factor: { value: factor, note: `LLaMA-Factory: ceil(${L} / ${mpe})` },
          original_max_position_embeddings: { value: mpe, note: 'LLaMA-Factory: the model\'s max_position_embeddings' },
        },
      };
      out.originalContextLength = { value: mpe, note: 'LLaMA-Factory: the model\'s max_position_embeddings' };
      out.contextLength = { value: mpe * factor, note: `LLaMA-Factory: max_position_embeddings × ${factor}` };
    }
  }
  return out;
}

/** The YAML's RoPE overrides (and axolotl's deprecated top-level scaling, which is what the user meant). */
function applyOverrides(out: ModelRope, t: TrainingConfig): void {
  const o = t.overrides;
  if (o.base) out.base = o.base;
  if (o.contextLength) out.contextLength = o.contextLength;
  if (o.scalingCleared) { delete out.scaling; delete out.originalContextLength; }
  const scaling = o.scaling ?? (t.deprecatedScaling?.kind === 'object' ? describeScaling(t.deprecatedScaling) : undefined);
  if (scaling) {
    out.scaling = scaling;
    const orig = scaling.params['original_max_position_embeddings'];
    if (orig && typeof orig.value === 'number') out.originalContextLength = orig as Located<number>;
    else delete out.originalContextLength;
  }
}

/**
 * The base model is unknown but the YAML sets RoPE keys itself: report what it sets; the unknown
 * values are NaN (null in JSON) and every rule skips them.
 */
function overridesOnly(t: TrainingConfig): ModelRope | undefined {
  const o = t.overrides;
  if (!o.base && !o.contextLength && !o.scaling && t.deprecatedScaling?.kind !== 'object') return undefined;
  const unknown = (what: string): Located<number> => ({ value: NaN, note: `${what}: base model not found offline` });
  const out: ModelRope = {
    base: unknown('rope_theta'), headDim: unknown('head_dim'), rotaryDim: unknown('rotary dim'),
    partialRotaryFactor: unknown('partial_rotary_factor'), contextLength: unknown('max_position_embeddings'),
  };
  applyOverrides(out, t);
  return out;
}

function dedupe(p: FileAnalysis['pendingBounds']): FileAnalysis['pendingBounds'] {
  const seen = new Set<string>();
  return p.filter((x) => {
    const k = `${x.length}/${x.headDim}/${x.base ?? ''}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/**
 * Keeps only fixes that, applied, give a text that still parses as well as before and no longer
 * has the finding (one fewer finding with that code). Fixes whose check needs bounds not yet known
 * are kept (the server re-runs once they are).
 */
function verifyFixes(text: string, analysis: FileAnalysis & { document?: ParsedDocument }, opts: AnalyzeOptions): void {
  const doc = analysis.document;
  if (!doc) return;
  const count = (a: FileAnalysis, code: string) => a.diagnostics.filter((d) => d.code === code).length;
  for (const d of analysis.diagnostics) {
    const before = count(analysis, d.code);
    d.fixes = d.fixes.filter((fix) => {
      let next: string;
      try {
        next = applyTextEdits(text, doc.lines, fix.edits);
      } catch {
        return false;
      }
      const re = analyzeOnce(next, { ...opts, verifyFixes: false });
      // Only lmax questions decide whether a finding is present; b* only colours the message.
      if (re.pendingBounds.some((p) => p.base !== undefined)) return true;
      const parsedOk = (re.document?.problems.length ?? 0) <= doc.problems.length;
      return parsedOk && re.kind === analysis.kind && count(re, d.code) < before;
    });
    if (d.fixes.length && !d.fixes.some((f) => f.preferred) && d.fixes.length === 1) d.fixes[0].preferred = true;
  }
}

function applySeverity(a: FileAnalysis, overrides: AnalyzeOptions['severityOverrides']): void {
  if (!overrides) return;
  const valid = new Set(['error', 'warning', 'information', 'hint']);
  a.diagnostics = a.diagnostics.filter((d) => {
    const o = overrides[d.code];
    if (o === 'off') return false;
    if (o && valid.has(o)) d.severity = o as Severity;
    return true;
  });
}

