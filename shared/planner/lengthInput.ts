/**
 * A context length as a person types it: `131072`, `131_072`, `128k`, `1m` (k and m are
 * 1024-based, as context lengths are quoted). One parser for the CLI's flags and the editor's
 * input box, so both accept the same spellings.
 */
import { MAX_LENGTH } from '../bstar/validate';
import { enUS } from '../core/format';

const grouped = (n: number) => enUS(n);

export type ParsedLength = { ok: true; value: number } | { ok: false; reason: string };

export function parseContextLength(raw: string): ParsedLength {
  const t = raw.trim().replace(/[_,]/g, '').toLowerCase();
  const m = /^(\d+)(k|m)?$/.exec(t);
  if (!m) return { ok: false, reason: `'${raw.trim()}' is not a length: write an integer (131072, 131_072) or 1024-based 128k / 1m` };
  const n = Number(m[1]) * (m[2] === 'k' ? 1024 : m[2] === 'm' ? 1048576 : 1);
  if (!Number.isSafeInteger(n) || n <= 0) return { ok: false, reason: `'${raw.trim()}' is not a positive integer length` };
  return { ok: true, value: n };
}

/** A comma-separated list of stage lengths (empty text: no stages). */
export function parseStageList(raw: string): { ok: true; value: number[] } | { ok: false; reason: string } {
  const parts = raw
    .split(/[,\s]+/)
    .map((s) => s.trim())
    .filter(Boolean);
  const out: number[] = [];
  for (const p of parts) {
    const r = parseContextLength(p);
    if (!r.ok) return r;
    out.push(r.value);
  }
  return { ok: true, value: out };
}

/** Why `raw` is not a usable plan target for a model trained at `trained` (an input box's message), or undefined. */
export function targetProblem(raw: string, trained: number): string | undefined {
  const r = parseContextLength(raw);
  if (!r.ok) return r.reason;
  if (r.value <= trained) return `${grouped(r.value)} does not exceed the trained context ${grouped(trained)}: nothing to extend`;
  if (r.value > MAX_LENGTH) return `${grouped(r.value)} is beyond the longest length RoPE Lens plans (${grouped(MAX_LENGTH)})`;
  return undefined;
}

/** Why `raw` is not a usable list of stages between `trained` and `target`, or undefined. */
export function stagesProblem(raw: string, trained: number, target: number): string | undefined {
  const r = parseStageList(raw);
  if (!r.ok) return r.reason;
  let prev = trained;
  for (const l of r.value) {
    if (l <= prev) return `stages must increase from the trained context ${grouped(trained)}; ${grouped(l)} does not`;
    if (l >= target) return `each stage must be shorter than the target ${grouped(target)}`;
    prev = l;
  }
  return undefined;
}
