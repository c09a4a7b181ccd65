/**
 * A train script RoPE Lens does not know (`accelerate launch train.py`, `torchrun pretrain_gpt.py`,
 * `deepspeed train.py`, `python train.py`), read generically by the argparse conventions: `--k v`,
 * `--k=v`, hyphens or underscores. Every finding says so: the script's own argument names are not
 * known, only guessed from common spellings.
 *   length: --seq-length, --seq_len, --max-length, --max_seq_length, --max-seq-len, --model-max-length,
 *           --context-length, --sequence-length;
 *   base:   --rope-theta, --rotary-base, --rope-base, --rotary-emb-base;
 *   model:  --model_name_or_path, --model, --base-model, --model-path, --pretrained-model-name-or-path, --init-ckpt.
 * Megatron-LM's flags are known exactly (megatron/training/arguments.py::_add_network_size_args):
 *   --seq-length, --max-position-embeddings, --position-embedding-type {learned_absolute,rope}
 *   (default learned_absolute), --use-rotary-position-embeddings (deprecated spelling of rope),
 *   --rotary-base (int, default 10000), --rotary-percent (default 1.0),
 *   --rotary-seq-len-interpolation-factor (int: linear position interpolation), --use-rope-scaling with
 *   --rope-scaling-factor (Llama 3.x's scaling, factor default 8.0), --hidden-size,
 *   --num-attention-heads, --kv-channels. Megatron spells them with hyphens only (allow_abbrev=False).
 * With no model named, a Megatron command defines its model (pretraining): judged as GPT-NeoX YAML is.
 */
import type { Invocation } from '../../../launch/types';
import { TRAINING_SCRIPT_NAME } from '../../../launch/sniff';
import type { LineIndex } from '../../../document/positions';
import type { Located, ScalingDescription } from '../../modelRope';
import type { TrainingConfig } from '../../training';
import { ownModelRope } from '../common';
import { ArgOption, lastOf, normalized, readOptions } from './argv';
import { LaunchDocBuilder } from './launchDoc';
import type { Launched } from './launchers';
import type { TrainerLaunch } from './types';
import { emptyRequest, numberOption, optionUse, setLength, stringOption } from './common';

const LENGTH = ['seq_length', 'seq_len', 'max_length', 'max_seq_length', 'max_seq_len', 'model_max_length', 'context_length', 'sequence_length'];
const BASE = ['rope_theta', 'rotary_base', 'rope_base', 'rotary_emb_base'];
// `--init_ckpt`: the Hugging Face checkpoint folder fmengine-style scripts start from.
const MODEL = ['model_name_or_path', 'model', 'base_model', 'model_path', 'pretrained_model_name_or_path', 'init_ckpt'];
/** The model options that name a Hugging Face checkpoint by convention (`--model` alone may name anything: `--model resnet50`). */
const HUB_MODEL = ['model_name_or_path', 'pretrained_model_name_or_path'];
const MEGATRON = [
  'num_layers',
  'hidden_size',
  'num_attention_heads',
  'tensor_model_parallel_size',
  'pipeline_model_parallel_size',
  'position_embedding_type',
  'use_rotary_position_embeddings',
  'max_position_embeddings',
  'rotary_seq_len_interpolation_factor',
];
/** Scripts and modules that train, by name (train.py, finetune.py, sft.py, pretrain_gpt.py, run_clm.py, trl's dpo…): the launch words' own list. */
const TRAINING_NAME = TRAINING_SCRIPT_NAME;
/** Megatron's store_true flags (so the next token is not read as their value). */
const BOOLEANS = new Set([
  'use_rotary_position_embeddings',
  'use_rope_scaling',
  'rotary_interleaved',
  'bf16',
  'fp16',
  'swiglu',
  'group_query_attention',
  'disable_bias_linear',
  'untie_embeddings_and_output_weights',
  'use_flash_attn',
  'use_mcore_models',
  'sequence_parallel',
  'use_distributed_optimizer',
  'overlap_grad_reduce',
  'overlap_param_gather',
  'qk_layernorm',
  'add_qkv_bias',
  'do_train',
  'do_eval',
  'gradient_checkpointing',
  'packing',
  'trust_remote_code',
]);

