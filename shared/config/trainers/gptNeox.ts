/**
 * GPT-NeoX (Megatron-style YAML, often a JSON-like flow map with comments): the model is defined
 * in the file — `seq_length`, `max_position_embeddings` (defaults to seq_length), `pos_emb`,
 * `rotary_pct` (default 1.0), `rotary_emb_base` (default 10000). Keys may use dashes.
 */
import { ConfigNode, ParsedDocument, child } from '../../document/configNode';
import type { Located } from '../modelRope';
import type { TrainingConfig } from '../training';
import { childEither, numEither, ownModelRope, stringOf } from './common';

export function readGptNeox(doc: ParsedDocument): TrainingConfig | undefined {
  const root = doc.root;
  if (child(root, 'model_type') || child(root, 'architectures')) return undefined;
  const posEmb = stringOf(childEither(root, 'pos_emb'));
  const neoxShape = !!childEither(root, 'num_layers') && !!childEither(root, 'num_attention_heads') && !!childEither(root, 'seq_length');
  const ropeKeys = !!childEither(root, 'rotary_pct') || !!childEither(root, 'rotary_emb_base');
  if (!(posEmb !== undefined || ropeKeys) || !neoxShape) return undefined;
  const seq = numEither(root, 'seq_length');
  const mpe = numEither(root, 'max_position_embeddings');
  const base = numEither(root, 'rotary_emb_base');
  const t: TrainingConfig = {
    tool: 'gpt-neox',
    baseModelCandidates: [],
    sequenceLength: seq,
    overrides: {},
    baseKeyPath: [childEither(root, 'rotary_emb_base')?.key ?? 'rotary_emb_base'],
    trains: true,
  };
  const continues = continuedCheckpoint(root);
  if (continues) t.continuesFrom = continues;
  // NeoX's default pos_emb is learned; RoPE only when it says rotary (or rotary keys are set).
  if (posEmb === 'rotary' || (posEmb === undefined && ropeKeys)) {
    t.ownModel = ownModelRope({
      modelType: 'gpt-neox',
      base,
      baseDefault: 10000,
      baseKey: 'rotary_emb_base',
      hidden: numEither(root, 'hidden_size'),
      heads: numEither(root, 'num_attention_heads'),
      fraction: numEither(root, 'rotary_pct'),
      context: mpe ?? (seq ? { value: seq.value, note: `max_position_embeddings absent: NeoX uses ${seq.key}` } : undefined),
    });
  }
  return t;
}

/**
 * The checkpoint a NeoX run starts from when it is not its own: `finetune: true` loads `load`'s
 * weights as a new run (Llemma from Code Llama), and a `load` other than `save` starts from
 * another run's weights. A `load` equal to `save` resumes this run: its base is still this config's.
 */
function continuedCheckpoint(root: ConfigNode | undefined): Located<string> | undefined {
  const load = childEither(root, 'load');
  const save = stringOf(childEither(root, 'save'));
  const loadPath = stringOf(load);
  const finetune = childEither(root, 'finetune');
  if (finetune?.value === true) return { value: loadPath ?? 'finetune: true', node: load ?? finetune, key: load ? (load.key ?? 'load') : 'finetune' };
  if (load && loadPath && loadPath.trim() !== '' && loadPath !== save) return { value: loadPath, node: load, key: load.key ?? 'load' };
  return undefined;
}
