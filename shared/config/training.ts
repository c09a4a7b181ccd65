/**
 * Training configs (axolotl, LLaMA-Factory, torchtune, LitGPT, GPT-NeoX, nanotron, MaxText, OLMo, NeMo,
 * open-instruct, TRL):
 * what length they train at, which base model they start from, and which RoPE settings they
 * write over the base model's config — every value tied to its place in the YAML.
 */
import type { ConfigNode, ParsedDocument } from '../document/configNode';
import type { Located, ModelRope, ScalingDescription } from './modelRope';
import { readAxolotl } from './trainers/axolotl';
import { readLlamaFactory } from './trainers/llamaFactory';
import { readTorchtune } from './trainers/torchtune';
import { readLitGpt } from './trainers/litgpt';
import { readGptNeox } from './trainers/gptNeox';
import { readNanotron } from './trainers/nanotron';
import { readMaxText } from './trainers/maxtext';
import { readOlmo } from './trainers/olmo';
import { readNemo } from './trainers/nemo';
import { readHfArguments } from './trainers/hfArguments';

export type TrainingTool =
  | 'axolotl'
  | 'llama-factory'
  | 'torchtune'
  | 'litgpt'
  | 'gpt-neox'
  | 'nanotron'
  | 'maxtext'
  | 'olmo'
  | 'nemo'
  /** HfArgumentParser YAML: allenai/open-instruct, TRL's CLI (`trl sft --config`). */
  | 'open-instruct'
  | 'trl'
  /** Command lines only (config/trainers/launch): ms-swift, and a train script read generically. */
  | 'swift'
  /** verl's trainers (Hydra overrides on the command line). */
  | 'verl'
  | 'generic-trainer';

/** RoPE keys a training config writes over the base model's config. */
export interface RopeOverrides {
  base?: Located<number>;
  /** The base was read inside the scaling dict (axolotl's transformers 5 spelling), not beside it. */
  baseInScaling?: boolean;
  contextLength?: Located<number>;
  /** A scaling object written in the YAML. */
  scaling?: ScalingDescription;
  /** An explicit `rope_scaling: null` (turns the base model's scaling off). */
  scalingCleared?: ConfigNode;
}

export interface TrainingConfig {
  tool: TrainingTool;
  /** The length samples are cut or packed to. */
  sequenceLength?: Located<number>;
  /** The base model as written (hub id or path). */
  baseModel?: Located<string>;
  /** Further references to try when resolving (torchtune's checkpoint dir, a builder's hub id). */
  baseModelCandidates: string[];
  overrides: RopeOverrides;
  /** Key path under which a fix may write model-config overrides; absent when the tool has none. */
  overridePath?: string[];
  /** Key path where a fix writes a new base (rope_theta or the tool's spelling); absent when the tool has none. */
  baseKeyPath?: string[];
  /** Key path where a fix writes a scaling object; absent when the tool has none. */
  scalingKeyPath?: string[];
  /** The model the YAML defines itself (GPT-NeoX, LitGPT model_config, nanotron, MaxText, OLMo). */
  ownModel?: ModelRope;
  /**
   * The checkpoint a pretraining config continues from (GPT-NeoX `finetune: true` or a `load` other
   * than its own `save`, OLMo `load_path`, MaxText `load_parameters_path`, LitGPT `initial_checkpoint_dir`):
   * its base was chosen by that checkpoint's trainer, so the run is advice.md situation 6, not 5.
   */
  continuesFrom?: Located<string>;
  /** axolotl: the deprecated top-level `rope_scaling`. */
  deprecatedScaling?: ConfigNode;
  /** LLaMA-Factory: `rope_scaling` given by name; the trainer derives factor and original length. */
  scalingByName?: Located<string>;
  /** Whether the run trains (LLaMA-Factory `do_train`, default true for trainers). */
  trains: boolean;
  /**
   * LLaMA-Factory: the YAML is for its inference entry points (chat, api, webchat, export), which
   * leave model_max_length unset, so `rope_scaling` gets factor 2.0 (config/trainers/llamaFactoryRope.ts).
   */
  inference?: boolean;
  /** LLaMA-Factory `infer_backend` (huggingface, vllm, sglang…), as written. */
  inferBackend?: Located<string>;
  /** The trainer's inference backend refuses a RoPE scaling (LLaMA-Factory with `infer_backend: vllm`). */
  backendRefusesScaling?: boolean;
}

type Reader = (doc: ParsedDocument) => TrainingConfig | undefined;

/** Tried in order; each reader checks the keys that identify its tool and returns undefined otherwise. */
// HfArgumentParser YAML last: its keys (model_name_or_path, learning_rate) are everyone's.
const READERS: Reader[] = [
  readAxolotl,
  readLlamaFactory,
  readTorchtune,
  readLitGpt,
  readGptNeox,
  readNanotron,
  readMaxText,
  readOlmo,
  readNemo,
  readHfArguments,
];

/** Recognizes a training config and reads it; undefined for anything else. */
export function readTrainingConfig(doc: ParsedDocument): TrainingConfig | undefined {
  if (!doc.root || doc.root.kind !== 'object') return undefined;
  for (const read of READERS) {
    const t = read(doc);
    if (t) return t;
  }
  return undefined;
}
