/**
 * One analysis per (document version, settings, bound answers): diagnostics, code actions,
 * hovers, hints and `describe` all read the same cached FileAnalysis, so a version is parsed
 * and analysed once. An analysis that was waiting on bounds is redone when an answer arrives.
 */
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { fileNameOf } from './uri';
import { analyze } from './analysis';
import type { CachedBoundOracle } from './boundOracle';
import type { RopeLensSettings } from './settings';
import type { FileAnalysis } from '../shared/service/types';

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

  constructor(private readonly oracle: CachedBoundOracle) {}

  get(doc: TextDocument, settings: RopeLensSettings): FileAnalysis {
    const forced = this.forced.has(doc.uri);
    const e = this.entries.get(doc.uri);
    if (e && e.version === doc.version && e.settings === settings && e.forced === forced &&
        (e.analysis.pendingBounds.length === 0 || e.epoch === this.oracle.epoch)) {
      return e.analysis;
    }
    const analysis = this.compute(doc, settings, forced);
    this.entries.set(doc.uri, { version: doc.version, settings, forced, epoch: this.oracle.epoch, analysis });
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

  force(uri: string): void { this.forced.add(uri); }
  isForced(uri: string): boolean { return this.forced.has(uri); }

  delete(uri: string): void { this.entries.delete(uri); }
  clear(): void { this.entries.clear(); }

  private compute(doc: TextDocument, settings: RopeLensSettings, forced: boolean): FileAnalysis {
    this.runs++;
    const text = doc.getText();
    if (!forced && text.length > MAX_SNIFF_BYTES) {
      return { kind: 'other', rope: null, training: null, diagnostics: [], pendingBounds: [] };
    }
    return analyze(text, {
      fileName: fileNameOf(doc.uri),
      languageId: doc.languageId,
      settings,
      oracle: this.oracle,
      forceModelConfig: forced,
    });
  }
}
