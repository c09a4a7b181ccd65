/**
 * LLaMA-Factory: `model_name_or_path`, `cutoff_len` (default 2048), and `rope_scaling` given by
 * name (linear|dynamic|yarn|llama3) — the trainer then derives factor = ceil(cutoff_len / mpe)
 * and the original length itself — or, in some forks, as a full dict.
 */
import { child, ParsedDocument } from '../../document/configNode';
import type { TrainingConfig } from '../training';
import { describeScalingNode, hasAny, numAt, strAt } from './common';

export const LLAMA_FACTORY_DEFAULT_CUTOFF = 2048;

/** LLaMA-Factory's RopeScaling enum (extras/constants.py): the names `rope_scaling` may take. */
export const LLAMA_FACTORY_SCALINGS: readonly string[] = ['linear', 'dynamic', 'yarn', 'llama3'];

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
  const sc = child(root, 'rope_scaling');
  if (sc?.kind === 'string') {
    const name = strAt(root, ['rope_scaling']);
    if (name) t.scalingByName = name;
  } else if (sc?.kind === 'object') {
    t.overrides.scaling = describeScalingNode(sc);
  }
  return t;
}
