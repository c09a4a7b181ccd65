/**
 * Serving configs (vLLM `--config` YAML): the model is resolved offline like a training config's
 * base model, the YAML's hf-overrides are applied as vLLM applies them, and the serving rules
 * judge max-model-len against the length vLLM derives. Called from analyze.ts.
 */
import type { ParsedDocument } from '../document/configNode';
import { child } from '../document/configNode';
import type { Located, ModelRope, ScalingDescription } from '../config/modelRope';
import type { BaseModelResolver, ResolvedBaseModel } from '../config/resolve';
import { describeScaling } from '../config/modelConfig';
import { VllmServingConfig, readVllmServingConfig } from '../config/serving/vllmYaml';
import { FLOAT_KEYS, ScalingFacts, factsOfObject, jsonText, scalingFacts, trainedContextOf } from '../serving/common';
import { vllmDerivedMaxLen } from '../serving/vllm';
import { DocumentEditor } from '../fixes/documentEditor';
import { PlainObject, PlainValue, float } from '../fixes/render';
import type { FileAnalysis, Finding, TextEdit } from './types';
import type { ServingRuleContext } from '../rules/serving/context';
import { SERVING_RULES } from '../rules/serving/index';

export interface ServingDescription {
  engine: 'vllm';
  model: string;
  resolvedFrom: string | null;
  maxModelLen: number | null;
  derivedMaxLen: number | null;
  trainedContext: number | null;
}

/** Values read from the resolved model's file lose their nodes (they point into another document). */
function detach<T>(l: Located<T>, from: string): Located<T> {
  return { value: l.value, key: l.key, note: l.note ?? `from ${from}` };
}

/** A scaling object given as plain values (a JSON-string override): keys without positions. */
function plainScaling(value: Record<string, unknown>, key: string, at?: Located<unknown>['node']): ScalingDescription {
  const params: Record<string, Located<unknown>> = {};
  for (const [k, v] of Object.entries(value)) params[k] = { value: v, key: `${key}.${k}`, node: at };
  const facts = factsOfObject({} as ModelRope, value, key);
  const rawType = value['rope_type'] ?? value['type'];
  const desc: ScalingDescription = { key, type: facts.type === 'none' ? 'default' : facts.type, params };
  if (typeof rawType === 'string') desc.rawType = { value: rawType, key: `${key}.rope_type` };
  return desc;
}

/** The override object vLLM applies (hf-overrides, else what a removed rope-scaling option meant). */
function overrideScaling(s: VllmServingConfig): { value: Record<string, unknown>; description: ScalingDescription } | undefined {
  const hf = s.hfOverrides;
  for (const key of ['rope_scaling', 'rope_parameters']) {
    const v = hf?.value[key];
    if (!v || typeof v !== 'object' || Array.isArray(v)) continue;
    const node = hf!.isString ? undefined : child(hf!.node, key);
    const description = node?.kind === 'object' ? describeScaling(node) : plainScaling(v as Record<string, unknown>, `hf-overrides.${key}`, hf!.node);
    return { value: v as Record<string, unknown>, description };
  }
  const removed = s.removed.find((r) => /scaling/.test(r.key) && r.value && typeof r.value === 'object');
  if (removed) {
    const description = removed.node.kind === 'object' ? describeScaling(removed.node) : plainScaling(removed.value as Record<string, unknown>, removed.key, removed.node);
    return { value: removed.value as Record<string, unknown>, description };
  }
  return undefined;
}

