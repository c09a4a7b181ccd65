/**
 * Fix verification: every fix is applied to the text and the result re-analysed; it is offered
 * only if, as the file's consumer reads it,
 *   1. it still parses as well as before (Python's json, PyYAML, Docker's exec-form JSON, bash:
 *      consumerParse.ts), every word it writes into a script reaches the command as bash splits
 *      it, and the file stays the same kind of file with as many launches;
 *   2. the finding is gone (one fewer of its code) and no warning or error of any code is new
 *      (a fix that needs a follow-up edit carries it, or is not offered);
 *   3. no launch whose model ran its own scaling now has it replaced by the command's (an ignored
 *      override made live, a flag that takes over the model's YaRN).
 * Fixes whose check waits on bounds not computed yet are kept (the server re-runs once they are).
 * When the preferred fix goes, the best-ranked remaining one is preferred.
 */
import type { FileAnalysis, Finding, Fix } from './types';
import type { LineIndex } from '../document/positions';
import { applyTextEdits } from '../fixes/textEdits';
import { preferredOf } from '../fixes/extension';
import { ConsumerProblems, consumerProblems, newConsumerProblems, shellWordLost, type ConsumerParseInput } from './consumerParse';

export interface VerifyInput {
  text: string;
  lines: LineIndex;
  analysis: FileAnalysis;
  /** The analysis of another text of this file, without verification. */
  reanalyse: (text: string) => FileAnalysis;
  consumer: Omit<ConsumerParseInput, 'text'>;
}

/** Why a fix is refused, or undefined when it passes. */
export type FixRefusal = string | undefined;

const SERIOUS = new Set(['error', 'warning']);

function counts(findings: readonly Finding[], serious: boolean): Map<string, number> {
  const m = new Map<string, number>();
  for (const d of findings) if (!serious || SERIOUS.has(d.severity)) m.set(d.code, (m.get(d.code) ?? 0) + 1);
  return m;
}

/** Checks one fix of `finding`; the reason it fails, or undefined. */
export function checkFix(x: VerifyInput, finding: Finding, fix: Fix, before: { parse: ConsumerProblems }): FixRefusal {
  let next: string;
  try {
    next = applyTextEdits(x.text, x.lines, fix.edits);
  } catch (e) {
    return `its edits do not apply (${(e as Error).message})`;
  }
  const newParse = newConsumerProblems(before.parse, consumerProblems({ ...x.consumer, text: next }));
  if (newParse.length) return `the result has ${newParse.join(', ')}`;
  const lost = shellWordLost({ ...x.consumer, text: next }, fix.edits);
  if (lost !== undefined) return `bash does not pass ${JSON.stringify(lost)} to the command`;
  const re = x.reanalyse(next);
  // Only lmax questions decide whether a finding is present; b* only colours the message.
  if (re.pendingBounds.some((p) => p.base !== undefined)) return undefined;
  if (re.kind !== x.analysis.kind) return `the file is no longer read as a ${x.analysis.kind}`;
  if ((re.launches?.length ?? 0) < (x.analysis.launches?.length ?? 0)) return 'a launch is no longer read';
  const all = counts(x.analysis.diagnostics, false),
    allAfter = counts(re.diagnostics, false);
  if (!((allAfter.get(finding.code) ?? 0) < (all.get(finding.code) ?? 0))) return `${finding.code} is still there`;
  const serious = counts(x.analysis.diagnostics, true);
  for (const [code, n] of counts(re.diagnostics, true)) {
    if (n > (serious.get(code) ?? 0)) {
      const d = re.diagnostics.find((f) => f.code === code && SERIOUS.has(f.severity))!;
      return `it brings a new ${d.severity} ${code}: ${d.message}`;
    }
  }
  if (!x.analysis.serving?.replacesModelScaling && re.serving?.replacesModelScaling) return 'the config would replace the scaling the model ships with';
  const launches = x.analysis.launches ?? [];
  for (let i = 0; i < launches.length; i++) {
    if (!launches[i].replacesModelScaling && re.launches?.[i]?.replacesModelScaling) {
      return 'the command would replace the scaling the model ships with';
    }
  }
  return undefined;
}

/** Filters every finding's fixes in place; `log` hears why each refused fix went. */
export function verifyFixes(input: VerifyInput, log?: (m: string) => void): void {
  // The launch reader runs twice per fix on the same text (parse counts, words reached): once is enough.
  const read = input.consumer.readLaunch;
  let last: { text: string; file: ReturnType<NonNullable<typeof read>> } | undefined;
  const x: VerifyInput = read
    ? { ...input, consumer: { ...input.consumer, readLaunch: (t) => (last?.text === t ? last.file : (last = { text: t, file: read(t) }).file) } }
    : input;
  const parse = consumerProblems({ ...x.consumer, text: x.text });
  const training = x.analysis.kind === 'training-config' || (x.analysis.launches ?? []).some((l) => l.role === 'training');
  for (const d of x.analysis.diagnostics) {
    if (!d.fixes.length) continue;
    const hadPreferred = d.fixes.some((f) => f.preferred);
    d.fixes = d.fixes.filter((fix) => {
      const why = checkFix(x, d, fix, { parse });
      if (why) log?.(`fix "${fix.title}" for ${d.code} not offered: ${why}`);
      return !why;
    });
    keepOnePreferred(d, hadPreferred, training);
  }
}

/**
 * After a finding's fixes were filtered: when the preferred one went (or only one fix is left), the
 * best-ranked remaining fix by the advice's ranking is preferred, so a finding that had a quick fix
 * keeps exactly one. Used by this verification and by the launch analysis's own (analyzeLaunch.ts).
 */
export function keepOnePreferred(d: Finding, hadPreferred: boolean, training: boolean): void {
  if (!d.fixes.length || d.fixes.some((f) => f.preferred)) return;
  if (hadPreferred || d.fixes.length === 1) {
    const best = preferredOf(d.fixes, training);
    if (best) best.preferred = true;
  }
}
