/**
 * The analysis service: one pure function from a document's text to its RoPE description,
 * findings and fixes, shared by the CLI, the language server and the Inspector.
 *   sniff (cheap, on the raw text) → parse once → model config | training config | other
 *   → rules → fixes verified by re-analysing the edited text → severity settings.
 */
import { dedupePending } from './pendingBounds';
import { formatOf, parseDocumentText, DocumentFormat } from '../document/parse';
import type { ParsedDocument } from '../document/configNode';
import type { BoundOracle, FileAnalysis, Finding, FixKind, Severity, TrainingDescription } from './types';
import type { TransformersVariant } from '../rope/spec';
import { isModelConfig, readModelConfig } from '../config/modelConfig';
import { readTrainingConfig } from '../config/training';
import { effectiveModel, overridesOnly } from '../config/effectiveModel';
import { BaseModelResolver, catalogResolver } from '../config/resolve';
import type { RuleContext } from '../rules/context';
import { RULES } from '../rules/index';
import { DocumentEditor } from '../fixes/documentEditor';
import { LineIndex } from '../document/positions';
import { sniff } from './sniff';
import { analyzeServingConfig } from './analyzeServing';
import { consumerTable } from '../serving/consumers';
import { configView } from '../serving/consumer';
import { pinsFromSetting, type WorkspaceFacts } from '../serving/pins';
import { trainerTransformersLine } from '../rules/trainerTransformers';
import { launchFormatOf, readLaunchFile } from '../launch/index';
import type { ShellParser, SourcedFile } from '../launch/types';
import { analyzeLaunchFile } from './analyzeLaunch';
import { verifyFixes } from './verifyFixes';
import { brokenContinuationFindings, invalidJsonFindings, refusedConfigJson } from './readerFindings';
import { argumentListNotReadFinding, pythonNotReadFinding, trainingNotReadFinding } from './notRead';
import { trimTrailing } from '../core/text';

export interface AnalyzeOptions {
  fileName: string;
  languageId?: string;
  variant?: TransformersVariant;
  oracle: BoundOracle;
  /** Offline base-model resolution for training configs; defaults to the built-in catalog. */
  resolver?: BaseModelResolver;
  /** Per-code severity, or 'off' to drop the code. */
  severityOverrides?: Record<string, Severity | 'off' | string>;
  /**
   * Re-analyse each fix's result and drop fixes that do not remove their finding, bring a new warning
   * or error, or leave a file its consumer parses less well (default: for texts up to 64 KB).
   */
  verifyFixes?: boolean;
  /**
   * "Check this file as a model config": skip the sniffer (names never configs, no RoPE keys) and
   * read the document as a model config first, whatever its name.
   */
  asModelConfig?: boolean;
  /** Which rewrite to mark preferred where a finding offers it; 'auto' keeps the analysis' own choice. */
  preferredRewrite?: 'auto' | FixKind;
  /** Where errors the analysis swallows to keep answering are reported (server output, CLI --verbose). */
  log?: (message: string) => void;
  /** Pinned consumers beside and above the file (requirements, lock files); injected, Node reads files. */
  workspace?: WorkspaceFacts;
  /** The `ropeLens.consumers` setting: specifiers such as `transformers==4.42.4`. */
  consumers?: readonly string[];
  /** The shell grammar for launch scripts (loaded by the Node layer); without it shell scripts are not read. */
  shellParser?: ShellParser;
  /** Files a shell script sources, found beside it or in its workspace (RopeLensServiceOptions.sourcedFiles). */
  sourcedFiles?: (scriptPath: string, name: string) => SourcedFile | undefined;
}

/** Above this size fixes are not re-verified by default (see analyzeText). */
export const VERIFY_FIXES_MAX_CHARS = 64 * 1024;

const YAML_LAUNCH_FORMATS: ReadonlySet<string> = new Set(['compose', 'kubernetes', 'skypilot', 'dstack', 'helm-values']);

const OTHER: () => FileAnalysis = () => ({ kind: 'other', rope: null, training: null, diagnostics: [], pendingBounds: [] });

export function analyzeText(text: string, opts: AnalyzeOptions): FileAnalysis {
  const analysis = analyzeOnce(text, opts);
  // Verification re-analyses the whole text once per fix: cheap for real configs (a few KB),
  // too slow as-you-type for giant files, whose fixes stay as the (round-trip-tested) builders made them.
  const verify = opts.verifyFixes ?? text.length <= VERIFY_FIXES_MAX_CHARS;
  if (verify && analysis.diagnostics.some((d) => d.fixes.length)) {
    const readLaunch = (t: string) => readLaunchFile(t, opts.fileName, { shell: opts.shellParser, languageId: opts.languageId });
    verifyFixes({
      text,
      lines: analysis.document?.lines ?? new LineIndex(text),
      analysis,
      reanalyse: (t) => analyzeOnce(t, { ...opts, verifyFixes: false }),
      consumer: { fileName: opts.fileName, languageId: opts.languageId, readLaunch },
    });
  }
  applySeverity(analysis, opts.severityOverrides);
  if (opts.preferredRewrite && opts.preferredRewrite !== 'auto') {
    for (const f of analysis.diagnostics) preferKind(f, opts.preferredRewrite);
  }
  return analysis;
}

