/**
 * nanotron: `model.model_config` holds an HF-like Llama config (rope_theta, max_position_embeddings,
 * rope_scaling, hidden_size, num_attention_heads); `tokens.sequence_length` is the training length.
 */
import { nodeAt, ParsedDocument, child } from '../../document/configNode';
import type { TrainingConfig } from '../training';
import { describeScalingNode, numAt, ownModelRope } from './common';

export function readNanotron(doc: ParsedDocument): TrainingConfig | undefined {
  const root = doc.root;
  const mc = nodeAt(root, ['model', 'model_config']);
  if (mc?.kind !== 'object' || !(child(root, 'tokens') || child(root, 'general'))) return undefined;
  const base = numAt(mc, ['rope_theta']);
  const sc = child(mc, 'rope_scaling');
  const scaling = sc?.kind === 'object' ? describeScalingNode(sc) : undefined;
  return {
    tool: 'nanotron',
    baseModelCandidates: [],
    sequenceLength: numAt(root, ['tokens', 'sequence_length']),
    overrides: {},
    baseKeyPath: ['model', 'model_config', 'rope_theta'],
    scalingKeyPath: ['model', 'model_config', 'rope_scaling'],
    ownModel: ownModelRope({
      modelType: 'nanotron-llama',
      base,
      baseDefault: 10000,
      baseKey: 'rope_theta',
      hidden: numAt(mc, ['hidden_size']),
      heads: numAt(mc, ['num_attention_heads']),
      context: numAt(mc, ['max_position_embeddings']),
      scaling,
    }),
    trains: true,
  };
}
