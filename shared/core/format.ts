/** Short, readable numbers for axes, legends and tables. */
export function fmtCompact(v: number | null | undefined): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return '–';
  const a = Math.abs(v);
  if (a === 0) return '0';
  if (a >= 1e12 || a < 1e-3) return v.toExponential(2);
  const units: [number, string][] = [[1e9, 'G'], [1e6, 'M'], [1e3, 'k']];
  for (const [u, s] of units) {
    if (a >= u) return trim((v / u).toPrecision(3)) + s;
  }
  return trim(v.toPrecision(4));
}

function trim(s: string): string {
  return s.includes('.') && !s.includes('e') ? s.replace(/\.?0+$/, '') : s;
}

/** Integer with thousands separators (context lengths). */
export function fmtInt(v: number | null | undefined): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return '–';
  return Math.round(v).toLocaleString('en-US');
}

export function fmtFixed(v: number | null | undefined, digits = 3): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return '–';
  return v.toFixed(digits);
}
