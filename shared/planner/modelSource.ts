/**
 * What `--model` may name, turned into a PlanModel: a config.json (or its folder), a training YAML
 * (its base model, resolved offline as `check` does), or a hub id (Hugging Face cache, then the
 * built-in catalog). Pure: files come through the injected FileReader and resolver.
 */
import { RopeError } from '../core/errors';
import { formatOf, parseDocumentText } from '../document/parse';
import { toPlain } from '../document/configNode';
import { isModelConfig, readModelRope } from '../config/modelConfig';
import { readTrainingConfig, type TrainingTool } from '../config/training';
import type { BaseModelResolver, FileReader } from '../config/resolve';
import { joinPath } from '../config/resolve';
import { catalogConfigText, findCatalogEntry } from '../config/catalog';
import type { PlanModel } from './plan';

export interface LoadedPlanModel extends PlanModel {
  /** A training YAML's sequence length: the default target. */
  trainingLength?: number;
  /** The trainer of a training YAML the model came from. */
  tool?: TrainingTool;
}

function plainConfig(text: string): Record<string, unknown> | undefined {
  try {
    const doc = parseDocumentText(text, 'json');
    const v = toPlain(doc.root);
    if (!v || typeof v !== 'object' || Array.isArray(v)) return undefined;
    const o = v as Record<string, unknown>;
    // Multimodal configs keep the language model's values under text_config.
    const inner = o['text_config'];
    return inner && typeof inner === 'object' && !Array.isArray(inner) ? { ...o, ...(inner as Record<string, unknown>) } : o;
  } catch {
    return undefined;
  }
}

/** The raw config a resolver hit came from (a path, `hf-cache:<path>` or `catalog:<id>`). */
export function rawConfigOf(from: string, reader: FileReader): Record<string, unknown> | undefined {
  if (from.startsWith('catalog:')) {
    const e = findCatalogEntry(from.slice('catalog:'.length));
    return e ? plainConfig(catalogConfigText(e)) : undefined;
  }
  const path = from.startsWith('hf-cache:') ? from.slice('hf-cache:'.length) : from;
  const text = reader.readText(path);
  return text === undefined ? undefined : plainConfig(text);
}

function fromConfigText(text: string, path: string, label: string): PlanModel {
  const format = formatOf(path) ?? 'json';
  const doc = parseDocumentText(text, format);
  if (!doc.root || doc.root.kind !== 'object') throw new RopeError('parse-error', `${label}: not valid ${format.toUpperCase()}`);
  if (!isModelConfig(doc)) throw new RopeError('invalid-parameter', `${label}: not a model config (no model_type, attention or RoPE keys)`);
  const rope = readModelRope(doc);
  if (!rope) throw new RopeError('invalid-parameter', `${label}: the config has no rotary position embedding to extend`);
  return { label, from: path, rope, config: format === 'json' ? plainConfig(text) : undefined };
}

function fromTrainingYaml(text: string, path: string, label: string, reader: FileReader, resolver: BaseModelResolver): LoadedPlanModel {
  const doc = parseDocumentText(text, 'yaml');
  const t = doc.root ? readTrainingConfig(doc) : undefined;
  if (!t) {
    if (isModelConfig(doc)) return fromConfigText(text, path, label);
    throw new RopeError('invalid-parameter', `${label}: neither a model config nor a training config RoPE Lens reads (axolotl, LLaMA-Factory, torchtune, …)`);
  }
  if (t.ownModel)
    throw new RopeError('invalid-parameter', `${label}: this ${t.tool} config defines its model itself (pretraining); plan from a model config instead`);
  const refs = [...t.baseModelCandidates, ...(t.baseModel ? [t.baseModel.value] : [])];
  const hit = resolver.resolve(refs, path);
  if (!hit)
    throw new RopeError(
      'invalid-parameter',
      `${label}: base model ${refs[0] ?? '(none)'} was not found offline (local path, Hugging Face cache, built-in catalog)`,
    );
  return {
    label: hit.ref,
    from: hit.from,
    rope: hit.rope,
    config: rawConfigOf(hit.from, reader),
    tool: t.tool,
    ...(t.sequenceLength ? { trainingLength: t.sequenceLength.value } : {}),
  };
}

/**
 * A document's own text (an editor buffer, saved or not) as a plan model: a model config, or a
 * training YAML whose base model is resolved offline relative to `path`, as `rope-lens check` does.
 */
export function loadPlanModelFromText(
  text: string,
  path: string,
  format: 'json' | 'yaml',
  reader: FileReader,
  resolver: BaseModelResolver,
  label = path,
): LoadedPlanModel {
  return format === 'yaml' ? fromTrainingYaml(text, path, label, reader, resolver) : fromConfigText(text, path, label);
}

export function loadPlanModel(ref: string, reader: FileReader, resolver: BaseModelResolver, cwd = '.'): LoadedPlanModel {
  const r = ref.trim();
  if (!r) throw new RopeError('invalid-parameter', 'no model given');
  const dir = reader.listDir(r);
  const path = dir ? joinPath(r, 'config.json') : r;
  const text = reader.readText(path);
  if (text !== undefined) {
    return /\.ya?ml$/i.test(path) ? fromTrainingYaml(text, path, r, reader, resolver) : fromConfigText(text, path, r);
  }
  if (dir) throw new RopeError('invalid-parameter', `${r}: folder without a readable config.json`);
  const hit = resolver.resolve([r], joinPath(cwd, 'plan'));
  if (!hit) throw new RopeError('invalid-parameter', `${r}: no such file, and not a model found offline (Hugging Face cache or built-in catalog)`);
  return { label: r, from: hit.from, rope: hit.rope, config: rawConfigOf(hit.from, reader) };
}
