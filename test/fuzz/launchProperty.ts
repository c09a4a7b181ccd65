/**
 * The launch readers and the workspace walk under hostile input: no crash, the service's
 * invariants (harness.ts), and a growth check: a tenfold larger input costs at most ~12× the time
 * (the least CPU time of interleaved runs, measured again before failing, so a busy machine's
 * pauses do not count). No format or shape is exempt. `npm test` runs it small
 * with a fixed seed (test/unit/launchFuzz.test.ts), `npm run fuzz` large with a fresh one.
 */
import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { mayBeLaunchFileName } from '../../shared/launch/index';
import type { ShellParser } from '../../shared/launch/types';
import { nodeWorkspaceFacts } from '../../shared/node/consumerPins';
import { loadShellParser } from '../../shared/node/shellParser';
import { Walker } from '../../server/cli/walk';
import { checkInvariants } from './harness';
import { FILE_NAMES, FORMATS, SHAPES, hostileLaunch, hostileLaunchFile } from './launchInputs';

/** CPU time this process has used, in ms: unlike the wall clock it does not count the time other processes hold the cores. */
function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/**
 * Least CPU time of `runs` calls of each function, the calls interleaved (a, b, a, b…) so that a
 * busy spell on the machine slows both sizes alike rather than one.
 */
function minTimes(fs: (() => void)[], runs: number): number[] {
  const best = fs.map(() => Number.POSITIVE_INFINITY);
  for (let i = 0; i < runs; i++)
    fs.forEach((f, k) => {
      const t0 = cpuMs();
      f();
      best[k] = Math.min(best[k], cpuMs() - t0);
    });
  return best;
}

/** Growth allowed for 10× the input: linear with some room, plus a few ms for timer and GC noise on small inputs. */
const MAX_GROWTH = 12;
const NOISE_MS = 50;
/** A case over the limit is measured again this many times; it fails only if it is over every time (a busy CI machine). */
const RETRIES = 2;

/**
 * Whether the larger input stays within MAX_GROWTH× the smaller's time; the times of the last
 * measurement, for the message. `small` is run once first so the code paths are compiled.
 */
function grows(small: () => void, large: () => void, repeats: number): { linear: boolean; t1: number; t10: number } {
  small();
  let t1 = 0;
  let t10 = 0;
  for (let attempt = 0; attempt <= RETRIES; attempt++) {
    [t1, t10] = minTimes([small, large], repeats + attempt * repeats);
    if (t10 <= MAX_GROWTH * t1 + NOISE_MS) return { linear: true, t1, t10 };
  }
  return { linear: false, t1, t10 };
}

/** A folder tree of `width` folders of five files each, and a chain of `depth` nested folders, each with a link back up (a cycle the walk must not enter). */
function writeTree(root: string, width: number, depth: number): void {
  for (let i = 0; i < width; i++) {
    const d = join(root, `w${i}`);
    mkdirSync(d);
    for (const name of ['config.json', 'serve.sh', 'Dockerfile', 'notes.txt', 'train.yaml']) writeFileSync(join(d, name), '');
  }
  let d = root;
  for (let i = 0; i < depth; i++) {
    d = join(d, 'd');
    mkdirSync(d);
    writeFileSync(join(d, 'config.json'), '');
    symlinkSync('..', join(d, 'up'));
  }
}

