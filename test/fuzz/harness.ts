/**
 * Shared checks for the property tests: run the analysis service on a text and verify the
 * invariants every front-end relies on (never throws, ranges inside the document, edits apply).
 */
import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { type AnalyzeOptions, analyzeText } from '../../shared/service/analyze';
import type { BoundOracle, FileAnalysis } from '../../shared/service/types';
import { LineIndex, Range } from '../../shared/document/positions';

/**
 * The seed of a fuzz suite: FUZZ_SEED replays a run; otherwise a fresh one, printed before the run
 * starts so a run that fails (or hangs) can be replayed whatever fast-check reports.
 */
export function fuzzSeed(suite: string): number {
  const given = process.env.FUZZ_SEED;
  const seed = given ? Number(given) : Math.floor(Math.random() * 0x7fffffff);
  console.log(`  ${suite}: seed ${seed}${given ? ' (FUZZ_SEED)' : ' (fresh; FUZZ_SEED to replay)'}`);
  return seed;
}

/** An oracle with fixed, instant answers: the fuzz targets the service, not the b* engine. */
export const instantOracle: BoundOracle = {
  lmax: (base, d, L) => (base < 1e5 && L > 4096 ? 4096 : null),
  bstar: (L) => 0.0424 * Math.pow(L, 1.628),
  threshold: (L) => 0.5 * Math.pow(L, 1.628),
  robust: () => null,
};

/** An oracle that knows nothing yet, as the server's is before the worker answers. */
export const unknownOracle: BoundOracle = { lmax: () => undefined, bstar: () => undefined, threshold: () => undefined, robust: () => undefined };

/**
 * Longest message a finding may have: the longest prose messages are ~700 characters; quoted values
 * add at most a short excerpt each (core/quote elides past MAX_QUOTED_CHARS), never the whole value.
 */
const MAX_MESSAGE_CHARS = 2000;

/**
 * The message without the spans where a user's text is shown as Python's repr prints it ('NaN', as
 * core/quote writes it). Double quotes are not exempt: JSON pasted into a Python message is a bug.
 */
function unquoted(message: string): string {
  // An opening ' follows a space or an opening bracket, so the apostrophe of "model's" or "`rope_scaling`'s" does not open a span.
  return message.replace(/(^|[\s([{:,=])'[^'\n]*'/g, "$1''");
}

function insideDocument(lines: LineIndex, r: Range, what: string): void {
  const startOff = lines.offsetAt(r.start);
  const endOff = lines.offsetAt(r.end);
  assert.ok(r.start.line >= 0 && r.start.character >= 0, `${what}: negative start ${JSON.stringify(r)}`);
  assert.ok(r.start.line < lines.lineCount && r.end.line < lines.lineCount, `${what}: line beyond the document ${JSON.stringify(r)}`);
  assert.ok(startOff <= endOff, `${what}: start after end ${JSON.stringify(r)}`);
  // A character past the end of its line would be clamped by editors: flag it.
  assert.equal(lines.positionAt(startOff).character, r.start.character, `${what}: start character beyond its line ${JSON.stringify(r)}`);
  assert.equal(lines.positionAt(endOff).character, r.end.character, `${what}: end character beyond its line ${JSON.stringify(r)}`);
}

/** Analyses `text` and asserts the service's invariants; returns the analysis. */
export function checkInvariants(text: string, fileName: string, oracle: BoundOracle = instantOracle, extra: Partial<AnalyzeOptions> = {}): FileAnalysis {
  let a: FileAnalysis;
  try {
    a = analyzeText(text, { fileName, oracle, ...extra });
  } catch (e) {
    throw new Error(`analyzeText threw on ${fileName}: ${(e as Error).stack}\n--- input ---\n${text.slice(0, 2000)}`);
  }
  const lines = new LineIndex(text);
  for (const d of a.diagnostics) {
    assert.ok(typeof d.message === 'string' && d.message.length > 0, 'empty message');
    // A computed NaN or a stringified object is a bug; a user's own text quoted back as Python shows it ('NaN') is not.
    assert.ok(!/NaN|undefined|\[object Object\]/.test(unquoted(d.message)), `message leaks a bad value: ${d.message}`);
    assert.ok(d.message.length <= MAX_MESSAGE_CHARS, `message of ${d.message.length} characters (quoted values must be elided): ${d.message.slice(0, 300)}…`);
    insideDocument(lines, d.range, `diagnostic ${d.code}`);
    for (const r of d.related ?? []) insideDocument(lines, r.range, `related of ${d.code}`);
    for (const f of d.fixes) for (const e of f.edits) insideDocument(lines, e.range, `fix "${f.title}"`);
  }
  return a;
}

/** Texts of every fixture below the given folders with one of the extensions. */
export function fixtureTexts(dirs: string[], exts: string[]): { path: string; text: string }[] {
  const out: { path: string; text: string }[] = [];
  const walk = (d: string) => {
    let names: string[];
    try {
      names = readdirSync(d);
    } catch {
      return;
    }
    for (const n of names) {
      const p = join(d, n);
      const st = statSync(p);
      if (st.isDirectory()) walk(p);
      else if (exts.some((e) => n.endsWith(e)) && st.size < 1_000_000) out.push({ path: p, text: readFileSync(p, 'utf8') });
    }
  };
  dirs.forEach(walk);
  return out;
}
