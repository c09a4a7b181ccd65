/**
 * Every number RoPE Lens shows goes through one of these: messages and fix titles, hovers and
 * hints, the CLI, the Inspector's axes and tables, the kernel benchmark. Pure; no imports.
 */

/** Numbers for messages: 10000 → "10,000", 40889.94 → "40,889.94". */
export function fmt(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  if (Math.abs(n) >= 1e15) return n.toExponential(3);
  return n.toLocaleString('en-US', { maximumFractionDigits: 2 });
}

/** Plain number for fix titles (no thousands separators: it is what gets written), two decimals at most. */
export function fmtPlain(n: number): string {
  return Number.isInteger(n) ? String(n) : String(Math.round(n * 100) / 100);
}

/** 629978.3 → "6.30e5"; small integers stay plain (hovers, hints). */
export function sci(x: number): string {
  if (!Number.isFinite(x)) return String(x);
  if (Math.abs(x) < 1e4 && Number.isInteger(x)) return String(x);
  if (Math.abs(x) < 1e4) return x.toPrecision(4);
  return x.toExponential(2).replace('e+', 'e');
}

/** 131072 → "131,072"; non-integers as they are. */
export function grouped(n: number): string {
  return Number.isInteger(n) ? n.toLocaleString('en-US') : String(n);
}

/** `digits` significant digits, exponent form outside [1e-3, 1e6) (benchmark tables); '–' when unknown. */
export function significant(v: number | null | undefined, digits = 3): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return '–';
  const a = Math.abs(v);
  if (a !== 0 && (a >= 1e6 || a < 1e-3)) return v.toExponential(2);
  return Number(v.toPrecision(digits)).toString();
}

/** Full precision for machine-checkable CLI tables: 7 significant digits, exponent form when far from 1. */
export function precise(x: number, digits = 7): string {
  return Math.abs(x) >= 10 ** (digits - 1) || (x !== 0 && Math.abs(x) < 1e-3) ? x.toExponential(digits - 1) : x.toPrecision(digits).replace(/\.?0+$/, '');
}

/** Short, readable numbers for axes, legends and tables. */
export function fmtCompact(v: number | null | undefined): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return '–';
  const a = Math.abs(v);
  if (a === 0) return '0';
  if (a >= 1e12 || a < 1e-3) return v.toExponential(2);
  const units: [number, string][] = [
    [1e9, 'G'],
    [1e6, 'M'],
    [1e3, 'k'],
  ];
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

/** Exact bounds in the CLI: 8 significant digits (what the certified sweep resolves), exponent form from 1e7. */
export function boundFigure(x: number): string {
  return Math.abs(x) >= 1e7 ? x.toExponential(6) : x.toPrecision(8);
}
