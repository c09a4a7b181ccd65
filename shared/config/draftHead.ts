/**
 * Is this model config a speculative-decoding draft head? SpecForge and similar trainers write one
 * config per draft (EAGLE-3: `LlamaForCausalLMEagle3` with `draft_vocab_size`; DFlash:
 * `DFlashDraftModel` with `num_target_layers`; MTP drafts) in the target's config shape. The head is
 * trained from scratch on the target's hidden states, so its RoPE base is a choice made before
 * training, not a fact of a shipped checkpoint (advice.md situation 5).
 */
import type { ConfigNode } from '../document/configNode';
import { child } from '../document/configNode';
import { stringOf } from './modelValues';

/** Architecture names that only draft heads carry. */
const DRAFT_ARCHITECTURE = /eagle|dflash|draft|medusa|mtp/i;
/** Keys only a draft head's config writes (its own vocabulary, the target's layer count it reads from). */
const DRAFT_KEYS = ['draft_vocab_size', 'num_target_layers', 'target_layer_ids', 'eagle_config'];

/** What marks the config as a draft head (said in findings), or undefined. */
export function draftHeadOf(root: ConfigNode): string | undefined {
  const archs = child(root, 'architectures');
  for (const a of archs?.kind === 'array' ? (archs.children ?? []) : []) {
    const name = stringOf(a);
    if (name && DRAFT_ARCHITECTURE.test(name)) return `architectures ${name}`;
  }
  for (const key of DRAFT_KEYS) if (child(root, key)) return `${key} in the config`;
  return undefined;
}
