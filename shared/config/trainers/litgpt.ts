/**
 * LitGPT: `checkpoint_dir` (checkpoints/<org>/<name>) or `model_name`; `train.max_seq_length`;
 * an inline `model_config` (block_size, rope_base, rotary_percentage, n_embd, n_head, head_size).
 */
import { child, ParsedDocument } from '../../document/configNode';
import type { TrainingConfig } from '../training';
import type { Located, ModelRope } from '../modelRope';
import { hasAny, numAt, ownModelRope, strAt } from './common';
import { LitGptArchitecture, litGptBuiltin } from './litgptBuiltins';

export function readLitGpt(doc: ParsedDocument): TrainingConfig | undefined {
  const root = doc.root;
  const ckpt = strAt(root, ['checkpoint_dir']);
  const name = strAt(root, ['model_name']);
  // Fine-tune configs name a checkpoint; pretrain configs define the model inline (`model_config`,
  // or `model` with block_size / n_head as in LitGPT's config_hub/pretrain).
  const inlineModel = child(root, 'model');
  const modelKey = child(root, 'model_config')
    ? 'model_config'
    : inlineModel?.kind === 'object' && (child(inlineModel, 'block_size') || child(inlineModel, 'n_head'))
      ? 'model'
      : 'model_config';
  const modelConfig = child(root, modelKey);
  if (!(ckpt || name || modelConfig?.kind === 'object') || !hasAny(root, 'train', 'out_dir', 'precision', 'devices', 'eval')) return undefined;
  const t: TrainingConfig = {
    tool: 'litgpt',
    baseModelCandidates: [],
    sequenceLength: numAt(root, ['train', 'max_seq_length']) ?? numAt(root, [modelKey, 'block_size']),
    overrides: {},
    trains: true,
  };
  // A pretrain config's `initial_checkpoint_dir` starts from trained weights (continued pretraining, situation 6).
  const initial = strAt(root, ['initial_checkpoint_dir']);
  if (initial && initial.value.trim() !== '') t.continuesFrom = initial;
  if (ckpt) {
    t.baseModel = ckpt;
    t.baseModelCandidates.push(ckpt.value.replace(/^(\.\/)?checkpoints\//, ''));
  } else if (name && modelConfig?.kind !== 'object' && !t.continuesFrom && litGptBuiltin(name.value)) {
    // `litgpt pretrain --model_name micro-llama-300M` builds LitGPT's own architecture from scratch:
    // its values are the model this run defines, and its base is chosen (advice.md situation 5).
    t.ownModel = builtinRope(name, litGptBuiltin(name.value)!);
  } else if (name) {
    t.baseModel = name;
  }
  if (modelConfig?.kind === 'object') {
    const base = numAt(modelConfig, ['rope_base']);
    if (base) t.overrides.base = base;
    const ctx = numAt(modelConfig, ['block_size']);
    if (ctx) t.overrides.contextLength = ctx;
    t.baseKeyPath = [modelKey, 'rope_base'];
    t.ownModel = ownModelRope({
      modelType: 'litgpt',
      base,
      baseDefault: 10000,
      baseKey: `${modelKey}.rope_base`,
      hidden: numAt(modelConfig, ['n_embd']),
      heads: numAt(modelConfig, ['n_head']),
      headDim: numAt(modelConfig, ['head_size']),
      fraction: numAt(modelConfig, ['rotary_percentage']),
      context: ctx,
    });
  }
  return t;
}

/** The RoPE of a LitGPT built-in architecture, every value noted as LitGPT's and anchored on `model_name`. */
export function builtinRope(name: Located<string>, a: LitGptArchitecture): ModelRope {
  const from = `LitGPT's ${name.value} (litgpt/config.py)`;
  const headDim = Math.floor(a.nEmbd / a.nHead);
  const rotary = Math.floor(headDim * a.rotaryPercentage);
  return {
    modelType: 'litgpt',
    base: { value: a.ropeBase, key: 'rope_base', note: `base ${a.ropeBase} of ${from}` },
    headDim: { value: headDim, note: `width ${a.nEmbd} / heads ${a.nHead} of ${from}` },
    rotaryDim: { value: rotary - (rotary % 2), note: `rotary fraction ${a.rotaryPercentage} of ${from}` },
    partialRotaryFactor: { value: a.rotaryPercentage, note: from },
    contextLength: { value: a.blockSize, node: name.node, key: 'model_name', note: `${from}, context ${a.blockSize}` },
  };
}
