/**
 * rope/invalid-value (error): a value with which transformers computes garbage or raises — a base
 * ≤ 1 or not finite, a head dimension that is not a positive integer, a rotary dimension that is
 * zero, negative, fractional or odd, either one beyond MAX_HEAD_DIM (core/limits: far beyond any
 * real model, and never computed with), a context or
 * training length ≤ 0, a RoPE key whose value is not a number at all.
 * rope/absurd-value (warning): loadable but numerically absurd — a base so large that float32
 * inv_freq underflows to 0 for some channel pairs (they never rotate).
 *
 * Only values written in this document are judged (defaults are sane, and a base model's values
 * live in another file). The bound rule skips these values itself (see `boundable`).
 */
import type { ConfigNode } from '../document/configNode';
import { child } from '../document/configNode';
import type { Located, ModelRope } from '../config/modelRope';
import { keyPathOf, numberOf } from '../config/modelValues';
import { MAX_HEAD_DIM, isWorkableDim } from '../core/limits';
import type { Finding } from '../core/findings';
import { Rule, RuleContext, finding, fmt, keyRangeOf, rangeFor } from './context';

export const INVALID_VALUE = 'rope/invalid-value';
export const ABSURD_VALUE = 'rope/absurd-value';

/** Keys the config reader takes numbers from; a non-numeric value there is silently replaced by a default. */
const NUMERIC_KEYS = [
  'rope_theta',
  'rotary_emb_base',
  'rope_embedding_base',
  'rope_ratio',
  'rope_local_base_freq',
  'head_dim',
  'kv_channels',
  'partial_rotary_factor',
  'rotary_pct',
  'rotary_dim',
  'qk_rope_head_dim',
  'max_position_embeddings',
  'seq_length',
  'max_seq_len',
  'max_sequence_length',
  'n_positions',
];
const SCOPES = ['text_config', 'llm_config', 'language_config', 'text_model'];
const HIDDEN_KEYS = ['hidden_size', 'n_embd', 'd_model', 'dim'];

export const invalidValuesRule: Rule = {
  codes: [INVALID_VALUE, ABSURD_VALUE],
  check(ctx) {
    const out: Finding[] = [];
    if (ctx.fileKind === 'model-config') out.push(...nonNumeric(ctx));
    const rope = ctx.model ?? ctx.effective;
    if (rope) out.push(...checkRope(ctx, rope));
    const seq = ctx.training?.sequenceLength;
    if (seq?.node && !(Number.isFinite(seq.value) && seq.value > 0)) {
      out.push(
        finding(INVALID_VALUE, 'error', `${seq.key ?? 'sequence length'} ${fmt(seq.value)} must be a positive number of tokens.`, rangeFor(ctx.doc, seq)),
      );
    }
    return out;
  },
};

/** `"rope_theta": "abc"`, `true`, `{}`: not a number Python's float() reads (null means "use the default"). */
function nonNumeric(ctx: RuleContext): Finding[] {
  return unreadableNumbers(ctx).map((n) => {
    // The string itself is not quoted back: it may be anything ("NaN", "undefined", a whole paragraph).
    const shown = n.kind === 'string' ? "a string that Python's float() cannot read" : n.kind === 'boolean' ? `the boolean ${String(n.value)}` : `an ${n.kind}`;
    return finding(
      INVALID_VALUE,
      'error',
      `${keyPathOf(n)} is ${shown}, not a number: transformers uses it as is in the RoPE arithmetic and raises; RoPE Lens ignored it and used the default.`,
      rangeFor(ctx.doc, n),
    );
  });
}

const BASE_KEYS = new Set(['rope_theta', 'rotary_emb_base', 'rope_embedding_base', 'rope_ratio']);

/** True when a base key is written but unreadable: the base in use is a substitute default, not worth judging. */
export function baseUnreadable(ctx: RuleContext): boolean {
  return ctx.fileKind === 'model-config' && unreadableNumbers(ctx).some((n) => BASE_KEYS.has(n.key ?? ''));
}

