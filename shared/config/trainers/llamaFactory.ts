/**
 * LLaMA-Factory: `model_name_or_path`, `cutoff_len` (default 2048), and `rope_scaling` given by
 * name (linear|dynamic|yarn|llama3) — the trainer then derives factor and original length itself
 * (llamaFactoryRope.ts) — or, in some forks, as a full dict.
 */
import { ConfigNode, child, ParsedDocument } from '../../document/configNode';
import type { TrainingConfig } from '../training';
import { describeScalingNode, hasAny, numAt, strAt } from './common';

export const LLAMA_FACTORY_DEFAULT_CUTOFF = 2048;

/** LLaMA-Factory's RopeScaling enum (extras/constants.py): the names `rope_scaling` may take. */
export const LLAMA_FACTORY_SCALINGS: readonly string[] = ['linear', 'dynamic', 'yarn', 'llama3'];

/** get_infer_args: export_dir with export_device cpu (the default) and cutoff_len ≠ 2048 sets model_max_length. */
function exportsWithCutoff(root: ConfigNode | undefined): boolean {
  const cutoff = numAt(root, ['cutoff_len'])?.value;
  const device = strAt(root, ['export_device'])?.value ?? 'cpu';
  return !!strAt(root, ['export_dir']) && device === 'cpu' && cutoff !== undefined && cutoff !== LLAMA_FACTORY_DEFAULT_CUTOFF;
}

export function readLlamaFactory(doc: ParsedDocument): TrainingConfig | undefined {
  // Keys usually sit at the top level; some configs nest them under `train:`.
  const nested = !child(doc.root, 'model_name_or_path') && child(child(doc.root, 'train'), 'model_name_or_path');
  const prefix = nested ? ['train'] : [];
  const root = nested ? child(doc.root, 'train') : doc.root;
  const baseModel = strAt(root, ['model_name_or_path']);
  if (!baseModel || !hasAny(root, 'cutoff_len', 'stage', 'finetuning_type', 'template', 'dataset', 'rope_scaling')) return undefined;
  const stage = child(root, 'stage');
  const doTrain = child(root, 'do_train');
  const t: TrainingConfig = {
    tool: 'llama-factory',
    baseModel,
    baseModelCandidates: [],
    sequenceLength: numAt(root, ['cutoff_len']) ?? { value: LLAMA_FACTORY_DEFAULT_CUTOFF, note: 'cutoff_len absent: LLaMA-Factory default 2048' },
    overrides: {},
    scalingKeyPath: [...prefix, 'rope_scaling'],
    trains: doTrain ? doTrain.value === true : !!stage,
  };
  // `llamafactory-cli train` sets model_max_length = cutoff_len (hparams/parser.py::get_train_args);
  // chat/api/webchat/export leave it None, except an export on CPU with a non-default cutoff_len.
  if (!hasAny(root, 'stage', 'do_train', 'do_eval', 'do_predict') && !exportsWithCutoff(root)) t.inference = true;
  const backend = strAt(root, ['infer_backend']);
  if (backend) {
    t.inferBackend = backend;
    // LLaMA-Factory's vLLM backend refuses rope_scaling ("vLLM engine does not support RoPE scaling").
    t.backendRefusesScaling = backend.value.trim().toLowerCase() === 'vllm';
  }
  const sc = child(root, 'rope_scaling');
  if (sc?.kind === 'string') {
    const name = strAt(root, ['rope_scaling']);
    if (name) t.scalingByName = name;
  } else if (sc?.kind === 'object') {
    t.overrides.scaling = describeScalingNode(sc);
  }
  return t;
}