/** The resolved model as vLLM builds it with the YAML's overrides. */
function effectiveModel(s: VllmServingConfig, resolved: ResolvedBaseModel): { rope: ModelRope; facts: ScalingFacts } {
  const r = resolved.rope;
  const from = resolved.from;
  const rope: ModelRope = {
    ...r,
    base: detach(r.base, from), headDim: detach(r.headDim, from), rotaryDim: detach(r.rotaryDim, from),
    partialRotaryFactor: detach(r.partialRotaryFactor, from), contextLength: detach(r.contextLength, from),
  };
  if (r.scaling) rope.scaling = { ...r.scaling, node: undefined, params: Object.fromEntries(Object.entries(r.scaling.params).map(([k, v]) => [k, detach(v, from)])) };
  const hf = s.hfOverrides;
  const theta = hf?.value['rope_theta'] ?? s.removed.find((x) => /theta/.test(x.key))?.value;
  if (typeof theta === 'number') rope.base = { value: theta, key: 'hf-overrides.rope_theta', node: hf?.isString === false ? child(hf.node, 'rope_theta') : undefined };
  const mpe = hf?.value['max_position_embeddings'];
  if (typeof mpe === 'number') rope.contextLength = { value: mpe, key: 'hf-overrides.max_position_embeddings', node: hf?.isString === false ? child(hf.node, 'max_position_embeddings') : undefined };
  const o = overrideScaling(s);
  if (o) {
    rope.scaling = o.description;
    const orig = o.value['original_max_position_embeddings'];
    if (typeof orig === 'number') rope.originalContextLength = { value: orig, key: 'hf-overrides.rope_scaling.original_max_position_embeddings' };
    return { rope, facts: factsOfObject(rope, o.value, 'rope_scaling') };
  }
  return { rope, facts: scalingFacts(rope) };
}

/** Integers of float-typed keys written `4.0`, as transformers' and vLLM's docs write them. */
function floatIf(key: string, v: number): PlainValue {
  return FLOAT_KEYS.has(key) && Number.isInteger(v) ? float(v) : v;
}

function yamlValue(obj: Record<string, unknown>): PlainObject {
  const out: PlainObject = {};
  for (const [k, v] of Object.entries(obj)) {
    if (typeof v === 'number') out[k] = floatIf(k, v);
    else if (v && typeof v === 'object' && !Array.isArray(v)) out[k] = yamlValue(v as Record<string, unknown>);
    else out[k] = v as PlainValue;
  }
  return out;
}

export function analyzeServingConfig(
  doc: ParsedDocument, opts: { fileName: string; resolver: BaseModelResolver; log?: (message: string) => void },
): (FileAnalysis & { document: ParsedDocument }) | undefined {
  const serving = readVllmServingConfig(doc);
  if (!serving) return undefined;
  let resolved: ResolvedBaseModel | undefined;
  try {
    resolved = opts.resolver.resolve([serving.model.value], opts.fileName);
  } catch (e) {
    opts.log?.(`resolving ${serving.model.value}: ${(e as Error).message}`);
    resolved = undefined;
  }
  const editor = new DocumentEditor(doc);
  const hfKey = serving.hfOverrides?.node.key ?? `hf${serving.separator}overrides`;
  const setOverride = (key: string, value: Record<string, unknown> | number): TextEdit[] => {
    const hf = serving.hfOverrides;
    if (hf?.isString) return editor.set([hfKey], jsonText({ ...hf.value, [key]: value }));
    return editor.set([hfKey, key], typeof value === 'number' ? floatIf(key, value) : yamlValue(value));
  };
  const setOverrides = (values: Record<string, unknown>): TextEdit[] => {
    const hf = serving.hfOverrides;
    if (hf?.isString) return editor.set([hfKey], jsonText({ ...hf.value, ...values }));
    return editor.setObject([hfKey], yamlValue(values), Object.keys(hf?.value ?? {}));
  };
  const ctx: ServingRuleContext = { doc, editor, serving, setOverride, setOverrides };
  if (resolved) {
    const { rope, facts } = effectiveModel(serving, resolved);
    ctx.resolved = resolved;
    ctx.effective = rope;
    ctx.facts = facts;
    ctx.trained = trainedContextOf(resolved.rope);
    ctx.derived = vllmDerivedMaxLen({ rope, trainedContext: ctx.trained }, facts, { disableSlidingWindow: serving.disableSlidingWindow?.value });
  }
  const diagnostics: Finding[] = [];
  for (const rule of SERVING_RULES) {
    try {
      diagnostics.push(...rule.check(ctx));
    } catch (e) {
      // One rule tripping over an odd value must not take the others down; say so where logs go.
      opts.log?.(`rule ${rule.codes.join('/')} failed: ${(e as Error).message}`);
    }
  }
  const description: ServingDescription = {
    engine: 'vllm', model: serving.model.value, resolvedFrom: resolved?.from ?? null,
    maxModelLen: serving.maxModelLen?.value ?? null, derivedMaxLen: ctx.derived ?? null, trainedContext: ctx.trained ?? null,
  };
  return { kind: 'serving-config', rope: ctx.effective ?? null, training: null, serving: description, diagnostics, pendingBounds: [], document: doc };
}
