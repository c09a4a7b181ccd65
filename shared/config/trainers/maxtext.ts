/**
 * MaxText: `rope_max_timescale` is the base (default 10_000), `head_dim` or
 * base_emb_dim / base_num_query_heads the head size, `max_target_length` the training length.
 */
import { ParsedDocument } from '../../document/configNode';
import type { TrainingConfig } from '../training';
import { has, hasAny, numAt, ownModelRope, strAt } from './common';

export function readMaxText(doc: ParsedDocument): TrainingConfig | undefined {
  const root = doc.root;
  if (!hasAny(root, 'rope_max_timescale', 'base_emb_dim') || !hasAny(root, 'base_num_query_heads', 'max_target_length')) return undefined;
  const seq = numAt(root, ['max_target_length']);
  // `load_parameters_path` starts from a trained checkpoint's weights (continued pretraining, situation 6).
  const load = strAt(root, ['load_parameters_path']);
  return {
    ...(load && load.value.trim() !== '' ? { continuesFrom: load } : {}),
    tool: 'maxtext',
    baseModelCandidates: [],
    sequenceLength: seq,
    overrides: {},
    baseKeyPath: ['rope_max_timescale'],
    ownModel:
      has(root, 'base_emb_dim') || has(root, 'head_dim')
        ? ownModelRope({
            modelType: 'maxtext',
            base: numAt(root, ['rope_max_timescale']),
            baseDefault: 10000,
            baseKey: 'rope_max_timescale',
            hidden: numAt(root, ['base_emb_dim']),
            heads: numAt(root, ['base_num_query_heads']),
            headDim: numAt(root, ['head_dim']),
            context: seq,
          })
        : undefined,
    trains: true,
  };
}
