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
import { chooseRobustBase } from '../shared/fixes/robustChoice';
import { INSPECTOR_THRESHOLD_PROOF_MAX_LENGTH, type InspectorThresholdProof, mapRange } from '../shared/inspector/mapResolution';
import { boundFigure, enUS } from '../shared/core/format';
import { THRESHOLD_PROOF_MAX_LENGTH } from '../shared/bstar/provenThreshold';

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
        ? chooseRobustBase(
            b / 0.9,
            d,
            target,
            (x) => oracle.lmax(x, d, target),
            (c) => oracle.robust(c, d, target),
          )?.base
        : undefined;
    // Chart (d): the engine's map from below b* to past the threshold, around the base the chart is drawn for.
    // The threshold's proof comes first where it is affordable, so the map reaches past the proven threshold.
    const proofWanted = exactWanted && target <= INSPECTOR_THRESHOLD_PROOF_MAX_LENGTH && oracle.provesThresholds;
    const askProof = () => (proofWanted && b !== undefined && t !== undefined ? oracle.thresholdProof(target, d) : undefined);
    const chartBase = params.controls?.base ?? input.spec.base;
    const askMap = (proof: InspectorThresholdProof | undefined) => {
      if (!exactWanted || b === undefined || t === undefined || (proofWanted && proof === undefined)) return undefined;
      const r = mapRange(b, Math.max(t, proof?.located ? proof.provenAbove : t), chartBase);
      return oracle.validityMap(r.from, r.to, d, target);
    };
    let robust = ladder();
    let proof = askProof();
    let map = askMap(proof);
    const settled = () => robust !== undefined && map !== undefined && (!proofWanted || proof !== undefined);
    // Each round answers the rungs asked so far; a few rounds settle the ladder.
    for (let round = 0; params.waitForExact && !settled() && oracle.pending > 0 && round < 32; round++) {
      await oracle.idle();
      robust = ladder();
      proof = askProof();
      map = askMap(proof);
    }
    if (b !== undefined) {
      exact.bstar = b;
      exact.threshold = proof?.located ? proof.provenAbove : t;
      exact.robust = robust;
      exact.map = map;
      exact.note =
        t !== undefined ? `b* exact (certified float64 sweep); ${thresholdNote(t, proof, proofWanted, target)}` : 'b* exact (certified float64 sweep).';
    }
    const applicable = a.kind === 'model-config' && a.rope && a.document ? applicableRewrites(a.document, a.rope, target, variant) : [];
    const data = buildInspectorData({ ...input, applicable }, params.controls, { exact });
    const exactPending = exactWanted && (b === undefined || t === undefined || (!settled() && oracle.pending > 0)) && !oracle.failure(`b*(${target}, ${d})`);
    return { ok: true, version: doc.version, data, exactPending };
  } catch (e) {
    return { ok: false, message: message(e) };
  }
}

/** What the threshold marker is: proven (located by neighbourhood proofs) or the grid's estimate. */
function thresholdNote(estimate: number, proof: InspectorThresholdProof | undefined, proofWanted: boolean, target: number): string {
  if (proof?.located) {
    return `threshold proven: every base above ${boundFigure(proof.provenAbove)} is valid (${proof.proofs} ±10% neighbourhood proofs), ${boundFigure(proof.invalidAt)} just below is not (the 2% grid's estimate: ${boundFigure(estimate)}).`;
  }
  if (proof) return `threshold ${boundFigure(estimate)}: an estimate from a 2% grid; proven only above ${boundFigure(proof.provenAbove)}.`;
  if (proofWanted) return `threshold ${boundFigure(estimate)}: an estimate from a 2% grid (its proof is running).`;
  return target <= INSPECTOR_THRESHOLD_PROOF_MAX_LENGTH
    ? `threshold ${boundFigure(estimate)}: an estimate from a 2% grid (this host does not prove it; \`rope-lens bound --threshold\` does).`
    : `threshold ${boundFigure(estimate)}: an estimate from a 2% grid (proved in the panel up to ${enUS(INSPECTOR_THRESHOLD_PROOF_MAX_LENGTH)} tokens; \`rope-lens bound --threshold\` proves it up to ${enUS(THRESHOLD_PROOF_MAX_LENGTH)}).`;
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
