/**
 * `ropeLens/plan` and `ropeLens/plan/writeStage`: the context-extension plan for an open document
 * (a model config, or a training YAML whose base model is resolved offline as `rope-lens check`
 * does) and the edits that write one stage into a training YAML. The planner runs here, never in
 * the client or the webview.
 */
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { PlanDefaults, PlanParams, PlanResult, PlanWriteStageParams, PlanWriteStageResult } from '../shared/protocol/messages';
import type { RopeLensService } from '../shared/service/service';
import type { FileReader } from '../shared/config/resolve';
import { formatOf, parseDocumentText } from '../shared/document/parse';
import { trainedContextOf } from '../shared/config/trainedContext';
import { loadPlanModelFromText, type LoadedPlanModel } from '../shared/planner/modelSource';
import { buildPlan } from '../shared/planner/plan';
import { stageWriteEdits } from '../shared/planner/writeStage';
import type { Trainer } from '../shared/planner/types';
import { planViewData } from '../shared/inspector/planView';
import { PLAN_TRAINERS, type PlanTrainer } from '../shared/inspector/planTypes';
import { fileNameOf } from './uri';
import { enUS } from '../shared/core/format';

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));
const grouped = (n: number) => enUS(n);

function labelOf(uri: string): string {
  return fileNameOf(uri).split(/[\\/]/).slice(-2).join('/');
}

function formatOfDocument(doc: TextDocument, fileName: string): 'json' | 'yaml' {
  return formatOf(doc.languageId) ?? formatOf(fileName) ?? 'json';
}

function load(doc: TextDocument, service: RopeLensService, files: FileReader): { model: LoadedPlanModel; format: 'json' | 'yaml' } {
  const fileName = fileNameOf(doc.uri);
  const format = formatOfDocument(doc, fileName);
  return { model: loadPlanModelFromText(doc.getText(), fileName, format, files, service.resolver, labelOf(doc.uri)), format };
}

function writableTrainer(model: LoadedPlanModel, format: 'json' | 'yaml'): PlanTrainer | undefined {
  return format === 'yaml' && (PLAN_TRAINERS as readonly string[]).includes(model.tool ?? '') ? (model.tool as PlanTrainer) : undefined;
}

export function planDefaults(model: LoadedPlanModel, trainer: PlanTrainer | undefined): PlanDefaults {
  const T = trainedContextOf(model.rope).value;
  const L = model.trainingLength;
  return {
    model: model.label,
    from: model.from,
    trainedContext: T,
    ...(L !== undefined ? { trainingLength: L } : {}),
    target: L !== undefined && L > T ? L : 4 * T,
    ...(trainer ? { trainer } : {}),
  };
}

function isLength(v: unknown): v is number {
  return typeof v === 'number' && Number.isSafeInteger(v) && v > 0;
}

/** Checks the request's target and stages (a client is untrusted input); a reason when bad. */
function badLengths(target: unknown, stages: unknown): string | undefined {
  if (!isLength(target)) return `target must be a positive integer, got ${JSON.stringify(target)}`;
  if (stages !== undefined && (!Array.isArray(stages) || stages.length > 16 || !stages.every(isLength)))
    return 'stages must be a list of at most 16 positive integers';
  return undefined;
}

/** `files`: the platform's file reader (a training YAML's base model may be a local folder). */
export function planForDocument(doc: TextDocument, params: PlanParams, service: RopeLensService, files: FileReader): PlanResult {
  try {
    const { model, format } = load(doc, service, files);
    const trainer = writableTrainer(model, format);
    const defaults = planDefaults(model, trainer);
    if (params.target === undefined) return { ok: true, version: doc.version, defaults };
    const bad = badLengths(params.target, params.stages);
    if (bad) return { ok: false, message: bad };
    const plan = buildPlan(model, { target: params.target, stages: params.stages });
    const request = { target: params.target, ...(params.stages?.length ? { stages: params.stages } : {}) };
    const view = planViewData(plan, { label: params.label ?? labelOf(doc.uri), uri: doc.uri, request, trainer });
    return { ok: true, version: doc.version, defaults, view };
  } catch (e) {
    return { ok: false, message: message(e) };
  }
}

export function planWriteStage(doc: TextDocument, params: PlanWriteStageParams, service: RopeLensService, files: FileReader): PlanWriteStageResult {
  const bad = badLengths(params.target, params.stages);
  if (bad) return { ok: false, message: bad };
  try {
    const { model, format } = load(doc, service, files);
    const trainer = writableTrainer(model, format);
    if (!trainer) return { ok: false, message: 'Only an axolotl, LLaMA-Factory or torchtune YAML can take a stage; copy the snippet for other files.' };
    const plan = buildPlan(model, { target: params.target, stages: params.stages, trainers: [trainer as Trainer] });
    const stage = Number.isInteger(params.stage) ? plan.stages[params.stage] : undefined;
    if (!stage) return { ok: false, message: `no stage ${String(params.stage)} in a plan of ${plan.stages.length}` };
    const snippet = stage.snippets[trainer];
    if (!snippet) return { ok: false, message: stage.snippetNotes[trainer] ?? `No ${trainer} snippet for ${grouped(stage.length)} tokens.` };
    const parsed = parseDocumentText(doc.getText(), 'yaml');
    const { edits } = stageWriteEdits(parsed, trainer, snippet);
    const title = `Write stage ${params.stage + 1} (${grouped(stage.length)} tokens) into ${labelOf(doc.uri).split('/').pop()}`;
    return { ok: true, version: doc.version, title, edits };
  } catch (e) {
    return { ok: false, message: message(e) };
  }
}
