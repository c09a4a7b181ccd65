/**
 * YAML as PyYAML reads it (axolotl, LLaMA-Factory, torchtune, vLLM's --config, docker compose's
 * own loader behaves alike): a syntax error stops the load, and a key written twice in one
 * mapping loads silently with the last value — the first is dead. The tree reader
 * (parseYaml.ts) is tolerant on purpose; this checker counts what a strict reader would object
 * to, so a fix can be held to "no new error, no key written twice". Every document of a
 * multi-document file (Kubernetes) is read.
 */
import { parseAllDocuments } from 'yaml';
import { duplicateKeyErrors } from './yamlDuplicateKeys';
import { guardYamlNesting, MAX_YAML_NESTING } from './yamlGuard';

export interface YamlStrictProblem {
  kind: 'syntax' | 'duplicate-key';
  message: string;
  offset: number;
  length: number;
}

export function checkYamlStrict(text: string): YamlStrictProblem[] {
  const out: YamlStrictProblem[] = [];
  let docs: ReturnType<typeof parseAllDocuments>;
  // PyYAML's recursive composer refuses nesting this deep too; the part is blanked before parsing (yamlGuard).
  const guarded = guardYamlNesting(text);
  for (const b of guarded.blanked) out.push({ kind: 'syntax', message: `nested more than ${MAX_YAML_NESTING} levels deep`, offset: b.offset, length: 1 });
  try {
    // Repeated keys are found in one pass below (the package's own check is quadratic in a mapping's keys).
    docs = parseAllDocuments(guarded.text, { version: '1.1', uniqueKeys: false, prettyErrors: false });
  } catch (e) {
    return [{ kind: 'syntax', message: (e as Error).message, offset: 0, length: 0 }];
  }
  const list = Array.isArray(docs) ? docs : [docs];
  for (const d of list) {
    for (const e of duplicateKeyErrors(d)) out.push({ kind: 'duplicate-key', ...e });
    for (const e of d.errors) {
      out.push({
        kind: e.code === 'DUPLICATE_KEY' ? 'duplicate-key' : 'syntax',
        message: e.message.split('\n')[0],
        offset: e.pos[0],
        length: Math.max(0, e.pos[1] - e.pos[0]),
      });
    }
  }
  return out;
}