export function readGenericLaunch(l: Launched, inv: Invocation, lines: LineIndex): TrainerLaunch | undefined {
  const { options } = readOptions(l.args, { booleans: BOOLEANS });
  const pick = (names: string[]) => lastOf(options, ...names);
  const lengthOpt = pick(LENGTH),
    baseOpt = pick(BASE),
    modelOpt = pick(MODEL);
  const megatron = /(^|\/)pretrain_\w+\.py$/.test(l.entry.value) || options.some((o) => MEGATRON.includes(normalized(o.name)));
  // Only what trains: a script or module named for training (`lm_eval --model hf --max_length 4096`
  // evaluates) given a training length or a Hugging Face model to start from (`--model_name_or_path`,
  // the transformers examples' spelling: Stanford-Alpaca-style `torchrun train.py` scripts name the
  // model and leave the length to the script's defaults), or Megatron's own flags.
  const hubModelOpt = lastOf(options, ...HUB_MODEL);
  const trainingScript = TRAINING_NAME.test(l.entry.value.replace(/^.*\//, ''));
  if (!megatron && !(trainingScript && (lengthOpt || hubModelOpt))) return undefined;
  const script = l.entry.value.replace(/^.*\//, '');
  const b = new LaunchDocBuilder(lines, inv);
  const request = emptyRequest('generic-trainer', inv);
  const keyOf = (o: ArgOption) => o.name; // as written: findings and fix titles use the script's spelling
  const t: TrainingConfig = { tool: 'generic-trainer', baseModelCandidates: [], overrides: {}, trains: true };
  const length = lengthOpt ? numberOption(b, keyOf(lengthOpt), lengthOpt) : undefined;
  if (length) t.sequenceLength = length;
  setLength(request, lengthOpt?.name ?? 'seq-length', lengthOpt, length?.value);
  const model = modelOpt ? stringOption(b, keyOf(modelOpt), modelOpt) : undefined;
  if (model) {
    t.baseModel = model;
    request.model = modelOpt!.value;
  }
  const base = baseOpt ? numberOption(b, keyOf(baseOpt), baseOpt) : undefined;
  if (baseOpt) request.rope[normalized(baseOpt.name)] = optionUse(baseOpt.name, baseOpt);
  if (base) t.overrides.base = base;
  if (baseOpt) t.baseKeyPath = [keyOf(baseOpt)];
  else if (megatron) t.baseKeyPath = ['rotary-base'];
  if (megatron) t.scalingKeyPath = ['rope_scaling'];
  const launch: TrainerLaunch = {
    program: 'generic-trainer',
    invocation: inv,
    training: t,
    doc: b.doc(),
    options: b.options,
    request,
    generic: script,
    fixElsewhere: `Set RoPE scaling where ${script} builds the model config.`,
    writer: {
      jsonKeys: [],
      // New options only where the grammar is known (Megatron); elsewhere only existing values are changed.
      write: (key, value) => (megatron ? [`--${key}`, value] : undefined),
      scaling: megatron ? megatronScaling : undefined,
      // Megatron's --rotary-base is type=int: a raised base is written rounded up.
      number: megatron ? (key, v) => (normalized(key) === 'rotary_base' ? String(Math.ceil(v)) : String(v)) : undefined,
    },
  };
  if (megatron && !model) readMegatronModel(launch, b, options);
  if (!model && !t.ownModel) request.notes.push(`No model is named on the command line: ${script}'s RoPE settings cannot be judged from it.`);
  return launch;
}

/** A linear block with an integer factor is Megatron's --rotary-seq-len-interpolation-factor (type=int); nothing else is writable. */
function megatronScaling(block: Record<string, unknown>): [string, string | null][] | undefined {
  const type = block['rope_type'] ?? block['type'];
  const f = block['factor'];
  const factor = typeof f === 'number' ? f : typeof f === 'object' && f !== null && 'value' in f ? (f as { value: number }).value : undefined;
  if (type === 'linear' && factor !== undefined && Number.isInteger(factor)) return [['rotary-seq-len-interpolation-factor', String(factor)]];
  return undefined;
}

/**
 * Megatron's `--use-rope-scaling` is Llama 3.x's scaling (arguments.py: "Apply rope scaling as used in
 * llama3.x"): factor `--rope-scaling-factor` (default 8.0), the other three fixed by Megatron-Core's
 * rotary embedding at Llama 3.1's values (low 1, high 4, over 8,192).
 */
function megatronLlama3Scaling(factor: Located<number> | undefined): ScalingDescription {
  const fixed = (value: number): Located<number> => ({ value, note: "fixed by Megatron-Core's llama3.x scaling" });
  return {
    type: 'llama3',
    key: 'use-rope-scaling',
    params: {
      factor: factor ?? { value: 8, note: "Megatron's --rope-scaling-factor default (not in the file)" },
      low_freq_factor: fixed(1),
      high_freq_factor: fixed(4),
      original_max_position_embeddings: fixed(8192),
    },
  };
}

/** Megatron defines the model on the command line: rope only with --position-embedding-type rope (or the deprecated flag). */
function readMegatronModel(launch: TrainerLaunch, b: LaunchDocBuilder, options: ArgOption[]): void {
  const t = launch.training;
  const get = (name: string) => lastOf(options, name);
  const pe = get('position_embedding_type');
  const rope = pe?.text === 'rope' || !!get('use_rotary_position_embeddings');
  if (!rope) {
    launch.request.notes.push("Megatron's position embedding is learned_absolute unless --position-embedding-type rope: no RoPE to judge.");
    return;
  }
  const num = (name: string) => {
    const o = get(name);
    return o ? numberOption(b, o.name, o) : undefined;
  };
  const mpe = num('max_position_embeddings');
  const context: Located<number> | undefined = mpe ?? t.sequenceLength;
  const interp = num('rotary_seq_len_interpolation_factor');
  const llama3 = get('use_rope_scaling');
  let scaling: ScalingDescription | undefined;
  if (interp) {
    scaling = { type: 'linear', key: 'rotary-seq-len-interpolation-factor', params: { factor: interp } };
    launch.request.rope['rotary_seq_len_interpolation_factor'] = optionUse(interp.key!, get('rotary_seq_len_interpolation_factor')!);
  } else if (llama3) {
    scaling = megatronLlama3Scaling(num('rope_scaling_factor'));
    launch.request.rope['use_rope_scaling'] = optionUse(llama3.name, llama3);
  }
  const own = ownModelRope({
    modelType: 'megatron-gpt',
    base: t.overrides.base,
    baseDefault: 10000,
    baseKey: 'rotary-base',
    hidden: num('hidden_size'),
    heads: num('num_attention_heads'),
    headDim: num('kv_channels'),
    fraction: num('rotary_percent'),
    context,
    scaling,
  });
  if (!own) return;
  t.ownModel = own;
  delete t.overrides.base; // the model's own base, judged as a pretraining base
}
