/**
 * The model name a reference carries, whatever form it takes: a hub id (`Qwen/Qwen2.5-7B-Instruct`,
 * `org/name@rev`, Ollama's `hf.co/org/name:Q4_K_M`), a Hugging Face cache path
 * (`…/models--Qwen--Qwen3-30B-A3B/snapshots/<sha>/config.json`, or the folder), a GGUF file name
 * (`Qwen2.5-7B-Instruct-<task>-Q8_0.gguf`, split parts), a local folder, or a bare LitGPT-style
 * name (`Llama-3.1-8B`). Repacks that leave RoPE untouched (AWQ, GPTQ, FP8, bnb-4bit, MLX, -GGUF)
 * are stripped from the end, so the name left is the model's own. Pure string work.
 */

export interface ModelName {
  /** The organisation, when the reference has one (`unsloth`, `bartowski`, `Qwen`). */
  org?: string;
  /** The name as written (case kept), without file extension, split or quantisation suffixes. */
  name: string;
  /** What was stripped, in order (`-GGUF`, `-Q4_K_M`, `-AWQ`): repacks, not other models. */
  stripped: string[];
  /** The hub id the reference names (`org/name`), when it names one (a cache path or an id). */
  hubId?: string;
}

/** `…/models--org--name[/snapshots/<rev>…]` → `org/name` (huggingface_hub's cache layout). */
const CACHE_FOLDER = /(?:^|\/)models--([^/]+?)--([^/]+?)(?:\/|$)/;

/** The longest reference read as a model name (a cache path with its snapshot folder fits). */
export const MAX_NAME_LENGTH = 1024;

/** GGUF quantisation tags: Q8_0, Q4_K_M, IQ3_XS, UD-Q4_K_XL, F16, BF16, MXFP4… */
const QUANT_TAG = /[-_.](?:ud-)?(?:i?q\d(?:_[a-z0-9]+)*|f16|f32|bf16|fp16|mxfp4(?:_moe)?)$/i;

/**
 * Repack suffixes that change weights, not positions: quantisation methods and formats, with
 * their bit widths and group sizes (`-GPTQ-Int4`, `-AWQ-4bit`, `-FP8-Dynamic`, `-unsloth-bnb-4bit`,
 * `-MLX-4bit`, `-w4a16`, `-NVFP4`, `-GGUF`, `-4bit`).
 */
const REPACK =
  /[-_.](?:gguf|awq|gptq|exl2|exl3|mlx|bnb|unsloth|nvfp4|mxfp4|fp8|fp4|int4|int8|w4a16|w8a8|w8a16|w4a4|nf4|4bit|8bit|3bit|6bit|dynamic|quantized|dwq|hqq|gs\d+|g\d+|\d+bit|\d+bpw|int[48]-?(?:ov)?)$/i;

/** A multi-part GGUF's `-00001-of-00003`. */
const SPLIT_PART = /-\d{5}-of-\d{5}$/i;

function basename(p: string): string {
  const parts = p.split('/').filter((s) => s !== '');
  return parts[parts.length - 1] ?? '';
}

/** Strips repack and quantisation suffixes from a name, repeatedly (`-Instruct-AWQ-4bit` → `-Instruct`). */
export function stripRepack(name: string): { name: string; stripped: string[] } {
  const stripped: string[] = [];
  let n = name;
  for (let i = 0; i < 8; i++) {
    const m = SPLIT_PART.exec(n) ?? QUANT_TAG.exec(n) ?? REPACK.exec(n);
    // Keep at least one character of the name itself (a file called `Q8_0.gguf` is not a model).
    if (!m || m.index === 0) break;
    stripped.unshift(m[0]);
    n = n.slice(0, m.index);
  }
  return { name: n, stripped };
}

/** The model name of a reference, or undefined for an empty one. */
export function modelNameOf(ref: string): ModelName | undefined {
  let r = ref.trim().replace(/\\/g, '/');
  // Hub ids, cache paths and file names are short; a longer word (a blob in a launch file) names no
  // model, and the bound keeps the suffix patterns below linear in practice.
  if (r === '' || r.length > MAX_NAME_LENGTH) return undefined;
  // Ollama's `hf.co/org/name:Q4_K_M` and a hub id's `@revision`.
  r = r
    .replace(/^(?:https?:\/\/)?(?:hf\.co|huggingface\.co)\//i, '')
    .replace(/:[A-Za-z0-9_.-]+$/, (m) => (/^:(?:ud-)?(?:i?q\d|f16|f32|bf16|fp16|latest)/i.test(m) ? '' : m));
  const at = r.indexOf('@');
  if (at > 0 && !r.slice(0, at).includes('.gguf')) r = r.slice(0, at);
  const cache = CACHE_FOLDER.exec(r);
  if (cache) {
    const { name, stripped } = stripRepack(cache[2]);
    return { org: cache[1], name, stripped, hubId: `${cache[1]}/${cache[2]}` };
  }
  let file = basename(r);
  // An engine's own tag (Ollama's `qwen2.5-coder:14b`) is that engine's naming, not a model name.
  if (file.includes(':')) return undefined;
  // A config file names nothing: its folder does (`qwen2.5-7b-instruct/config.json`).
  if (/^(?:config|params|generation_config)\.json$/i.test(file)) file = basename(r.slice(0, r.lastIndexOf('/')));
  const gguf = /\.gguf$/i.test(file);
  const bare = file.replace(/\.(?:gguf|safetensors|bin|json)$/i, '');
  if (bare === '') return undefined;
  const { name, stripped } = stripRepack(bare);
  const segs = r.split('/').filter((s) => s !== '');
  const isHubId = !gguf && segs.length === 2 && /^[A-Za-z0-9][\w.-]*$/.test(segs[0]) && !r.startsWith('.') && !r.startsWith('/');
  const out: ModelName = { name, stripped: gguf ? ['.gguf', ...stripped] : stripped };
  if (isHubId) {
    out.org = segs[0];
    out.hubId = `${segs[0]}/${segs[1]}`;
  }
  return out;
}