export function launchProperties(opts: {
  runs: number;
  seed?: number;
  maxSize: number;
  growthSize: number;
  walkSize: number;
  walkDepth: number;
  repeats: number;
}): void {
  let shell: ShellParser;
  before(async function () {
    this.timeout(60_000);
    shell = await loadShellParser();
  });

  it(`hostile launch files in every format never break the service (${opts.runs} inputs up to ${opts.maxSize} characters)`, function () {
    this.timeout(0);
    fc.assert(
      fc.property(hostileLaunchFile(opts.maxSize), ({ format, text }) => {
        checkInvariants(text, `/w/${FILE_NAMES[format]}`, undefined, { shellParser: shell });
      }),
      { numRuns: opts.runs, seed: opts.seed, endOnFailure: true },
    );
  });

  it(`10× the input costs at most ${MAX_GROWTH}× the time, for each format and shape (${opts.growthSize} → ${opts.growthSize * 10} characters)`, function () {
    this.timeout(0);
    const slow: string[] = [];
    for (const format of FORMATS)
      for (const shape of SHAPES) {
        const run = (text: string) => () => checkInvariants(text, `/w/${FILE_NAMES[format]}`, undefined, { shellParser: shell });
        const g = grows(run(hostileLaunch(format, shape, opts.growthSize)), run(hostileLaunch(format, shape, opts.growthSize * 10)), opts.repeats);
        if (!g.linear) slow.push(`${format}/${shape}: ${g.t1.toFixed(1)} ms → ${g.t10.toFixed(1)} ms`);
      }
    assert.deepEqual(slow, [], 'super-linear growth');
  });

  it('the folder walk of `rope-lens check <folder>`: 10× the folders, or a chain of folders (each with a cycle link) whose paths are 10× longer in all, costs at most ~12× the time', function () {
    this.timeout(0);
    const root = mkdtempSync(join(tmpdir(), 'rope-lens-tree-'));
    try {
      const walk = (dir: string, expected: number) => () => {
        const w = new Walker({
          wanted: (n) => n !== '.rope-lens.yaml' && (/\.(?:json|ya?ml)$/.test(n) || mayBeLaunchFileName(n)),
          skipFolder: (n) => n === 'node_modules',
        });
        w.addFolder(dir);
        assert.equal(w.result.files.length, expected);
      };
      const n = opts.walkSize;
      // A chain's paths grow with its depth, so √10× the depth is 10× the characters of the paths it lists.
      const depth = opts.walkDepth;
      const cases: [string, [number, number], [number, number]][] = [
        ['wide', [n, 0], [10 * n, 0]],
        ['deep', [0, depth], [0, Math.round(depth * Math.sqrt(10))]],
      ];
      for (const [name, [w1, d1], [w10, d10]] of cases) {
        const small = join(root, `${name}-1`);
        const large = join(root, `${name}-10`);
        mkdirSync(small);
        mkdirSync(large);
        writeTree(small, w1, d1);
        writeTree(large, w10, d10);
        // Four files a wide folder (notes.txt is not one), one a deep one; every `up` link is a cycle, said once each.
        const g = grows(walk(small, 4 * w1 + d1), walk(large, 4 * w10 + d10), opts.repeats);
        assert.ok(g.linear, `${name} walk ${g.t1.toFixed(1)} ms → ${g.t10.toFixed(1)} ms`);
      }
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('the workspace walk: hostile neighbours of every shape never break the pin scan, and 10× larger ones cost at most ~12× the time', function () {
    this.timeout(0);
    const root = mkdtempSync(join(tmpdir(), 'rope-lens-walk-'));
    try {
      const slow: string[] = [];
      for (const shape of SHAPES) {
        const scan = (size: number) => {
          const dir = join(root, `${shape}-${size}`);
          mkdirSync(dir);
          for (const format of FORMATS) writeFileSync(join(dir, FILE_NAMES[format]), hostileLaunch(format, shape, size));
          writeFileSync(join(dir, 'requirements.txt'), `vllm==0.6.3\n${'x'.repeat(size)}\n`);
          // A fresh Node facts object each time: the scan itself is measured, not its cache.
          return () => {
            const pins = nodeWorkspaceFacts().pinsFor(join(dir, 'config.json'));
            assert.ok(pins.some((p) => p.pkg === 'vllm'));
          };
        };
        const g = grows(scan(opts.growthSize), scan(opts.growthSize * 10), opts.repeats);
        if (!g.linear) slow.push(`pin scan beside ${shape} neighbours: ${g.t1.toFixed(1)} ms → ${g.t10.toFixed(1)} ms`);
      }
      assert.deepEqual(slow, [], 'super-linear growth');
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
}
