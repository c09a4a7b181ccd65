/**
 * A context length as a person types it: `131072`, `131_072`, `128k`, `1m` (k and m are
 * 1024-based, as context lengths are quoted). One parser for the CLI's flags and the editor's
 * input box, so both accept the same spellings.
 */
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
  const parts = raw.split(/[,\s]+/).map((s) => s.trim()).filter(Boolean);
  const out: number[] = [];
  for (const p of parts) {
    const r = parseContextLength(p);
    if (!r.ok) return r;
    out.push(r.value);
  }
  return { ok: true, value: out };
}
