/**
 * axolotl: `base_model`, `sequence_len`; RoPE goes through `overrides_of_model_config` (alias
 * `model_config`), applied with setattr on the base model's config. A top-level `rope_scaling`
 * is rejected by axolotl's config schema as deprecated.
 */
import { child, ParsedDocument } from '../../document/configNode';
import type { TrainingConfig } from '../training';
import { describeScalingNode, hasAny, numAt, strAt } from './common';

export function readAxolotl(doc: ParsedDocument): TrainingConfig | undefined {
  const root = doc.root;
  const baseModel = strAt(root, ['base_model']);
  if (
    !baseModel ||
    !hasAny(
      root,
      'sequence_len',
      'datasets',
      'adapter',
      'micro_batch_size',
      'num_epochs',
      'load_in_4bit',
      'load_in_8bit',
      'overrides_of_model_config',
      'sample_packing',
    )
  )
    return undefined;
  const overrideKey = child(root, 'overrides_of_model_config')
    ? 'overrides_of_model_config'
    : child(root, 'model_config')
      ? 'model_config'
      : 'overrides_of_model_config';
  const block = child(root, overrideKey);
  const t: TrainingConfig = {
    tool: 'axolotl',
    baseModel,
    baseModelCandidates: [],
    sequenceLength: numAt(root, ['sequence_len']),
    overrides: {},
    overridePath: [overrideKey],
    baseKeyPath: [overrideKey, 'rope_theta'],
    scalingKeyPath: [overrideKey, 'rope_scaling'],
    trains: true,
  };
  const cfgPath = strAt(root, ['base_model_config']);
  if (cfgPath) t.baseModelCandidates.push(cfgPath.value);
  if (block?.kind === 'object') {
    const base = numAt(block, ['rope_theta']);
    if (base) t.overrides.base = base;
    const ctx = numAt(block, ['max_position_embeddings']);
    if (ctx) t.overrides.contextLength = ctx;
    const sc = child(block, 'rope_scaling');
    if (sc?.kind === 'object') t.overrides.scaling = describeScalingNode(sc);
    else if (sc?.kind === 'null') t.overrides.scalingCleared = sc;
    // transformers 5 spelling (axolotlOverrides.ts): the whole dict, base included.
    const params = child(block, 'rope_parameters');
    const dict = sc?.kind === 'object' ? sc : params?.kind === 'object' ? params : undefined;
    if (dict === params && dict) t.overrides.scaling = describeScalingNode(dict);
    // On transformers 5, axolotl's pinned line, a rope_theta inside the dict is the one the model
    // runs (a sibling rope_theta only fills a dict that has none).
    const inner = dict ? numAt(dict, ['rope_theta']) : undefined;
    if (inner) {
      t.overrides.base = inner;
      t.overrides.baseInScaling = true;
    }
  }
  const deprecated = child(root, 'rope_scaling');
  if (deprecated && deprecated.kind !== 'null') t.deprecatedScaling = deprecated;
  return t;
}
