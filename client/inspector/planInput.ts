/**
 * The input boxes of "Plan context extension…": the target context (default from the server: a
 * training YAML's sequence length, else 4 × the trained context) and optional stages. Accepts
 * `131072`, `131_072`, `128k` (1024-based), as `rope-lens plan` does.
 */
import * as vscode from 'vscode';
import { parseContextLength, parseStageList, stagesProblem, targetProblem } from '../../shared/planner/lengthInput';
import { parsePlanRequest } from '../../shared/inspector/messages';
import type { PlanViewRequest } from '../../shared/inspector/planTypes';
import type { PlanDefaults } from '../../shared/protocol/messages';

const grouped = (n: number) => n.toLocaleString('en-US');

export async function askPlanRequest(d: PlanDefaults): Promise<PlanViewRequest | undefined> {
  const T = d.trainedContext;
  const rawTarget = await vscode.window.showInputBox({
    title: 'RoPE Lens: Plan context extension (1/2)',
    prompt: `Target context for ${d.model} (trained at ${grouped(T)} tokens): 131072, 131_072 or 128k`,
    value: String(d.target),
    validateInput: (v) => targetProblem(v, T),
    ignoreFocusOut: true,
  });
  if (rawTarget === undefined) return undefined;
  const target = parseContextLength(rawTarget);
  if (!target.ok) return undefined;
  const rawStages = await vscode.window.showInputBox({
    title: 'RoPE Lens: Plan context extension (2/2)',
    prompt: `Optional stages before ${grouped(target.value)}, comma-separated (e.g. ${grouped(Math.max(T * 2, Math.round(target.value / 4)))}); empty: one stage`,
    value: '',
    validateInput: (v) => stagesProblem(v, T, target.value),
    ignoreFocusOut: true,
  });
  if (rawStages === undefined) return undefined;
  const stages = parseStageList(rawStages);
  return stages.ok && stages.value.length ? { target: target.value, stages: stages.value } : { target: target.value };
}

/** `executeCommand(planContextExtension, uri, {target, stages?})` skips the input boxes (tests, links). */
export function readPlanOptions(options: unknown): PlanViewRequest | undefined {
  const r = parsePlanRequest(options);
  return r.ok ? r.value : undefined;
}