/** The parsed document and analysis, for callers that also need the tree (hover, inspector). */
export function analyzeOnce(text: string, opts: AnalyzeOptions): FileAnalysis & { document?: ParsedDocument } {
  try {
    return analyzeUnguarded(text, opts);
  } catch (e) {
    // Any file, however odd, yields an answer: nothing known rather than a crash (and a log line).
    opts.log?.(`analysis of ${opts.fileName} failed: ${describeError(e)}`);
    return OTHER();
  }
}

function analyzeUnguarded(text: string, opts: AnalyzeOptions): FileAnalysis & { document?: ParsedDocument } {
  const asModel = opts.asModelConfig === true;
  // Launch files first: shell scripts, Dockerfiles, compose/Kubernetes YAML, Modelfiles. The
  // adapters sniff for a known program before parsing, so a build script costs a regex.
  const launchFormat = asModel ? undefined : launchFormatOf(opts.fileName, opts.languageId, text);
  if (launchFormat) {
    const launch = analyzeLaunch(text, opts);
    if (launch) return launch;
    // A YAML launch file (compose, Kubernetes, a task file) that starts no engine is still YAML: classified as usual below.
    if (!YAML_LAUNCH_FORMATS.has(launchFormat)) return { ...OTHER(), diagnostics: argumentListNotReadFinding(text, opts.fileName) };
  }
  const format: DocumentFormat | undefined = formatOf(opts.languageId ?? '') ?? formatOf(opts.fileName);
  // A Python script that trains or serves is said (launch/not-read); RoPE Lens reads no Python.
  if (!format)
    return { ...OTHER(), diagnostics: asModel ? [] : [...pythonNotReadFinding(text, opts.fileName), ...argumentListNotReadFinding(text, opts.fileName)] };
  if (!asModel && sniff(text, opts.fileName, format) === 'other')
    return { ...OTHER(), diagnostics: format === 'json' ? refusedConfigJson(text, opts.fileName) : [] };
  const safe = <T>(what: string, f: () => T): T | undefined => guarded(what, f, opts);
  let doc: ParsedDocument;
  try {
    doc = parseDocumentText(text, format);
  } catch (e) {
    opts.log?.(`parsing ${opts.fileName} failed: ${describeError(e)}`);
    // What Python's json refuses is still said as transformers would say it.
    return { ...OTHER(), diagnostics: format === 'json' ? invalidJsonFindings(text) : [] };
  }
  if (!doc.root && doc.problems.length) {
    const refused = doc.format === 'json' ? invalidJsonFindings(text, doc.lines) : [];
    return refused.length ? { ...OTHER(), diagnostics: refused } : notAnalysed(doc);
  }
  if (!doc.root || doc.root.kind !== 'object') return OTHER();
  const base = { oracle: opts.oracle, variant: opts.variant ?? 'v5', pending: [] as FileAnalysis['pendingBounds'], editor: new DocumentEditor(doc), doc };

  if (asModel || isModelConfig(doc)) {
    const reading = safe('reading the model config', () => readModelConfig(doc, { filePath: opts.fileName }));
    // transformers loads config.json with Python's json: what it refuses is an error first of all.
    const unreadable = doc.format === 'json' ? invalidJsonFindings(text, doc.lines) : [];
    // No rotary embedding at all: say so once; no base is invented, no rule runs.
    if (reading?.noRope) return { ...OTHER(), kind: 'model-config', noRope: reading.noRope, diagnostics: unreadable, document: doc };
    const rope = reading?.rope;
    if (rope) {
      const consumers = safe('reading the file as each consumer does', () => consumerTable(rope, doc)) ?? [];
      const pins = [...(safe('reading the workspace pins', () => opts.workspace?.pinsFor(opts.fileName)) ?? []), ...pinsFromSetting(opts.consumers)];
      for (const note of opts.workspace?.notesFor?.(opts.fileName) ?? []) opts.log?.(note);
      const ctx: RuleContext = { ...base, fileKind: 'model-config', model: rope, consumers, pins };
      return {
        kind: 'model-config',
        rope,
        training: null,
        consumers,
        ...savedWithOf(doc),
        diagnostics: [...unreadable, ...runRules(ctx, opts.log)],
        pendingBounds: dedupePending(base.pending),
        document: doc,
      };
    }
    // Asked to read it as a model config but no RoPE setting is there: classify it as usual.
    if (!asModel) return { ...OTHER(), kind: 'model-config', diagnostics: unreadable, document: doc };
  }
  const serving = safe('reading the serving config', () =>
    analyzeServingConfig(doc, { fileName: opts.fileName, resolver: opts.resolver ?? catalogResolver, variant: opts.variant, log: opts.log }),
  );
  if (serving) return serving;
  const training = safe('reading the training config', () => readTrainingConfig(doc));
  // A base model and a trainer's keys that no reader took: said once (training/not-read), never silent.
  if (!training) return { ...OTHER(), diagnostics: trainingNotReadFinding(doc.root, text), document: doc };
  const resolver = opts.resolver ?? catalogResolver;
  const refs = [...training.baseModelCandidates, ...(training.baseModel ? [training.baseModel.value] : [])];
  const resolved = training.ownModel ? undefined : safe('resolving the base model', () => resolver.resolve(refs, opts.fileName));
  const pins = [...(safe('reading the workspace pins', () => opts.workspace?.pinsFor(opts.fileName)) ?? []), ...pinsFromSetting(opts.consumers)];
  // The transformers line the trainer runs decides which overrides land (axolotl on transformers 5).
  const transformers = trainerTransformersLine(training.tool, pins).line;
  const effective = training.ownModel ?? (resolved ? effectiveModel(training, resolved, { transformers }) : overridesOnly(training));
  const ctx: RuleContext = { ...base, fileKind: 'training-config', training, resolved, effective, model: training.ownModel, pins };
  const description: TrainingDescription = {
    tool: training.tool,
    resolvedFrom: resolved?.from ?? null,
  };
  if (training.sequenceLength) description.sequenceLength = training.sequenceLength.value;
  const ref = training.baseModel?.value ?? training.baseModelCandidates[0];
  if (ref) description.baseModel = ref;
  if (training.continuesFrom) description.continuesFrom = training.continuesFrom.value;
  return {
    kind: 'training-config',
    rope: effective ?? null,
    training: description,
    diagnostics: runRules(ctx, opts.log),
    pendingBounds: dedupePending(base.pending),
    document: doc,
  };
}

