/**
 * YAML read by transformers' HfArgumentParser into a trainer's dataclasses: allenai/open-instruct
 * (finetune.py FlatArguments: `model_name_or_path`, `max_seq_length`, `dataset_mixer`) and TRL's
 * CLI (`trl sft --config x.yaml`: ModelConfig `model_name_or_path`, SFTConfig `max_length`, or
 * `max_seq_length` before TRL 0.16). Only a length the file writes is judged: the defaults differ
 * across releases (TRL 1,024; open-instruct none, the tokenizer's), so an absent one is not guessed.
 */
import { child, ParsedDocument } from '../../document/configNode';
import type { TrainingConfig } from '../training';
import { hasAny, numAt, strAt } from './common';

/** Keys only a training run's dataclasses take (TrainingArguments, SFTConfig, FlatArguments); a length alone is not one (eval configs have it). */
const TRAINER_KEYS = [
  'output_dir',
  'max_steps',
  'learning_rate',
  'num_train_epochs',
  'per_device_train_batch_size',
  'gradient_accumulation_steps',
  'dataset_name',
  'dataset_mixer',
  'dataset_mixer_list',
];
/** open-instruct's own keys (FlatArguments); TRL has none of them. */
const OPEN_INSTRUCT_KEYS = [
  'dataset_mixer',
  'dataset_mixer_list',
  'use_flash_attn',
  'use_slow_tokenizer',
  'with_tracking',
  'checkpointing_steps',
  'dataset_mix_dir',
];

export function readHfArguments(doc: ParsedDocument): TrainingConfig | undefined {
  const root = doc.root;
  const baseModel = strAt(root, ['model_name_or_path']);
  if (!baseModel || !hasAny(root, ...TRAINER_KEYS)) return undefined;
  // A config.json-like file (model_type, architectures) is a model, not a training run.
  if (child(root, 'model_type') || child(root, 'architectures')) return undefined;
  const openInstruct = hasAny(root, ...OPEN_INSTRUCT_KEYS);
  const length = numAt(root, ['max_length']) ?? numAt(root, ['max_seq_length']);
  const t: TrainingConfig = {
    tool: openInstruct ? 'open-instruct' : 'trl',
    baseModel,
    baseModelCandidates: [],
    overrides: {},
    trains: true,
  };
  if (length) t.sequenceLength = length;
  return t;
}
