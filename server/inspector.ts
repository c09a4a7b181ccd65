/**
 * `ropeLens/inspector/data` and `ropeLens/inspector/fix`: the Inspector panel's data and its Apply
 * edits, computed here with the window's one bound engine and the document's settings
 * (transformersVersion included), so the panel shows what hovers and diagnostics say.
 */
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { InspectorDataParams, InspectorDataResult, InspectorFixParams, InspectorFixResult } from '../shared/protocol/messages';
import type { RopeLensService } from '../shared/service/service';
import type { RopeLensSettings } from '../shared/protocol/settings';
import { buildInspectorData, defaultControls, type BuildOptions } from '../shared/inspector/build';
import { inspectorInputFromAnalysis } from '../shared/inspector/fromConfig';
import { applicableRewrites, fixForControls } from '../shared/inspector/apply';
import { parseControls } from '../shared/inspector/messages';
import type { CachedBoundOracle } from './boundOracle';
import { fileNameOf } from './uri';
import { chooseValidBase } from '../shared/fixes/chooseBase';
import { mapRange } from '../shared/inspector/mapResolution';

/** Longest target for which the exact b* is computed for the panel (seconds at 128k). */
export const INSPECTOR_EXACT_MAX_LENGTH = 262144;

function labelOf(uri: string): string {
  return fileNameOf(uri).split(/[\\/]/).slice(-2).join('/');
}

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

function read(doc: TextDocument, service: RopeLensService, settings: RopeLensSettings) {
  return service.describe(doc.getText(), {
    fileName: fileNameOf(doc.uri),
    languageId: doc.languageId,
    asModelConfig: true,
    settings: { variant: settings.transformersVersion },
  });
}

export async function inspectorData(
  doc: TextDocument,
  params: InspectorDataParams,
  service: RopeLensService,
  oracle: CachedBoundOracle,
  settings: RopeLensSettings,
): Promise<InspectorDataResult> {
  try {
    const variant = settings.transformersVersion;
    const a = read(doc, service, settings);
    const input = inspectorInputFromAnalysis(a, params.label ?? labelOf(doc.uri), doc.uri, variant, params.controls?.targetLength);
    const target = params.controls?.targetLength ?? defaultControls(input).targetLength;
    const d = input.spec.rotaryDim;
    const exactWanted = Number.isInteger(target) && target <= INSPECTOR_EXACT_MAX_LENGTH;
    if (exactWanted) {
      // Asking schedules the computation in the server's engine; the answers land in its cache.
      oracle.bstar(target, d);
      oracle.threshold(target, d);
      if (params.waitForExact) await oracle.idle();
    }
    const exact: BuildOptions['exact'] = {};
    const b = oracle.peek('bstar', target, d);
    const t = oracle.peek('threshold', target, d);
    // The base the fixes would suggest: the ladder from b*/0.9, each rung proven over its ±10% (asked of the engine).
    const ladder = () =>
      exactWanted && b !== undefined
        ? chooseValidBase(
            b / 0.9,
            (x) => oracle.lmax(x, d, target),
            (c) => oracle.robust(c, d, target),
          )
        : undefined;
    // Chart (d): the engine's map from below b* to past the threshold, around the base the chart is drawn for.
    const chartBase = params.controls?.base ?? input.spec.base;
    const askMap = () => {
      if (!exactWanted || b === undefined || t === undefined) return undefined;
      const r = mapRange(b, t, chartBase);
      return oracle.validityMap(r.from, r.to, d, target);
    };
    let robust = ladder();
    let map = askMap();
    // Each round answers the rungs asked so far; a few rounds settle the ladder.
    for (let round = 0; params.waitForExact && (robust === undefined || map === undefined) && oracle.pending > 0 && round < 32; round++) {
      await oracle.idle();
      robust = ladder();
      map = askMap();
    }
    if (b !== undefined) {
      exact.bstar = b;
      exact.threshold = t;
      exact.robust = robust;
      exact.map = map;
      exact.note = t !== undefined ? 'b* exact (certified float64 sweep); threshold from the b* engine.' : 'b* exact (certified float64 sweep).';
    }
    const applicable = a.kind === 'model-config' && a.rope && a.document ? applicableRewrites(a.document, a.rope, target, variant) : [];
    const data = buildInspectorData({ ...input, applicable }, params.controls, { exact });
    const exactPending =
      exactWanted &&
      (b === undefined || t === undefined || ((robust === undefined || map === undefined) && oracle.pending > 0)) &&
      !oracle.failure(`b*(${target}, ${d})`);
    return { ok: true, version: doc.version, data, exactPending };
  } catch (e) {
    return { ok: false, message: message(e) };
  }
}

export function inspectorFix(doc: TextDocument, params: InspectorFixParams, service: RopeLensService, settings: RopeLensSettings): InspectorFixResult {
  const c = parseControls(params.controls);
  if (!c.ok) return { ok: false, message: c.reason };
  try {
    const a = read(doc, service, settings);
    if (a.kind !== 'model-config' || !a.rope || !a.document) {
      return { ok: false, message: 'Apply writes model configs; for a training config, apply the rewrite in its base model config or use the quick fixes.' };
    }
    const fix = fixForControls(a.document, a.rope, c.value, settings.transformersVersion);
    if (!fix || fix.edits.length === 0) return { ok: false, message: `No edit writes “${c.value.method}” at ${c.value.targetLength} tokens into this file.` };
    return { ok: true, version: doc.version, title: fix.title, edits: fix.edits };
  } catch (e) {
    return { ok: false, message: message(e) };
  }
}
