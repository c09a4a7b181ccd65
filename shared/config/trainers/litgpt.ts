/**
 * LitGPT: `checkpoint_dir` (checkpoints/<org>/<name>) or `model_name`; `train.max_seq_length`;
 * an inline `model_config` (block_size, rope_base, rotary_percentage, n_embd, n_head, head_size).
 */
import { child, ParsedDocument } from '../../document/configNode';
import type { TrainingConfig } from '../training';
import { hasAny, numAt, ownModelRope, strAt } from './common';

export function readLitGpt(doc: ParsedDocument): TrainingConfig | undefined {
  const root = doc.root;
  const ckpt = strAt(root, ['checkpoint_dir']);
  const name = strAt(root, ['model_name']);
  const modelConfig = child(root, 'model_config');
  if (!(ckpt || name || modelConfig?.kind === 'object') || !hasAny(root, 'train', 'out_dir', 'precision', 'devices', 'eval')) return undefined;
  const t: TrainingConfig = {
    tool: 'litgpt',
    baseModelCandidates: [],
    sequenceLength: numAt(root, ['train', 'max_seq_length']) ?? numAt(root, ['model_config', 'block_size']),
    overrides: {},
    trains: true,
  };
  if (ckpt) {
    t.baseModel = ckpt;
    t.baseModelCandidates.push(ckpt.value.replace(/^(\.\/)?checkpoints\//, ''));
  } else if (name) {
    t.baseModel = name;
  }
  if (modelConfig?.kind === 'object') {
    const base = numAt(modelConfig, ['rope_base']);
    if (base) t.overrides.base = base;
    const ctx = numAt(modelConfig, ['block_size']);
    if (ctx) t.overrides.contextLength = ctx;
    t.baseKeyPath = ['model_config', 'rope_base'];
    t.ownModel = ownModelRope({
      modelType: 'litgpt',
      base, baseDefault: 10000, baseKey: 'model_config.rope_base',
      hidden: numAt(modelConfig, ['n_embd']), heads: numAt(modelConfig, ['n_head']), headDim: numAt(modelConfig, ['head_size']),
      fraction: numAt(modelConfig, ['rotary_percentage']),
      context: ctx,
    });
  }
  return t;
}