/** Nodes of numeric RoPE keys (in the model's scopes) whose value is not a number. */
function unreadableNumbers(ctx: RuleContext): ConfigNode[] {
  const root = ctx.doc.root;
  const scopes: ConfigNode[] = root ? [root] : [];
  for (const s of SCOPES) {
    const n = child(root, s);
    if (n?.kind === 'object') scopes.push(n);
  }
  for (const s of [...scopes]) {
    for (const k of ['rope_parameters', 'rope_scaling']) {
      const n = child(s, k);
      if (n?.kind === 'object') scopes.push(n);
    }
  }
  const out: ConfigNode[] = [];
  for (const scope of scopes) {
    for (const key of NUMERIC_KEYS) {
      const n = child(scope, key);
      if (n && n.kind !== 'null' && numberOf(n) === undefined) out.push(n);
    }
  }
  return out;
}

function checkRope(ctx: RuleContext, rope: ModelRope): Finding[] {
  const out: Finding[] = [];
  const bases: Located<number>[] = [rope.base, ...(rope.layerVariants ?? []).map((v) => v.base)];
  const seen = new Set<ConfigNode>();
  const dimOk = checkDims(ctx, rope, out);
  for (const b of bases) {
    if (!b.node || seen.has(b.node)) continue;
    seen.add(b.node);
    const f = checkBase(ctx, b, dimOk ? rope.rotaryDim.value : undefined);
    if (f) out.push(f);
  }
  const c = rope.contextLength;
  if (c.node && !(Number.isFinite(c.value) && c.value > 0)) {
    out.push(
      finding(
        INVALID_VALUE,
        'error',
        `${c.key ?? 'max_position_embeddings'} ${fmt(c.value)} must be a positive number of positions: transformers sizes the RoPE cache and the attention mask with it.`,
        rangeFor(ctx.doc, c),
      ),
    );
  }
  const o = rope.originalContextLength;
  if (o?.node && !(Number.isFinite(o.value) && o.value > 0)) {
    out.push(
      finding(
        INVALID_VALUE,
        'error',
        `${o.key ?? 'original_max_position_embeddings'} ${fmt(o.value)} must be a positive number of positions: the scaling divides by it.`,
        rangeFor(ctx.doc, o),
      ),
    );
  }
  return out;
}

function checkBase(ctx: RuleContext, b: Located<number>, dim: number | undefined): Finding | undefined {
  const key = b.key ?? 'rope_theta';
  const name = key.endsWith('rope_ratio') ? `${key} gives the base 10000 × ratio = ${fmt(b.value)}, which` : `${key} ${fmt(b.value)}`;
  const range = rangeFor(ctx.doc, b);
  const v = b.value;
  if (!Number.isFinite(v)) {
    return finding(
      INVALID_VALUE,
      'error',
      `${name} is not a finite number: inv_freq = 1 / base^(2i/d) becomes 0 or not a number for every channel pair.`,
      range,
    );
  }
  if (v <= 0) {
    return finding(INVALID_VALUE, 'error', `${name} must be greater than 1: with a base ≤ 0, inv_freq = 1 / base^(2i/d) is infinite or not a number.`, range);
  }
  if (v === 1) {
    return finding(
      INVALID_VALUE,
      'error',
      `${name} must be greater than 1: with base 1, positions repeat every 2π tokens.`,
      range,
      [],
      'Every channel pair rotates at the same 1 rad/token, so positions carry no long-range information.',
    );
  }
  if (v < 1) {
    return finding(
      INVALID_VALUE,
      'error',
      `${name} must be greater than 1: below 1, every channel pair but the first aliases.`,
      range,
      [],
      'A base below 1 makes the frequencies grow with the channel index (inv_freq > 1 rad/token).',
    );
  }
  if (dim === undefined) return undefined;
  const frozen = frozenPairs(v, dim);
  if (frozen === 0) return undefined;
  return finding(
    ABSURD_VALUE,
    'warning',
    `Only ${dim / 2 - frozen} of ${dim / 2} frequency pairs encode position: ${frozen} underflow to 0 in float32 and never rotate.`,
    range,
    [],
    `${name} is numerically absurd: transformers computes inv_freq in float32.`,
  );
}

/**
 * Channel pairs whose float32 inv_freq is 0, computed as transformers does:
 * 1 / (base ** (arange(0, d, 2).float() / d)) with the base cast to float32.
 */
