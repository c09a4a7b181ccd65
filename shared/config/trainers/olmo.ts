/**
 * OLMo (allenai/OLMo trainer YAML): `model.d_model`, `model.n_heads`, `model.rope` (bool),
 * `model.rope_theta` (default 10000), `model.max_sequence_length`.
 */
import { nodeAt, ParsedDocument, child } from '../../document/configNode';
import type { TrainingConfig } from '../training';
import { numAt, ownModelRope, strAt } from './common';

export function readOlmo(doc: ParsedDocument): TrainingConfig | undefined {
  const root = doc.root;
  const model = nodeAt(root, ['model']);
  if (model?.kind !== 'object' || !child(model, 'd_model') || !child(model, 'n_heads') || !(child(model, 'rope') || child(model, 'max_sequence_length')))
    return undefined;
  const ctx = numAt(model, ['max_sequence_length']);
  const ropeOn = child(model, 'rope')?.value === true;
  // `load_path` starts from another run's checkpoint (continued pretraining, advice.md situation 6).
  const load = strAt(root, ['load_path']);
  return {
    ...(load && load.value.trim() !== '' ? { continuesFrom: load } : {}),
    tool: 'olmo',
    baseModelCandidates: [],
    sequenceLength: ctx,
    overrides: {},
    baseKeyPath: ['model', 'rope_theta'],
    ownModel: ropeOn
      ? ownModelRope({
          modelType: 'olmo',
          base: numAt(model, ['rope_theta']),
          baseDefault: 10000,
          baseKey: 'model.rope_theta',
          hidden: numAt(model, ['d_model']),
          heads: numAt(model, ['n_heads']),
          context: ctx,
        })
      : undefined,
    trains: true,
  };
}