function analyzeLaunch(text: string, opts: AnalyzeOptions): FileAnalysis | undefined {
  const sourced = opts.sourcedFiles;
  const readSourced = sourced ? (name: string) => sourced(opts.fileName, name) : undefined;
  const read = (t: string) => readLaunchFile(t, opts.fileName, { shell: opts.shellParser, languageId: opts.languageId, readSourced });
  const file = read(text);
  if (!file) return undefined;
  // Fixes are verified by analyzeText, as for every other kind of file.
  const analysis = analyzeLaunchFile(file, text, {
    fileName: opts.fileName,
    resolver: opts.resolver ?? catalogResolver,
    oracle: opts.oracle,
    variant: opts.variant ?? 'v5',
    log: opts.log,
  });
  if (file.format === 'shell') analysis.diagnostics.unshift(...brokenContinuationFindings(text, file.invocations));
  return analysis;
}

export const NOT_ANALYSED = 'parse/not-analysed';

/** A parser message without its closing "; not analysed." (the reason is said in its own words). */
function withoutNotAnalysed(message: string): string {
  const m = /not analysed\.?$/.exec(message);
  return m ? trimTrailing(message.slice(0, m.index), ' ').replace(/;$/, '') : message;
}

/**
 * The sniffer found RoPE keys but the parser refused the whole document (an alias bomb, a file it
 * cannot read at all): one finding at the first problem says so, rather than silence. Ordinary
 * syntax errors never get here — the tolerant parsers still give a root and the rest is analysed.
 */
function notAnalysed(doc: ParsedDocument): FileAnalysis {
  const p = doc.problems[0];
  const reason = withoutNotAnalysed(p.message.replace(/^(YAML|JSON): /, ''));
  const range = doc.lines.rangeOf(Math.min(p.offset, doc.text.length), Math.max(0, Math.min(p.length, doc.text.length - p.offset)));
  return {
    ...OTHER(),
    diagnostics: [
      {
        code: NOT_ANALYSED,
        severity: 'warning',
        message: 'RoPE Lens could not read this file, so its RoPE settings were not checked.',
        detail: reason,
        range,
        fixes: [],
      },
    ],
  };
}

/** The file's transformers_version, as a fact to show (what saved it), when it has one. */
function savedWithOf(doc: ParsedDocument): { savedWith?: string } {
  const v = configView(doc)?.transformersVersion;
  return v ? { savedWith: v } : {};
}

function runRules(ctx: RuleContext, log: AnalyzeOptions['log']): Finding[] {
  const out: Finding[] = [];
  for (const rule of RULES) {
    try {
      out.push(...rule.check(ctx));
    } catch (e) {
      // A rule that trips over an odd value must not take the others down; say which one did.
      log?.(`rule ${rule.codes.join('/')} failed on ${ctx.doc.format} document: ${describeError(e)}`);
    }
  }
  return out;
}

function guarded<T>(what: string, f: () => T, opts: AnalyzeOptions): T | undefined {
  try {
    return f();
  } catch (e) {
    opts.log?.(`${what} in ${opts.fileName} failed: ${describeError(e)}`);
    return undefined;
  }
}

/** What went wrong, in one line: the error's name and message, never a stack trace (it reaches `--verbose` and the output channel). */
export function describeError(e: unknown): string {
  return e instanceof Error ? `${e.name}: ${e.message}` : String(e);
}

/** Marks the fix of the user's preferred kind as preferred, when the finding offers one. */
function preferKind(finding: Finding, kind: FixKind): void {
  if (!finding.fixes.some((x) => x.kind === kind)) return;
  for (const fix of finding.fixes) fix.preferred = fix.kind === kind;
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
