/**
 * The RoPE Lens service: configured once per front-end (the language server, the CLI, the
 * Inspector's host), it owns parsing, the model and training readers, the rules, the fixes and the
 * bound oracle. Front-ends pass a document and, where settings are per resource, the settings that
 * apply to it; they never assemble the pipeline themselves, so they cannot disagree.
 * (In the spirit of vscode-json-languageservice's getLanguageService.)
 */
import type { BaseModelResolver } from '../config/resolve';
import { catalogResolver } from '../config/resolve';
import type { ModelRope } from '../config/modelRope';
import type { TransformersVariant } from '../rope/spec';
import type { BoundOracle, FileAnalysis, FixKind, Severity } from './types';
import { analyzeOnce, analyzeText } from './analyze';
import { ropeFacts, type RopeFacts } from './ropeFacts';
import type { ParsedDocument } from '../document/configNode';
import type { GgufMetadata } from '../gguf/metadata';
import { analyzeGguf, type GgufAnalysis } from './analyzeGguf';
import type { WorkspaceFacts } from '../serving/pins';
import type { ShellParser, SourcedFile } from '../launch/types';
import { ignoredBy, type ProjectConfig, type ProjectConfigSource } from './projectConfig';
import { applySuppressions, projectSeverity, projectSilences, readDirectives } from './suppress';

/** What a user may set per document (the editor's `ropeLens.*` settings, the CLI's flags). */
export interface AnalysisSettings {
  /** transformers generation whose formulas apply where they differ. */
  variant: TransformersVariant;
  /** Per rule code: a severity, or 'off' to drop the finding. */
  severity: Record<string, Severity | 'off'>;
  /** The rewrite the fixes mark preferred when a finding offers it. */
  preferredRewrite: 'auto' | FixKind;
  /** Consumers the user says load these files (`ropeLens.consumers`: `transformers==4.42.4`, `vllm`…). */
  consumers?: string[];
}

export const DEFAULT_ANALYSIS_SETTINGS: AnalysisSettings = { variant: 'v5', severity: {}, preferredRewrite: 'auto' };

export interface RopeLensServiceOptions extends Partial<AnalysisSettings> {
  /** Bound answers: synchronous in the CLI, cached and computed off-thread in the server. */
  oracle: BoundOracle;
  /** Offline base-model lookup for training configs (folders, HF cache, catalog); default: catalog only. */
  resolver?: BaseModelResolver;
  /** Errors swallowed to keep answering go here (server output channel, CLI --verbose). */
  log?: (message: string) => void;
  /** Re-check fixes by re-analysing (default: texts up to 64 KB). */
  verifyFixes?: boolean;
  /** Pinned consumers in the workspace (requirements, lock files); the Node one is shared/node/consumerPins. */
  workspace?: WorkspaceFacts;
  /**
   * The shell grammar for launch scripts, loaded asynchronously by the Node layer
   * (shared/node/shellParser.ts); a getter, so a server can start before it has loaded.
   */
  shellParser?: () => ShellParser | undefined;
  /**
   * The project file (`.rope-lens.yaml`) that applies to a file, found upward from it; the Node one
   * is shared/node/projectConfig.ts. Without it only suppression comments apply.
   */
  project?: ProjectConfigSource;
  /**
   * Reads a file a shell script sources (`source ../setup.sh`): `name` as the script wrote it,
   * looked up beside `scriptPath` and in its workspace (shared/node/sourcedFiles.ts). Without it,
   * sourced files are unknown (said in a note).
   */
  sourcedFiles?: (scriptPath: string, name: string) => SourcedFile | undefined;
}

/** One document to analyse. */
export interface DocumentInput {
  fileName: string;
  languageId?: string;
  /** "Check this file as a model config": past the sniffer, whatever the file is called. */
  asModelConfig?: boolean;
  /** Settings for this document (per-resource settings), over the service's defaults. */
  settings?: Partial<AnalysisSettings>;
}

export interface RopeLensService {
  readonly oracle: BoundOracle;
  readonly resolver: BaseModelResolver;
  /** Settings used where a document brings none. */
  readonly defaults: AnalysisSettings;
  /** Findings with verified fixes, severities and the preferred rewrite applied. */
  analyze(text: string, input: DocumentInput): FileAnalysis;
  /** The description alone, with the parsed tree (no fix verification, no settings applied). */
  describe(text: string, input: DocumentInput): FileAnalysis & { document?: ParsedDocument };
  /** A GGUF file's header metadata, judged like the config it was converted from. */
  /** `fileName`: the GGUF's path, whose name (quantization tag aside) may name a catalog model. */
  analyzeGguf(metadata: GgufMetadata, settings?: Partial<AnalysisSettings>, fileName?: string): GgufAnalysis;
  /** The numbers hovers, hints, `describe` and the Inspector show for a RoPE setup. */
  facts(rope: ModelRope, settings?: Partial<AnalysisSettings>): RopeFacts;
  /** Settings with the service's defaults filled in. */
  settingsFor(settings?: Partial<AnalysisSettings>): AnalysisSettings;
  /** The project file that applies to a file, if any. */
  projectFor(fileName: string): ProjectConfig | undefined;
}

