/**
 * One analysis per (document version, settings, bound answers): diagnostics, code actions,
 * hovers, hints and `describe` all read the same cached FileAnalysis, so a version is parsed
 * and analysed once. An analysis that was waiting on bounds is redone when an answer arrives.
 */
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { fileNameOf } from './uri';
import type { CachedBoundOracle } from './boundOracle';
import type { RopeLensSettings } from './settings';
import type { RopeLensService } from '../shared/service/service';
import type { FileAnalysis } from '../shared/service/types';
import { sniff } from '../shared/service/sniff';
import { NOT_ANALYSED } from '../shared/service/analyze';
import { launchFormatOf, mentionsLaunchWord } from '../shared/launch/index';

/** Files bigger than this are not sniffed unless forced (a tokenizer.json can be tens of MB). */
export const MAX_SNIFF_BYTES = 1_000_000;

interface Entry {
  version: number;
  settings: RopeLensSettings;
  forced: boolean;
  epoch: number;
  analysis: FileAnalysis;
}

export class AnalysisCache {
  private readonly entries = new Map<string, Entry>();
  /** URIs the user asked to treat as model configs ("Check This File as a Model Config"). */
  private readonly forced = new Set<string>();
  /** Analyses run so far (tests and the bench read it to prove parse-once). */
  runs = 0;

  /** `analysed` hears every fresh analysis (the Hub fetcher collects the models it missed). */
  constructor(
    private readonly service: RopeLensService,
    private readonly oracle: CachedBoundOracle,
    private readonly analysed?: (uri: string, fileName: string, analysis: FileAnalysis) => void,
  ) {}

  get(doc: TextDocument, settings: RopeLensSettings): FileAnalysis {
    const forced = this.forced.has(doc.uri);
    const e = this.entries.get(doc.uri);
    if (
      e &&
      e.version === doc.version &&
      e.settings === settings &&
      e.forced === forced &&
      (e.analysis.pendingBounds.length === 0 || e.epoch === this.oracle.epoch)
    ) {
      return e.analysis;
    }
    const analysis = this.compute(doc, settings, forced);
    this.entries.set(doc.uri, { version: doc.version, settings, forced, epoch: this.oracle.epoch, analysis });
    this.analysed?.(doc.uri, fileNameOf(doc.uri), analysis);
    return analysis;
  }

  /** The cached analysis of exactly this version, if any (no work). */
  peek(uri: string, version: number): FileAnalysis | undefined {
    const e = this.entries.get(uri);
    return e && e.version === version ? e.analysis : undefined;
  }

  /** URIs whose last analysis is still waiting for a bound. */
  waitingForBounds(): string[] {
    return [...this.entries].filter(([, e]) => e.analysis.pendingBounds.length > 0).map(([uri]) => uri);
  }

  force(uri: string): void {
    this.forced.add(uri);
  }
  isForced(uri: string): boolean {
    return this.forced.has(uri);
  }

  delete(uri: string): void {
    this.entries.delete(uri);
  }
  clear(): void {
    this.entries.clear();
  }

  private compute(doc: TextDocument, settings: RopeLensSettings, forced: boolean): FileAnalysis {
    this.runs++;
    const text = doc.getText();
    if (!forced && text.length > MAX_SNIFF_BYTES) return tooLarge(text, fileNameOf(doc.uri), doc.languageId, settings);
    if (!settings.enable) return { kind: 'other', rope: null, training: null, diagnostics: [], pendingBounds: [] };
    return this.service.analyze(text, {
      fileName: fileNameOf(doc.uri),
      languageId: doc.languageId,
      asModelConfig: forced,
      settings: {
        variant: settings.transformersVersion,
        severity: settings.severity,
        preferredRewrite: settings.preferredRewrite,
        consumers: settings.consumers,
      },
    });
  }
}

/**
 * A file past the automatic-check limit is not parsed. If its name and first lines look like a
 * config (not a tokenizer.json or a dataset), one information at the top of the file says why it
 * was not checked and how to check it anyway, instead of leaving the user guessing.
 */
function tooLarge(text: string, fileName: string, languageId: string, settings: RopeLensSettings): FileAnalysis {
  const none: FileAnalysis = { kind: 'other', rope: null, training: null, diagnostics: [], pendingBounds: [] };
  const format = languageId === 'yaml' || /\.ya?ml$/i.test(fileName) ? 'yaml' : 'json';
  const severity = settings.severity[NOT_ANALYSED] ?? 'information';
  if (!settings.enable || severity === 'off') return none;
  const mb = (text.length / 1e6).toFixed(1);
  const head = text.slice(0, 256 * 1024);
  if (launchFormatOf(fileName, languageId, head)) {
    // A launch file this large is generated or binary; say why nothing is shown instead of guessing.
    if (!mentionsLaunchWord(head)) return none;
    none.diagnostics.push({
      code: NOT_ANALYSED,
      severity,
      message: `This file is ${mb} MB; RoPE Lens reads launch files up to ${MAX_SNIFF_BYTES / 1e6} MB as you type, so the commands in it were not checked. Run \`rope-lens check\` on it to check them.`,
      range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
      fixes: [],
    });
    return none;
  }
  if (sniff(head, fileName, format) === 'other') return none;
  none.diagnostics.push({
    code: NOT_ANALYSED,
    severity,
    message: `This file is ${mb} MB; RoPE Lens checks files up to ${MAX_SNIFF_BYTES / 1e6} MB as you type, so its RoPE settings were not checked. Run "RoPE Lens: Check This File as a Model Config" to check it anyway.`,
    range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
    fixes: [],
  });
  return none;
}
