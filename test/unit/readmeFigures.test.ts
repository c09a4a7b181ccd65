/**
 * Figures the README and the docs/ pages state about the repository itself are checked here, not
 * copied by hand: the number of finding codes, the corpus' file counts, and the .vsix row of the
 * benchmark table (against dist/rope-lens.vsix when `npm run package` has built it). Each figure may
 * live on any of those pages, but on exactly one.
 */
import { strict as assert } from 'node:assert';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { FINDING_CODES } from '../../shared/core/codes';

const root = join(__dirname, '..', '..');
const pages = [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];
const texts = pages.map((p) => readFileSync(join(root, p), 'utf8'));

/** The one number a pattern captures in the README and docs/*.md (it must match exactly once in all of them). */
function figure(re: RegExp): string[] {
  const all = texts.flatMap((t) => [...t.matchAll(new RegExp(re.source, 'g'))]);
  assert.equal(all.length, 1, `README.md and docs/*.md: expected one match of ${re}, found ${all.length}`);
  return all[0].slice(1);
}

/** Entries of a zip file (its end-of-central-directory record). */
function zipEntries(file: string): number {
  const buf = readFileSync(file);
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 65_557); i--) {
    if (buf.readUInt32LE(i) === 0x06054b50) return buf.readUInt16LE(i + 10);
  }
  throw new Error(`${file}: not a zip file`);
}

describe('README and docs figures', () => {
  it("the number of finding codes is the registry's", () => {
    assert.equal(Number(figure(/`rope-lens rules` lists the (\d+) codes/)[0]), FINDING_CODES.length);
  });

  it('the corpus counts are the files in test/fixtures/corpus', () => {
    const count = (dir: string) => readdirSync(join(root, 'test', 'fixtures', 'corpus', dir)).filter((f) => /\.(json|ya?ml)$/.test(f)).length;
    const [models, training] = figure(/`test\/fixtures\/corpus`, (\d+) model configs \+ (\d+) training YAMLs/).map(Number);
    assert.equal(models, count('models'));
    assert.equal(training, count('training'));
  });

  it('the .vsix row is the package npm run package builds (files, size)', function () {
    const [files, mb] = figure(/\| `\.vsix` \(`npm run package`: [^|]*?(\d+) files\) \| ([\d.]+) MB \|/);
    const vsix = join(root, 'dist', 'rope-lens.vsix');
    if (!existsSync(vsix)) {
      console.log('      skipped: dist/rope-lens.vsix is not built (npm run package)');
      this.skip();
    }
    assert.equal(zipEntries(vsix), Number(files), 'entries in the package, as vsce counts them');
    assert.equal((statSync(vsix).size / 1e6).toFixed(2), mb);
  });
});
