/**
 * The sizes RoPE Lens is willing to work with, in one place. Every value read from a user's file
 * that sizes work (an inv_freq table, a loop over channel pairs or layers, a scan over positions,
 * a list of per-pair factors) is checked against these before anything is allocated or looped
 * over: a config with `"head_dim": 1199763050` must get its finding at once, not after the server
 * has spent minutes filling a 4.8 GB table. Readers, validators and rules import these; nothing
 * else should hold its own copy of a cap.
 */

/**
 * Largest head (or rotary) dimension computed with. Public configs use 32–512 channels per head
 * (Llama 128, Gemma 3 256, Gemma 4's global layers 512); 4096 leaves 8× headroom over the largest
 * for research models while keeping every per-pair table and f_b sum a few thousand entries. A
 * larger value cannot be a real model (with 32 heads it would be a 131,072-wide attention block)
 * and is reported as rope/invalid-value instead of computed with.
 */
export const MAX_HEAD_DIM = 4096;

/**
 * Largest length (context, training sequence, target) the exact b* engine scans: 2^24 positions.
 * One float64 scan of it takes ~2 s; beyond, answers would take minutes. Longer contexts are read
 * and reported, but not bounded.
 */
export const MAX_LENGTH = 1 << 24;

/**
 * Largest layer count laid out layer by layer (attention groups, per-layer patterns). Real models
 * have at most a few hundred layers; beyond this the layout is not expanded.
 */
export const MAX_LAYERS = 10_000;

/**
 * Characters of a user's value quoted back in a message before the rest is elided ("…"). The
 * rope_scaling dicts of public configs fit whole (Llama 3.1's repr is 129 characters, DeepSeek-V3's
 * 143); junk (a nested object, a long list) shows its beginning only.
 */
export const MAX_QUOTED_CHARS = 160;

/** True for an integer in [1, max]: a size that may be allocated or looped over. */
export function isWorkableSize(value: unknown, max: number): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= max;
}

/** A head or rotary dimension small enough to compute with (any parity: evenness is checked by the rules). */
export function isWorkableDim(dim: unknown): dim is number {
  return isWorkableSize(dim, MAX_HEAD_DIM);
}

/** A layer count small enough to lay out one by one. */
export function isWorkableLayerCount(n: unknown): n is number {
  return isWorkableSize(n, MAX_LAYERS);
}

/**
 * What is read from a neighbour file (a requirements or lock file, a Dockerfile, compose file or
 * script beside the checked config) to find the consumers it pins. Real ones are a few KB; the
 * caps keep one pathological neighbour (a base64 blob, a vendored bundle) from costing the
 * checked file anything. A file over the byte cap is not read; a line over the line cap is
 * skipped (a pin, an image reference or a `pip install` is never that long). Both are said.
 */
export const MAX_NEIGHBOUR_BYTES = 2 * 1024 * 1024;
export const MAX_NEIGHBOUR_LINE_CHARS = 16 * 1024;
