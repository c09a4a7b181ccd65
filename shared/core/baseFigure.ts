/**
 * How a base such as b* is printed so that the printed number is itself valid (issue 33).
 * b* is the left end of a narrow valid island: rounding it to the nearest figure can land just
 * below it (629,978.2628… shown as 629,978.26 fails at m = 30,704), and rounding far up can jump
 * past the island. So the figure is rounded *up*, and the shortest rounding whose value passes the
 * float64 scan (first failing m is null) is the one printed. Pure: the scan is passed in.
 */
import { enUS } from './format';

/** First failing m for a base, null when it holds for every m < L, undefined while not known yet. */
export type BaseScan = (base: number) => number | null | undefined;

/**
 * 'message': thousands separators and as few decimals as validity allows (messages, hovers, hints);
 * 'figure': plain digits, at least 8 significant, exponent form from 1e7 (the CLI's `bound` tables).
 */
export type BaseFigureStyle = 'message' | 'figure';

/** Decimals a 'message' figure may use; significant digits a 'figure' may use. */
const MESSAGE_DECIMALS = [0, 1, 2, 3, 4, 5, 6, 8, 10];
/** A 'message' figure keeps at least this many significant digits: "b* ≈ 4,293.438", not "4,294". */
const MESSAGE_SIGNIFICANT = 7;
const FIGURE_SIGNIFICANT = [8, 9, 10, 11, 12, 13, 14, 15, 16, 17];

interface Candidate {
  value: number;
  text: string;
}

/** `x` rounded up to `step`-multiples, never below x (a product can round under it in floating point). */
function ceilTo(x: number, digits: number, significant: boolean): number {
  const exponent = significant ? Math.floor(Math.log10(Math.abs(x))) - digits + 1 : -digits;
  // Beyond 2^52 units of the last digit, +1 is lost in float64: that many digits cannot be rounded (not printed).
  if (!(Math.abs(x) * 10 ** -exponent < 2 ** 52)) return Number.NaN;
  // Decimal strings, not products: 10 ** exponent is inexact for negative exponents.
  let v = Number(`${Math.ceil(Number(`${x}e${-exponent}`))}e${exponent}`);
  for (let step = 1; v < x && step <= 3; step++) v = Number(`${Math.ceil(Number(`${x}e${-exponent}`)) + step}e${exponent}`);
  return v < x ? Number.NaN : v;
}

function candidates(base: number, style: BaseFigureStyle): Candidate[] {
  const out: Candidate[] = [];
  if (style === 'message') {
    const integerDigits = Math.floor(Math.log10(Math.abs(base))) + 1;
    for (const d of MESSAGE_DECIMALS.filter((x) => x >= MESSAGE_SIGNIFICANT - integerDigits || x === MESSAGE_DECIMALS[MESSAGE_DECIMALS.length - 1])) {
      const value = ceilTo(base, d, false);
      out.push({ value, text: enUS(value, { maximumFractionDigits: d }) });
    }
  } else {
    for (const s of FIGURE_SIGNIFICANT) {
      const value = ceilTo(base, s, true);
      out.push({ value, text: Math.abs(value) >= 1e7 ? value.toExponential(s - 1).replace(/\.?0+e/, 'e') : trimZeros(value.toPrecision(s)) });
    }
  }
  // Equal values (a base that is already round) are asked once; a base too large for decimal digits is not printed.
  return out.filter((c, i) => Number.isFinite(c.value) && (i === 0 || c.value !== out[i - 1].value));
}

function trimZeros(s: string): string {
  return s.includes('.') && !s.includes('e') ? s.replace(/\.?0+$/, '') : s;
}

/**
 * The shortest upward rounding of `base` whose value the scan finds valid, as text; undefined while
 * an answer is pending or when no rounding up to the finest one is valid (the figure is then not
 * printed). With `askAll`, every candidate is asked at once, so an asynchronous scan answers in one round.
 */
export function validBaseFigure(base: number, scan: BaseScan, style: BaseFigureStyle = 'message', askAll = true): string | undefined {
  if (!(Number.isFinite(base) && base > 1)) return undefined;
  const list = candidates(base, style);
  // A synchronous scan (the CLI) is asked one candidate at a time: the first valid one ends it.
  const answers = askAll ? list.map((c) => scan(c.value)) : [];
  for (let i = 0; i < list.length; i++) {
    const answer = askAll ? answers[i] : scan(list[i].value);
    if (answer === undefined) return undefined;
    if (answer === null) return list[i].text;
  }
  return undefined;
}
