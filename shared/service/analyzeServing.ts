/**
 * Serving configs (vLLM `--config` YAML): the vLLM engine module reads the file into the same
 * request a `vllm serve` line makes (serving/vllmConfigFile.ts), and that request is judged like
 * any launch (analyzeLaunch.ts judgeRequest: the model resolved offline, the engine's effect with
 * the overrides applied, the one rule set), with the config-file editor writing the YAML's keys.
 * Called from analyze.ts.
 */
import type { ParsedDocument } from '../document/configNode';
import type { BaseModelResolver } from '../config/resolve';
import type { TransformersVariant } from '../rope/spec';
import { readVllmConfigFile } from '../serving/vllmConfigFile';
import { ConfigFileEditor } from '../fixes/requestEditor';
import { valueRange } from '../document/configNode';
import type { FileAnalysis } from './types';
import { judgeRequest } from './analyzeLaunch';

export interface ServingDescription {
  engine: 'vllm';
  model: string;
  resolvedFrom: string | null;
  maxModelLen: number | null;
  derivedMaxLen: number | null;
  trainedContext: number | null;
  /** Why the config was not judged (its model was not found offline); no finding says it (see LaunchDescription.unjudged). */
  unjudged?: string;
  /** As LaunchDescription.notFoundOffline. */
  notFoundOffline?: true;
  /** The config's override scaling is live and takes the place of the model's own (see LaunchDescription). */
  replacesModelScaling?: true;
}

export function analyzeServingConfig(
  doc: ParsedDocument,
  opts: { fileName: string; resolver: BaseModelResolver; variant?: TransformersVariant; log?: (message: string) => void },
): (FileAnalysis & { document: ParsedDocument }) | undefined {
  const read = readVllmConfigFile(doc);
  if (!read) return undefined;
  const editor = new ConfigFileEditor(doc, read.paths, read.separator);
  const model = doc.root?.children?.find((c) => c.key === 'model');
  const where = model ? valueRange(doc, model) : undefined;
  const j = judgeRequest(read.request, editor, { fileName: opts.fileName, resolver: opts.resolver, variant: opts.variant ?? 'v5', log: opts.log }, where);
  const ctx = j.context;
  const description: ServingDescription = {
    engine: 'vllm',
    model: read.request.model?.value ?? '',
    resolvedFrom: ctx.resolved?.from ?? null,
    maxModelLen: read.request.length?.value ?? null,
    derivedMaxLen: ctx.effect?.derived ?? null,
    trainedContext: ctx.trained ?? null,
  };
  if (j.description.unjudged) description.unjudged = j.description.unjudged;
  if (j.description.notFoundOffline) description.notFoundOffline = true;
  if (j.description.replacesModelScaling) description.replacesModelScaling = true;
  return {
    kind: 'serving-config',
    rope: ctx.effect?.rope ?? null,
    training: null,
    serving: description,
    diagnostics: j.diagnostics,
    pendingBounds: [],
    document: doc,
  };
}