export function createRopeLensService(options: RopeLensServiceOptions): RopeLensService {
  const defaults: AnalysisSettings = {
    variant: options.variant ?? DEFAULT_ANALYSIS_SETTINGS.variant,
    severity: options.severity ?? {},
    preferredRewrite: options.preferredRewrite ?? DEFAULT_ANALYSIS_SETTINGS.preferredRewrite,
  };
  const resolver = options.resolver ?? catalogResolver;
  const settingsFor = (s?: Partial<AnalysisSettings>): AnalysisSettings => ({ ...defaults, ...s });
  /** The workspace scans this file's lookups are still waiting for (the server's, asynchronous): said on the analysis. */
  const withPendingScans = <A extends FileAnalysis>(analysis: A, fileName: string): A => {
    try {
      const pending = options.workspace?.pendingFor?.(fileName);
      if (pending?.length) analysis.pendingScans = pending;
    } catch (e) {
      options.log?.(`reading the workspace scans for ${fileName} failed: ${(e as Error).message}`);
    }
    return analysis;
  };
  const projectFor = (fileName: string): ProjectConfig | undefined => {
    try {
      return options.project?.configFor(fileName);
    } catch (e) {
      options.log?.(`reading the project file for ${fileName} failed: ${(e as Error).message}`);
      return undefined;
    }
  };
  return {
    oracle: options.oracle,
    resolver,
    defaults,
    settingsFor,
    analyze(text, input) {
      const project = projectFor(input.fileName);
      const ignored = project && ignoredBy(project, input.fileName);
      if (project && ignored) {
        const none: FileAnalysis = {
          kind: 'other',
          rope: null,
          training: null,
          diagnostics: [],
          pendingBounds: [],
          ignoredBy: `${project.path}: ignore ${ignored}`,
        };
        return withPendingScans(none, input.fileName);
      }
      const s = settingsFor(input.settings);
      const consumers = project?.consumers.length ? [...(s.consumers ?? []), ...project.consumers] : s.consumers;
      const analysis = analyzeText(text, {
        fileName: input.fileName,
        languageId: input.languageId,
        asModelConfig: input.asModelConfig,
        variant: s.variant,
        severityOverrides: s.severity,
        preferredRewrite: s.preferredRewrite,
        oracle: options.oracle,
        resolver,
        log: options.log,
        verifyFixes: options.verifyFixes,
        workspace: options.workspace,
        consumers,
        shellParser: options.shellParser?.(),
        sourcedFiles: options.sourcedFiles,
      });
      // Suppressions in one place, for every front-end: comments in the file, then the project file.
      const json = /^jsonc?$/i.test(input.languageId ?? '') || /\.jsonc?$/i.test(input.fileName);
      const directives = readDirectives(text, !json);
      const { kept, suppressed } = applySuppressions(analysis.diagnostics, {
        directives,
        project,
        commandRanges: analysis.launches?.map((l) => l.range),
      });
      // The project file's severities, where the user's own settings set none for the code.
      for (const f of kept) {
        const level = s.severity[f.code] === undefined ? projectSeverity(project, f.code) : undefined;
        if (level) f.severity = level;
      }
      analysis.diagnostics = kept;
      if (suppressed.length) analysis.suppressed = suppressed;
      const problems = [...directives.problems, ...(project?.problems ?? []).map((message) => ({ message }))];
      if (problems.length) analysis.configProblems = problems;
      return withPendingScans(analysis, input.fileName);
    },
    describe(text, input) {
      const s = settingsFor(input.settings);
      const analysis = analyzeOnce(text, {
        fileName: input.fileName,
        languageId: input.languageId,
        asModelConfig: input.asModelConfig,
        variant: s.variant,
        oracle: options.oracle,
        resolver,
        log: options.log,
        verifyFixes: false,
        workspace: options.workspace,
        consumers: s.consumers,
        shellParser: options.shellParser?.(),
        sourcedFiles: options.sourcedFiles,
      });
      return withPendingScans(analysis, input.fileName);
    },
    analyzeGguf(metadata, settings, fileName) {
      const a = analyzeGguf(metadata, { oracle: options.oracle, variant: settingsFor(settings).variant, log: options.log, fileName });
      // A binary file has no comments: only the project file silences or re-grades its findings.
      const project = fileName ? projectFor(fileName) : undefined;
      if (!project) return a;
      a.diagnostics = a.diagnostics.filter((d) => projectSilences(project, d.code) === undefined);
      for (const d of a.diagnostics) d.severity = projectSeverity(project, d.code) ?? d.severity;
      return a;
    },
    projectFor,
    facts(rope, settings) {
      return ropeFacts(rope, options.oracle, settingsFor(settings).variant);
    },
  };
}
