/**
 * The folder walk of `rope-lens check <folder>` (server/cli/walk.ts) on links back up the tree.
 * `npm run fuzz` found it super-linear (launch fuzz seed 1841422056: a chain of 300 folders, each
 * with `up -> ..`, walked in 808 ms against 4.8 ms for 30): every link was resolved by realpath,
 * which looks up each folder above it. Work is counted here (realpath calls), not timed.
 */
import { strict as assert } from 'node:assert';
import fs, { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Walker } from '../../server/cli/walk';

/** A chain of `depth` folders under `top`, each holding a config and a link to its parent. */
function chain(top: string, depth: number): string {
  let d = top;
  for (let i = 0; i < depth; i++) {
    d = join(d, 'd');
    mkdirSync(d);
    writeFileSync(join(d, 'config.json'), '{}');
    symlinkSync('..', join(d, 'up'));
  }
  return d;
}

/** Walks `dir`, counting the realpath calls the walk makes. */
function walkCounting(dir: string): { walker: Walker; realpaths: number } {
  const original = fs.realpathSync;
  let realpaths = 0;
  const counting = ((...args: Parameters<typeof realpathSync>) => {
    realpaths++;
    return original(...args);
  }) as typeof realpathSync;
  counting.native = original.native;
  fs.realpathSync = counting;
  try {
    const walker = new Walker({ wanted: (n) => n.endsWith('.json'), skipFolder: () => false });
    walker.addFolder(dir);
    return { walker, realpaths };
  } finally {
    fs.realpathSync = original;
  }
}

describe('check <folder>: links back up the tree', () => {
  let root: string;
  beforeEach(() => {
    root = realpathSync(mkdtempSync(join(tmpdir(), 'rope-lens-walk-links-')));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('a chain of 300 folders with `up -> ..` in each: every config found, every link said as a cycle, no realpath per link', () => {
    chain(root, 300);
    const { walker, realpaths } = walkCounting(root);
    assert.equal(walker.result.files.length, 300);
    assert.equal(walker.result.notFollowed.length, 300);
    assert.ok(walker.result.notFollowed.every((n) => n.endsWith(': a symlink cycle (a folder above it)')));
    // One for the folder named on the command line and one for the working folder (the notes' paths), none per link.
    assert.ok(realpaths <= 2, `${realpaths} realpath calls`);
  });

  it('a `..` link read through a linked folder still names the real folder it returns to', () => {
    const real = join(root, 'real');
    mkdirSync(real);
    chain(real, 2);
    symlinkSync(real, join(root, 'alias'));
    const { walker } = walkCounting(join(root, 'alias'));
    assert.deepEqual(
      walker.result.notFollowed.map((n) => n.slice(n.indexOf(' -> ') + 4)),
      [join(real, 'd'), real].map((p) => `${p}: a symlink cycle (a folder above it)`),
    );
  });

  it('a link to a sibling or a dangling link is resolved as before', () => {
    mkdirSync(join(root, 'a'));
    writeFileSync(join(root, 'a', 'config.json'), '{}');
    symlinkSync('../a', join(root, 'a', 'again'));
    symlinkSync('./missing', join(root, 'a', 'gone.json'));
    const { walker } = walkCounting(root);
    assert.deepEqual(walker.result.files, [join(root, 'a', 'config.json')]);
    assert.ok(walker.result.notFollowed.includes(`${join(root, 'a', 'again')} -> ${join(root, 'a')}: a symlink cycle (a folder above it)`));
    assert.ok(walker.result.notFollowed.some((n) => n.includes('gone.json: a symbolic link to nothing (dangling)')));
  });
});