export function frozenPairs(base: number, dim: number): number {
  if (!isWorkableDim(dim)) return 0; // never loop over a dimension no model has (core/limits)
  const b32 = Math.fround(base);
  let frozen = 0;
  for (let i = 0; i < dim / 2; i++) {
    const p = Math.fround(Math.pow(b32, Math.fround((2 * i) / dim)));
    if (Math.fround(1 / p) === 0) frozen++;
  }
  return frozen;
}

/** Head and rotary dimension; false when the rotary dimension is unusable (the base is then not judged further). */
function checkDims(ctx: RuleContext, rope: ModelRope, out: Finding[]): boolean {
  const h = rope.headDim;
  const r = rope.rotaryDim;
  const p = rope.partialRotaryFactor;
  const hRange = h.node ? rangeFor(ctx.doc, h) : derivedRange(ctx);
  const hWritten = !!h.node || hRange !== undefined;
  if (hWritten && !(Number.isFinite(h.value) && Number.isInteger(h.value) && h.value > 0)) {
    const why = h.node ? '' : ` (${h.note ?? 'derived'})`;
    out.push(
      finding(
        INVALID_VALUE,
        'error',
        `head_dim ${fmt(h.value)}${why} must be a positive integer: it is the number of channels per attention head.`,
        hRange ?? rangeFor(ctx.doc, h),
      ),
    );
    return false;
  }
  if (hWritten && h.value > MAX_HEAD_DIM) {
    // Checked before anything sized by it (inv_freq tables, f_b sums, the bound) is computed.
    const why = h.node ? '' : ` (${h.note ?? 'derived'})`;
    out.push(
      finding(
        INVALID_VALUE,
        'error',
        `head_dim ${fmt(h.value)}${why} is far beyond any real model (public configs use 64 to 512 channels per head; RoPE Lens computes with at most ${fmt(MAX_HEAD_DIM)}): the attention projections could not be built with it, so nothing sized by it is checked.`,
        hRange ?? rangeFor(ctx.doc, h),
      ),
    );
    return false;
  }
  // An out-of-range factor has its own finding (rope/partial-rotary-range); do not pile on.
  if (p.node && !(p.value > 0 && p.value <= 1)) return false;
  // Not written here (a base model's, or derived from values this finding cannot point at): judged
  // elsewhere, but never computed with beyond the cap.
  if (!r.node && !hWritten) return isWorkableDim(r.value);
  const rRange = r.node ? rangeFor(ctx.doc, r) : hRange!;
  const how = r.note ? ` (${r.note})` : '';
  if (!Number.isFinite(r.value) || r.value <= 0) {
    out.push(finding(INVALID_VALUE, 'error', `the rotary dimension is ${fmt(r.value)}${how}: no channel rotates, so RoPE encodes no position at all.`, rRange));
    return false;
  }
  if (!Number.isInteger(r.value) || r.value % 2 !== 0) {
    out.push(
      finding(
        INVALID_VALUE,
        'error',
        `the rotary dimension ${fmt(r.value)}${how} must be an even integer: RoPE rotates channel pairs and rotate_half splits the rotary channels into two equal halves, so transformers fails with a shape mismatch at the first forward pass.`,
        rRange,
      ),
    );
    return false;
  }
  if (r.value > MAX_HEAD_DIM) {
    out.push(
      finding(
        INVALID_VALUE,
        'error',
        `the rotary dimension ${fmt(r.value)}${how} is far beyond any real model (public configs rotate at most 512 channels per head; RoPE Lens computes with at most ${fmt(MAX_HEAD_DIM)}), so nothing sized by it is checked.`,
        rRange,
      ),
    );
    return false;
  }
  return true;
}

/** In a model config, a head_dim derived from hidden_size / heads points at hidden_size. */
function derivedRange(ctx: RuleContext) {
  if (ctx.fileKind !== 'model-config' || !ctx.doc.root) return undefined;
  const scopes = [ctx.doc.root, ...SCOPES.map((s) => child(ctx.doc.root, s)).filter((n): n is ConfigNode => n?.kind === 'object')];
  for (const s of scopes.reverse()) {
    for (const k of HIDDEN_KEYS) {
      const n = child(s, k);
      if (n && numberOf(n) !== undefined) return keyRangeOf(ctx.doc, n);
    }
  }
  return undefined;
}
