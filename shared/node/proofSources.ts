/**
 * The hash PROOF_CODE_VERSION must equal (bstar/table/codeVersion.ts): sha256 over the proof sources,
 * each as `path\n` + its text, first 12 hex digits. The table generator refuses to stamp rows with a
 * constant that no longer matches the sources, and a unit test fails until it is updated.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROOF_SOURCES } from '../bstar/table/codeVersion';

export function proofSourcesHash(root: string): string {
  const h = createHash('sha256');
  for (const p of PROOF_SOURCES) {
    h.update(`${p}\n`);
    h.update(readFileSync(join(root, p), 'utf8'));
  }
  return h.digest('hex').slice(0, 12);
}
