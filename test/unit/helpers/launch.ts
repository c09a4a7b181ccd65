/** Shared bits of the launch-adapter tests: the shell parser, fixtures, and span checks. */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LineMap } from '../../../shared/launch/text';
import type { Invocation, LaunchFile, Token } from '../../../shared/launch/types';
import { loadShellParser } from '../../../shared/node/shellParser';
import { createRopeLensService, type RopeLensService } from '../../../shared/service/service';
import { createSyncOracle } from '../../../shared/service/syncOracle';
import type { ShellParser } from '../../../shared/launch/types';

export const shellParser = loadShellParser;

/** The service with the shell grammar loaded and the synchronous oracle, as the whole-file launch tests use it. */
export async function launchService(): Promise<{ service: RopeLensService; shell: ShellParser }> {
  const shell = await shellParser();
  return { service: createRopeLensService({ oracle: createSyncOracle(), shellParser: () => shell }), shell };
}

export function fixture(name: string): string {
  return readFileSync(join(__dirname, '..', '..', 'fixtures', 'launch', 'adapters', name), 'utf8');
}

export const values = (tokens: Token[]) => tokens.map((t) => t.value);
export const argvOf = (inv: Invocation) => values(inv.argv);
export const envOf = (inv: Invocation) => Object.fromEntries(Object.entries(inv.env).map(([k, t]) => [k, t.value]));

/** Every token's raw text is the exact slice of the document at its offset, and its range says the same. */
export function assertExactSpans(text: string, file: LaunchFile | { invocations: Invocation[] }): void {
  const map = new LineMap(text);
  const check = (t: Token, what: string) => {
    assert.equal(text.slice(t.offset, t.offset + t.length), t.raw, `${what}: raw is the document slice`);
    assert.deepEqual(t.range, map.range(t.offset, t.length), `${what}: range matches offset/length`);
  };
  for (const inv of file.invocations) {
    inv.argv.forEach((t, i) => check(t, `argv[${i}] ${t.value}`));
    for (const [k, t] of Object.entries(inv.env)) check(t, `env ${k}`);
    if (inv.image) check(inv.image, 'image');
    assert.deepEqual(inv.range, map.range(inv.offset, inv.length), 'invocation range');
    if (inv.append) assert.deepEqual(inv.append.range, map.range(inv.append.offset, 0), 'append range');
  }
}

/** The token whose value is `value` (the first), failing when absent. */
export function tokenOf(inv: Invocation, value: string): Token {
  const t = inv.argv.find((x) => x.value === value);
  assert.ok(t, `no argv token ${value} in ${JSON.stringify(argvOf(inv))}`);
  return t;
}

/** The argument after a flag. */
export function after(inv: Invocation, flag: string): Token {
  const i = inv.argv.findIndex((x) => x.value === flag);
  assert.ok(i >= 0 && inv.argv[i + 1], `no ${flag} in ${JSON.stringify(argvOf(inv))}`);
  return inv.argv[i + 1];
}

/** Applies the invocation's append point with a new flag, as an engine fix would. */
export function appendFlag(text: string, inv: Invocation, flag: string): string {
  assert.ok(inv.append, 'the invocation has an append point');
  return text.slice(0, inv.append.offset) + inv.append.separator + flag + text.slice(inv.append.offset);
}
