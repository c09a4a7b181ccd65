/**
 * NVIDIA NeMo Megatron YAML.
 *  1.x (examples/nlp/language_modeling/conf/megatron_*_config.yaml, read by Hydra/OmegaConf):
 *    `model.encoder_seq_length`, `model.max_position_embeddings` (often `${.encoder_seq_length}`),
 *    `model.position_embedding_type` (rope only when it says so; NeMo's default is learned_absolute),
 *    `model.rotary_base` (default 10,000), `model.rotary_percentage` (default 1.0),
 *    `model.hidden_size`, `model.num_attention_heads`, `model.kv_channels` (head size, null: hidden / heads).
 *    `restore_from_path` (top level or under `model:`) starts from a trained `.nemo` checkpoint.
 *  2.x (a serialized recipe: `model.config` holding `seq_length`, `rotary_base`, `rotary_percent`,
 *    `position_embedding_type`, `kv_channels` beside `_target_: nemo.collections.llm…`); a fine-tuning
 *    recipe's `resume.restore_config.path` (`nemo://org/name`, `hf://org/name`) names the base model.
 * OmegaConf interpolations (`${.key}`, `${model.key}`) are followed to the value they name.
 */
import { child, ConfigNode, nodeAt, ParsedDocument, pathOf } from '../../document/configNode';
import type { Located } from '../modelRope';
import type { TrainingConfig } from '../training';
import { keyPathOf, numberOf, ownModelRope, stringOf, strAt } from './common';

/** Position embeddings NeMo implements as rotary (the rest, learned_absolute, alibi, kerple, none, have no base). */
const ROTARY = new Set(['rope', 'yarn']);
const MAX_INTERPOLATION_HOPS = 8;

export function readNemo(doc: ParsedDocument): TrainingConfig | undefined {
  const root = doc.root;
  const model = child(root, 'model');
  if (model?.kind !== 'object') return undefined;
  const v2 = child(model, 'config');
  const v2Config =
    v2?.kind === 'object' && (child(v2, 'seq_length') || child(v2, 'rotary_base')) && /nemo/.test(stringOf(child(v2, '_target_')) ?? 'nemo') ? v2 : undefined;
  const cfg = v2Config ?? model;
  const seqKey = v2Config ? 'seq_length' : 'encoder_seq_length';
  const isV1 = !v2Config && !!child(model, 'encoder_seq_length') && (!!child(root, 'trainer') || !!child(model, 'num_layers'));
  if (!v2Config && !isV1) return readNemoFinetune(root, model);
  const num = (key: string) => numberAt(root, cfg, key);
  const seq = num(seqKey);
  const posType = stringOf(follow(root, cfg, child(cfg, 'position_embedding_type')))
    ?.trim()
    .toLowerCase();
  const restore = strAt(model, ['restore_from_path']) ?? strAt(root, ['restore_from_path']) ?? strAt(model, ['pretrained_checkpoint', 'restore_from_path']);
  const t: TrainingConfig = {
    tool: 'nemo',
    baseModelCandidates: [],
    sequenceLength: seq,
    overrides: {},
    baseKeyPath: [...pathOf(cfg).filter((k): k is string => typeof k === 'string'), 'rotary_base'],
    trains: true,
  };
  if (restore && restore.value !== 'null') t.continuesFrom = restore;
  // 2.x fine-tuning names its checkpoint: `resume.restore_config.path: nemo://meta-llama/Meta-Llama-3-8B` (or hf://):
  // the named model is the base, the config's values write over it.
  const named = v2Config ? strAt(root, ['resume', 'restore_config', 'path']) : undefined;
  const hub = named && /^(?:nemo|hf):\/\/(.+)$/.exec(named.value.trim());
  if (named && hub) {
    t.baseModel = { ...named, value: hub[1] };
    const base = num('rotary_base');
    if (base) t.overrides.base = base;
    const data = child(root, 'data');
    t.sequenceLength = seq ?? (data ? numberAt(root, data, 'seq_length') : undefined);
    return t;
  }
  if (posType !== undefined && ROTARY.has(posType)) {
    t.ownModel = ownModelRope({
      modelType: 'nemo-megatron',
      base: num('rotary_base'),
      baseDefault: 10000,
      baseKey: 'rotary_base',
      hidden: num('hidden_size'),
      heads: num('num_attention_heads'),
      headDim: num('kv_channels'),
      fraction: num(v2Config ? 'rotary_percent' : 'rotary_percentage'),
      context: num('max_position_embeddings') ?? (seq ? { value: seq.value, note: `max_position_embeddings absent: NeMo uses ${seq.key}` } : undefined),
    });
  }
  return t;
}

/** A number at `key` of `obj`, following `${…}` interpolations to where the number is written. */
function numberAt(root: ConfigNode | undefined, obj: ConfigNode, key: string): Located<number> | undefined {
  const node = follow(root, obj, child(obj, key));
  const value = numberOf(node);
  return value === undefined || !node ? undefined : { value, node, key: keyPathOf(node) };
}

/** `${.sibling}` (relative to `obj`) or `${model.key}` (from the root): the node named, else the node itself. */
function follow(root: ConfigNode | undefined, obj: ConfigNode, node: ConfigNode | undefined): ConfigNode | undefined {
  let at = node;
  let parent = obj;
  for (let hop = 0; hop < MAX_INTERPOLATION_HOPS; hop++) {
    const m = /^\$\{(\.*)([A-Za-z_][\w.]*)\}$/.exec(stringOf(at)?.trim() ?? '');
    if (!m) return at;
    const path = m[2].split('.');
    // One dot: a sibling in the same map; each further dot climbs one map up.
    let base: ConfigNode | undefined = parent;
    for (let up = 1; up < m[1].length; up++) base = base?.parent;
    const next = m[1] ? nodeAt(base, path) : nodeAt(root, path);
    if (!next) return at;
    if (!m[1] && path.length > 1) parent = nodeAt(root, path.slice(0, -1)) ?? parent;
    at = next;
  }
  return at;
}

/**
 * NeMo 1.x fine-tuning (examples/nlp/language_modeling/tuning/conf/megatron_gpt_finetuning_config.yaml):
 * the model comes from `model.restore_from_path` (a `.nemo` file, often `???`, given on the command line),
 * the length is `model.data.train_ds.max_seq_length`. The `.nemo` names a base model only by its file name.
 */
function readNemoFinetune(root: ConfigNode | undefined, model: ConfigNode): TrainingConfig | undefined {
  const restore = child(model, 'restore_from_path');
  const trainDs = nodeAt(model, ['data', 'train_ds']);
  if (!restore || !child(root, 'trainer') || trainDs?.kind !== 'object') return undefined;
  const seq = numberAt(root, trainDs, 'max_seq_length');
  const t: TrainingConfig = { tool: 'nemo', baseModelCandidates: [], overrides: {}, trains: true };
  if (seq) t.sequenceLength = seq;
  const path = strAt(model, ['restore_from_path']);
  // `???` is OmegaConf's "required, set at launch": the base is chosen on the command line.
  if (path && path.value.trim() !== '???' && path.value !== 'null') {
    t.baseModel = path;
    const stem = path.value
      .replace(/\\/g, '/')
      .split('/')
      .pop()
      ?.replace(/\.nemo$/i, '');
    if (stem && stem !== path.value) t.baseModelCandidates.push(stem);
  }
  return t;
}
