/**
 * torchtune: the model is a `_component_` builder (torchtune.models.<family>.<builder>) whose RoPE
 * settings are fixed in code; the weights come from `checkpointer.checkpoint_dir`. The sequence
 * length is `tokenizer.max_seq_len` (or a dataset's / the top-level `max_seq_len`).
 */
import { nodeAt, ParsedDocument } from '../../document/configNode';
import type { TrainingConfig } from '../training';
import { numAt, strAt } from './common';

export function readTorchtune(doc: ParsedDocument): TrainingConfig | undefined {
  const root = doc.root;
  const builder = strAt(root, ['model', '_component_']);
  const anyTorchtune =
    builder?.value.startsWith('torchtune.') ||
    (root?.children ?? []).some((c) => {
      const comp = strAt(c, ['_component_']);
      return comp?.value.startsWith('torchtune.') === true;
    });
  if (!anyTorchtune) return undefined;
  const t: TrainingConfig = {
    tool: 'torchtune',
    baseModelCandidates: [],
    sequenceLength: numAt(root, ['tokenizer', 'max_seq_len']) ?? numAt(root, ['dataset', 'max_seq_len']) ?? numAt(root, ['max_seq_len']),
    overrides: {},
    trains: true,
  };
  const ckpt = strAt(root, ['checkpointer', 'checkpoint_dir']);
  if (ckpt) t.baseModelCandidates.push(ckpt.value);
  if (ckpt) t.baseModel = ckpt;
  if (builder) {
    t.baseModel ??= builder;
    const hub = torchtuneBuilderHubId(builder.value);
    if (hub) t.baseModelCandidates.push(hub);
    // Generic builders take the RoPE arguments explicitly.
    const model = nodeAt(root, ['model']);
    const base = numAt(model, ['rope_base']);
    if (base) t.overrides.base = base;
    const ctx = numAt(model, ['max_seq_len']);
    if (ctx) t.overrides.contextLength = ctx;
  }
  return t;
}

/** `torchtune.models.qwen2_5.lora_qwen2_5_7b_instruct` → `Qwen/Qwen2.5-7B-Instruct` (for the catalog). */
export function torchtuneBuilderHubId(component: string): string | undefined {
  const name = component
    .split('.')
    .pop()!
    .replace(/^(lora_|qlora_)/, '');
  const rules: [RegExp, (m: RegExpMatchArray) => string][] = [
    [/^llama2_(7b|13b|70b)$/, (m) => `meta-llama/Llama-2-${m[1]}-hf`],
    [/^code_llama2_(7b|13b|70b)$/, (m) => `codellama/CodeLlama-${m[1]}-hf`],
    [/^llama3_(8b|70b)$/, (m) => `meta-llama/Meta-Llama-3-${m[1].toUpperCase()}`],
    [/^llama3_1_(8b|70b|405b)$/, (m) => `meta-llama/Llama-3.1-${m[1].toUpperCase()}`],
    [/^llama3_2_(1b|3b)$/, (m) => `meta-llama/Llama-3.2-${m[1].toUpperCase()}`],
    [/^llama3_3_70b$/, () => 'meta-llama/Llama-3.3-70B-Instruct'],
    [/^mistral_7b$/, () => 'mistralai/Mistral-7B-v0.1'],
    [/^gemma_(2b|7b)$/, (m) => `google/gemma-${m[1]}`],
    [/^gemma2_(2b|9b|27b)$/, (m) => `google/gemma-2-${m[1]}`],
    [/^phi3_mini$/, () => 'microsoft/Phi-3-mini-4k-instruct'],
    [/^qwen2_(0_5b|1_5b|7b)$/, (m) => `Qwen/Qwen2-${m[1].replace('_', '.').toUpperCase()}`],
    [
      /^qwen2_5_(0_5b|1_5b|3b|7b|14b|32b|72b)_(base|instruct)$/,
      (m) => `Qwen/Qwen2.5-${m[1].replace('_', '.').toUpperCase()}${m[2] === 'instruct' ? '-Instruct' : ''}`,
    ],
    [/^qwen3_(0_6b|1_7b|4b|8b|14b|32b)(_base|_instruct)?$/, (m) => `Qwen/Qwen3-${m[1].replace('_', '.').toUpperCase()}${m[2] === '_base' ? '-Base' : ''}`],
  ];
  for (const [re, f] of rules) {
    const m = name.match(re);
    if (m) return f(m);
  }
  return undefined;
}

/**
 * torchtune's built-in config names → the model each one's `tune download` line fetches, for the
 * families read so far: `llama3_1/8B_lora_single_device` → meta-llama/Llama-3.1-8B-Instruct,
 * `llama3_2/3B_full` → meta-llama/Llama-3.2-3B-Instruct, `qwen2_5/0.5B_full` → Qwen/Qwen2.5-0.5B-Instruct
 * (recipes/configs/<family>/<size>_<recipe>.yaml; older trees spell 0.5B as 0_5B). A distillation
 * config (`8B_to_1B_KD_…`) names two models and is not read; a file path (`….yaml`) is not a built-in name.
 */
export function torchtuneConfigHubId(name: string): string | undefined {
  const m = /^(llama3_1|llama3_2|qwen2_5)\/(\d+(?:[._]\d+)?)B_(?!to_)[A-Za-z0-9_]+$/.exec(name.trim());
  if (!m) return undefined;
  const size = m[2].replace('_', '.');
  const sizes: Record<string, { known: string[]; id: (s: string) => string }> = {
    llama3_1: { known: ['8', '70', '405'], id: (s) => `meta-llama/Llama-3.1-${s}B-Instruct` },
    llama3_2: { known: ['1', '3'], id: (s) => `meta-llama/Llama-3.2-${s}B-Instruct` },
    qwen2_5: { known: ['0.5', '1.5', '3', '7', '14', '32', '72'], id: (s) => `Qwen/Qwen2.5-${s}B-Instruct` },
  };
  const family = sizes[m[1]];
  return family.known.includes(size) ? family.id(size) : undefined;
}
