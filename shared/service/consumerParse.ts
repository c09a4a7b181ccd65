/**
 * What the program that reads a file objects to, counted by kind: Python's `json` for a JSON
 * config (transformers' loader), PyYAML for YAML (trainers, vLLM's --config, compose, Kubernetes),
 * Docker's JSON for exec-form instructions, bash for shell scripts (what the shell reader could
 * not parse, and continuations bash would not continue). Fix verification compares the counts
 * before and after a fix: a fix that adds any is not offered. Each reader is its own module
 * (document/strictJson, document/yamlStrict, launch/execForm, launch/shellContinuation).
 */
import { checkStrictJson } from '../document/strictJson';
import { checkYamlStrict } from '../document/yamlStrict';
import { checkExecForms } from '../launch/execForm';
import { formatOf } from '../document/parse';
import { launchFormatOf } from '../launch/format';
import type { LaunchFile } from '../launch/types';
import type { TextEdit } from '../core/findings';
import { splitLikeCompose } from '../launch/shellwords';

/** Problem counts by kind ("json syntax", "yaml duplicate key", "exec form", "shell syntax"…). */
export type ConsumerProblems = Map<string, number>;

export interface ConsumerParseInput {
  text: string;
  fileName: string;
  languageId?: string;
  /** The launch reader for this file (shell grammar injected), for shell scripts and Dockerfiles. */
  readLaunch?: (text: string) => LaunchFile | undefined;
}

export function consumerProblems(x: ConsumerParseInput): ConsumerProblems {
  const out: ConsumerProblems = new Map();
  const add = (k: string, n = 1) => {
    if (n > 0) out.set(k, (out.get(k) ?? 0) + n);
  };
  const launch = launchFormatOf(x.fileName, x.languageId, x.text);
  if (launch === 'shell' || launch === 'dockerfile') {
    if (launch === 'dockerfile') add('Docker exec form that is not a JSON array', checkExecForms(x.text).length);
    const file = x.readLaunch?.(x.text);
    if (file) add(`${launch} syntax the reader could not parse`, file.problems.length);
    return out;
  }
  const format =
    formatOf(x.languageId ?? '') ??
    formatOf(x.fileName) ??
    (launch && ['compose', 'kubernetes', 'skypilot', 'dstack', 'helm-values'].includes(launch) ? 'yaml' : undefined);
  if (format === 'json') {
    const r = checkStrictJson(x.text);
    if (r.syntax) add("JSON Python's json refuses");
    add('JSON key written twice', r.duplicates.length);
  } else if (format === 'yaml') {
    for (const p of checkYamlStrict(x.text)) add(p.kind === 'duplicate-key' ? 'YAML key written twice in one mapping' : 'YAML PyYAML refuses');
  }
  return out;
}

/** The kinds of problem `after` has more of than `before` (empty: the consumer reads it as well as before). */
export function newConsumerProblems(before: ConsumerProblems, after: ConsumerProblems): string[] {
  return [...after].filter(([k, n]) => n > (before.get(k) ?? 0)).map(([k]) => k);
}

/**
 * bash: the words a fix writes into a shell script, split as a shell splits them, each reach a
 * command as (part of) an argument or its environment — not a comment, not a command of their own.
 * The word that does not, or undefined.
 */
export function shellWordLost(x: ConsumerParseInput, edits: readonly TextEdit[]): string | undefined {
  if (launchFormatOf(x.fileName, x.languageId, x.text) !== 'shell' || !x.readLaunch) return undefined;
  const file = x.readLaunch(x.text);
  const reached = (file?.invocations ?? []).flatMap((i) => [...i.argv.map((t) => t.value), ...Object.entries(i.env).map(([k, t]) => `${k}=${t.value}`)]);
  for (const e of edits) {
    if (/^\s*#/.test(e.newText)) continue; // a comment moved out of a command
    for (const w of splitLikeCompose(e.newText.replace(/\\\r?\n/g, ' ')).words) {
      if (!reached.some((a) => a.includes(w.value))) return w.value;
    }
  }
  return undefined;
}
