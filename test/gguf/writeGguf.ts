/**
 * A GGUF writer for tests and the bench, written from the format's documentation
 * (ggml-org/ggml docs/gguf.md): little-endian, magic "GGUF", uint32 version 3, uint64 tensor_count,
 * uint64 metadata_kv_count, then each KV as (gguf_string key, uint32 type, value), then each tensor
 * info as (gguf_string name, uint32 n_dims, uint64 dims[n_dims], uint32 ggml_type, uint64 offset).
 * A gguf_string is a uint64 byte length and UTF-8 bytes. Independent of the parser under test.
 */
import { closeSync, ftruncateSync, openSync, writeSync } from 'node:fs';

export type GgufValue =
  | { t: 'u32'; v: number }
  | { t: 'i32'; v: number }
  | { t: 'f32'; v: number }
  | { t: 'bool'; v: boolean }
  | { t: 'str'; v: string }
  | { t: 'u64'; v: bigint }
  | { t: 'f64'; v: number }
  | { t: 'arr'; of: 'str'; v: string[] }
  | { t: 'arr'; of: 'f32'; v: number[] };

const TYPE = { u32: 4, i32: 5, f32: 6, bool: 7, str: 8, arr: 9, u64: 10, f64: 12 } as const;

export const u32 = (v: number): GgufValue => ({ t: 'u32', v });
export const f32 = (v: number): GgufValue => ({ t: 'f32', v });
export const str = (v: string): GgufValue => ({ t: 'str', v });
export const u64 = (v: bigint): GgufValue => ({ t: 'u64', v });

class Bytes {
  private parts: Buffer[] = [];
  u32(n: number) {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(n);
    this.parts.push(b);
  }
  i32(n: number) {
    const b = Buffer.alloc(4);
    b.writeInt32LE(n);
    this.parts.push(b);
  }
  u64(n: bigint) {
    const b = Buffer.alloc(8);
    b.writeBigUInt64LE(n);
    this.parts.push(b);
  }
  f32(n: number) {
    const b = Buffer.alloc(4);
    b.writeFloatLE(n);
    this.parts.push(b);
  }
  f64(n: number) {
    const b = Buffer.alloc(8);
    b.writeDoubleLE(n);
    this.parts.push(b);
  }
  u8(n: number) {
    this.parts.push(Buffer.from([n]));
  }
  str(s: string) {
    const b = Buffer.from(s, 'utf8');
    this.u64(BigInt(b.length));
    this.parts.push(b);
  }
  raw(b: Buffer) {
    this.parts.push(b);
  }
  done(): Buffer {
    return Buffer.concat(this.parts);
  }
}

function writeValue(out: Bytes, value: GgufValue): void {
  switch (value.t) {
    case 'u32':
      return out.u32(value.v);
    case 'i32':
      return out.i32(value.v);
    case 'f32':
      return out.f32(value.v);
    case 'bool':
      return out.u8(value.v ? 1 : 0);
    case 'str':
      return out.str(value.v);
    case 'u64':
      return out.u64(value.v);
    case 'f64':
      return out.f64(value.v);
    case 'arr':
      out.u32(TYPE[value.of]);
      out.u64(BigInt(value.v.length));
      for (const x of value.v) value.of === 'str' ? out.str(x as string) : out.f32(x as number);
  }
}

export interface TensorInfo {
  name: string;
  dims: number[];
  ggmlType: number;
  offset: bigint;
}

/** The header bytes: magic, version, counts, KV pairs, tensor infos, padded to `alignment`. */
export function ggufHeader(
  kv: Record<string, GgufValue>,
  tensors: TensorInfo[] = [],
  opts: { version?: number; magic?: string; alignment?: number } = {},
): Buffer {
  const out = new Bytes();
  out.raw(Buffer.from(opts.magic ?? 'GGUF', 'latin1'));
  out.u32(opts.version ?? 3);
  out.u64(BigInt(tensors.length));
  out.u64(BigInt(Object.keys(kv).length));
  for (const [k, v] of Object.entries(kv)) {
    out.str(k);
    out.u32(TYPE[v.t]);
    writeValue(out, v);
  }
  for (const t of tensors) {
    out.str(t.name);
    out.u32(t.dims.length);
    for (const d of t.dims) out.u64(BigInt(d));
    out.u32(t.ggmlType);
    out.u64(t.offset);
  }
  const header = out.done();
  const align = opts.alignment ?? 32;
  const pad = (align - (header.length % align)) % align;
  return Buffer.concat([header, Buffer.alloc(pad)]);
}

/** Writes the header and extends the file to `totalBytes` without writing the rest (a sparse file where supported). */
export function writeGguf(path: string, header: Buffer, totalBytes = header.length): void {
  const fd = openSync(path, 'w');
  try {
    writeSync(fd, header, 0, header.length, 0);
    if (totalBytes > header.length) ftruncateSync(fd, totalBytes);
  } finally {
    closeSync(fd);
  }
}

/**
 * Header metadata of Qwen/Qwen2.5-7B-Instruct-GGUF as published (what convert_hf_to_gguf.py writes
 * from the model's config.json: 28 layers, hidden 3584, 28 heads / 4 KV heads, FFN 18944,
 * rope_theta 1e6, max_position_embeddings 32768, no rope_scaling), plus a token list stub.
 */
export function qwen25InstructMetadata(): Record<string, GgufValue> {
  return {
    'general.architecture': str('qwen2'),
    'general.type': str('model'),
    'general.name': str('Qwen2.5 7B Instruct'),
    'general.finetune': str('Instruct'),
    'general.basename': str('Qwen2.5'),
    'general.size_label': str('7B'),
    'general.license': str('apache-2.0'),
    'general.organization': str('Qwen'),
    'qwen2.block_count': u32(28),
    'qwen2.context_length': u32(32768),
    'qwen2.embedding_length': u32(3584),
    'qwen2.feed_forward_length': u32(18944),
    'qwen2.attention.head_count': u32(28),
    'qwen2.attention.head_count_kv': u32(4),
    'qwen2.rope.freq_base': f32(1000000),
    'qwen2.attention.layer_norm_rms_eps': f32(1e-6),
    'general.file_type': u32(15),
    'tokenizer.ggml.model': str('gpt2'),
    'tokenizer.ggml.pre': str('qwen2'),
    'tokenizer.ggml.tokens': { t: 'arr', of: 'str', v: ['!', '"', '#', '<|im_start|>', '<|im_end|>'] },
    'general.quantization_version': u32(2),
  };
}

/** Header metadata of a Llama-3.1-8B-Instruct GGUF (llama3 scaling lives in the rope_freqs tensor, not in keys). */
export function llama31InstructMetadata(): Record<string, GgufValue> {
  return {
    'general.architecture': str('llama'),
    'general.name': str('Meta Llama 3.1 8B Instruct'),
    'general.basename': str('Meta-Llama-3.1'),
    'general.finetune': str('Instruct'),
    'general.size_label': str('8B'),
    'llama.block_count': u32(32),
    'llama.context_length': u32(131072),
    'llama.embedding_length': u32(4096),
    'llama.feed_forward_length': u32(14336),
    'llama.attention.head_count': u32(32),
    'llama.attention.head_count_kv': u32(8),
    'llama.rope.freq_base': f32(500000),
    'llama.attention.layer_norm_rms_epsilon': f32(1e-5),
    'llama.rope.dimension_count': u32(128),
    'llama.vocab_size': u32(128256),
  };
}
