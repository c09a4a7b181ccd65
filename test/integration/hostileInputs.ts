/**
 * The hostile inputs of the hardening issue, built in memory so the server tests, the CLI test
 * and the bench all throw the same files at the code: an alias bomb, 50 MB JSON files, a config
 * with 10,000 keys, absurd context lengths, head dims and bases.
 */

export interface HostileInput {
  /** Short label for reports. */
  name: string;
  /** File name the input is opened or written as (sniffing depends on it). */
  fileName: string;
  languageId: 'json' | 'yaml';
  /** Builds the text (on demand: the two big ones are 50 MB each). */
  text(): string;
}

const LLAMA_LIKE = {
  architectures: ['LlamaForCausalLM'],
  model_type: 'llama',
  hidden_size: 4096,
  num_attention_heads: 32,
  num_key_value_heads: 32,
  num_hidden_layers: 32,
  intermediate_size: 11008,
  max_position_embeddings: 4096,
  rope_theta: 10000.0,
  vocab_size: 32000,
};

const config = (overrides: Record<string, unknown>) => JSON.stringify({ ...LLAMA_LIKE, ...overrides }, null, 2) + '\n';

/** "Billion laughs": nine levels of nine aliases each; a naive expansion is 9^9 strings. */
export function aliasBomb(): string {
  const lines = ['model_type: llama', 'rope_theta: 10000', 'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
  const names = 'abcdefghi';
  for (let i = 1; i < names.length; i++) {
    const prev = names[i - 1];
    lines.push(
      `${names[i]}: &${names[i]} [${Array(9)
        .fill('*' + prev)
        .join(',')}]`,
    );
  }
  lines.push('max_position_embeddings: *i', 'rope_scaling: {type: linear, factor: *i}', '');
  return lines.join('\n');
}

/**
 * A tokenizer.json-shaped file of about `bytes` bytes (a BPE vocab). Built from one ~1 MB block
 * repeated (keys repeat too: size is the hostile part, and building 50 MB entry by entry is slow).
 */
export function bigTokenizer(bytes: number): string {
  const entries: string[] = [];
  for (let i = 0; i < 40_000; i++) entries.push(`"tok_${i.toString(36)}_\\u0120abc":${i}`);
  const block = entries.join(',');
  const head = '{"version":"1.0","truncation":null,"padding":null,"model":{"type":"BPE","vocab":{';
  const copies = Math.max(1, Math.round(bytes / (block.length + 1)));
  return head + Array(copies).fill(block).join(',') + '},"merges":[]}}\n';
}

/** A config.json of about `bytes` bytes: a real-looking model config padded with a huge array. */
export function bigConfig(bytes: number): string {
  const head = JSON.stringify(LLAMA_LIKE, null, 2).replace(/\n}$/, ',\n  "padding": [');
  const numbers: string[] = [];
  for (let i = 0; i < 100_000; i++) numbers.push((i * 0.001).toFixed(3));
  const block = numbers.join(',');
  const copies = Math.max(1, Math.round((bytes - head.length) / (block.length + 1)));
  return head + Array(copies).fill(block).join(',') + ']\n}\n';
}

/** A model config with `n` extra keys (and the RoPE keys at the end, after all of them). */
export function manyKeys(n: number): string {
  const extra: Record<string, number> = {};
  for (let i = 0; i < n; i++) extra[`layer_${i}_scale`] = i % 7;
  const { rope_theta, max_position_embeddings, ...rest } = LLAMA_LIKE;
  return JSON.stringify({ ...rest, ...extra, max_position_embeddings, rope_theta }, null, 2) + '\n';
}

/** Every hostile input; the two 50 MB files only when `big`. */
export function hostileInputs(big = true): HostileInput[] {
  const out: HostileInput[] = [
    { name: 'YAML alias bomb', fileName: 'config.yaml', languageId: 'yaml', text: () => aliasBomb() },
    { name: '10,000 keys', fileName: 'config.json', languageId: 'json', text: () => manyKeys(10_000) },
    { name: 'max_position_embeddings 1e12', fileName: 'config.json', languageId: 'json', text: () => config({ max_position_embeddings: 1e12 }) },
    { name: 'head_dim 0', fileName: 'config.json', languageId: 'json', text: () => config({ head_dim: 0 }) },
    { name: 'head_dim 127 (odd)', fileName: 'config.json', languageId: 'json', text: () => config({ head_dim: 127 }) },
    // issue 25: a head dimension no model has, which sized an inv_freq table of 600 million entries.
    { name: 'head_dim 1e9', fileName: 'config.json', languageId: 'json', text: () => config({ head_dim: 1e9 }) },
    { name: 'rope_theta 1', fileName: 'config.json', languageId: 'json', text: () => config({ rope_theta: 1 }) },
    { name: 'rope_theta 1e300', fileName: 'config.json', languageId: 'json', text: () => config({ rope_theta: 1e300, max_position_embeddings: 131072 }) },
  ];
  if (big) {
    out.push(
      { name: '50 MB tokenizer.json', fileName: 'tokenizer.json', languageId: 'json', text: () => bigTokenizer(50_000_000) },
      { name: '50 MB config.json', fileName: 'config.json', languageId: 'json', text: () => bigConfig(50_000_000) },
    );
  }
  return out;
}
