/**
 * Every number RoPE Lens shows goes through one of these: messages and fix titles, hovers and
 * hints, the CLI, the Inspector's axes and tables, the kernel benchmark. Pure; no imports.
 */

/** Numbers for messages: 10000 → "10,000", 40889.94 → "40,889.94". */
export function fmt(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  if (Math.abs(n) >= 1e15) return n.toExponential(3);
  return enUS(n, { maximumFractionDigits: 2 });
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
  return Number.isInteger(n) ? enUS(n) : String(n);
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
  return enUS(Math.round(v));
}

export function fmtFixed(v: number | null | undefined, digits = 3): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return '–';
  return v.toFixed(digits);
}

/** Exact bounds in the CLI: 8 significant digits (what the certified sweep resolves), exponent form from 1e7. */
export function boundFigure(x: number): string {
  return Math.abs(x) >= 1e7 ? x.toExponential(6) : x.toPrecision(8);
}

/** The options of `toLocaleString('en-US', …)` that RoPE Lens uses. */
export interface EnUsOptions {
  maximumFractionDigits?: number;
  maximumSignificantDigits?: number;
  useGrouping?: boolean;
}

/**
 * `n.toLocaleString('en-US', opts)` without ICU: the first Intl call loads ICU's locale data, about
 * 6 MB of the language server's resident memory, for what is here thousands separators and
 * rounding. Same text (test/unit/formatEnUs.test.ts compares the two): the shortest decimal of `n`
 * rounded half away from zero, trailing zeros dropped, groups of three, "-" for negatives (also
 * "-0"), "NaN", "∞". Numbers String() writes with an exponent (< 1e-6, ≥ 1e21) go to Intl itself.
 */
export function enUS(n: number, opts: EnUsOptions = {}): string {
  if (Number.isNaN(n)) return 'NaN';
  if (!Number.isFinite(n)) return n > 0 ? '∞' : '-∞';
  const s = String(Math.abs(n));
  if (s.includes('e')) return n.toLocaleString('en-US', opts);
  const dot = s.indexOf('.');
  const intPart = dot < 0 ? s : s.slice(0, dot);
  const digits = dot < 0 ? s : intPart + s.slice(dot + 1);
  const point = intPart.length;
  // How many digits after the decimal point survive (negative: rounding into the integer part).
  let keep: number;
  if (opts.maximumSignificantDigits !== undefined) {
    const first = digits.search(/[1-9]/);
    keep = first < 0 ? 0 : opts.maximumSignificantDigits - (point - first);
  } else keep = opts.maximumFractionDigits ?? 3;
  const cut = point + keep; // at least 1: keep ≥ 0, or ≥ 1 - point - first with significant digits
  let kept = digits;
  let intLen = point;
  if (cut < digits.length) {
    const head = digits.slice(0, cut);
    kept = digits.charCodeAt(cut) >= 53 /* '5' */ ? increment(head) : head;
    if (kept.length > head.length) intLen++; // the carry added a digit in front
    kept = kept.padEnd(intLen, '0');
  }
  let int = kept.slice(0, intLen).replace(/^0+(?=\d)/, '') || '0';
  const frac = kept.slice(intLen).replace(/0+$/, '');
  if (opts.useGrouping !== false) int = int.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return (n < 0 || Object.is(n, -0) ? '-' : '') + int + (frac ? `.${frac}` : '');
}

/** A digit string plus one in its last place ('' + 1 is '1'). */
function increment(d: string): string {
  const a = d.split('');
  let i = a.length - 1;
  while (i >= 0 && a[i] === '9') a[i--] = '0';
  if (i < 0) return `1${a.join('')}`;
  a[i] = String(Number(a[i]) + 1);
  return a.join('');
}
