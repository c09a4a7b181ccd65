/**
 * First contact: the README stays short enough to skim (under 250 lines; the rest lives in docs/),
 * and every relative link or image in README.md and docs/ (rule pages included) reaches an existing
 * file, and an anchor (`page.md#section`) a heading of that page, as GitHub spells heading anchors.
 */
import { strict as assert } from 'node:assert';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

const root = join(__dirname, '..', '..');

function markdownFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? markdownFiles(p) : n.endsWith('.md') ? [p] : [];
  });
}

/** The page's prose: fenced blocks and inline code removed (links there are examples, not links). */
function prose(text: string): string {
  return text.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to dashes. */
function anchor(heading: string): string {
  return heading
    .replace(/`/g, '')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}_\- ]/gu, '')
    .replace(/ /g, '-');
}

function anchors(file: string): Set<string> {
  const headings = prose(readFileSync(file, 'utf8')).match(/^#{1,6} .*$/gm) ?? [];
  return new Set(headings.map((h) => anchor(h.replace(/^#+ /, ''))));
}

const pages = [join(root, 'README.md'), ...markdownFiles(join(root, 'docs'))];

describe('README and docs/ links', () => {
  it('README.md has fewer than 250 lines', () => {
    const lines = readFileSync(join(root, 'README.md'), 'utf8').split('\n').length;
    assert.ok(lines < 250, `README.md has ${lines} lines`);
  });

  it('every relative link and image resolves to a file (and a heading, for #anchors)', () => {
    const broken: string[] = [];
    let checked = 0;
    for (const page of pages) {
      for (const m of prose(readFileSync(page, 'utf8')).matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
        const target = m[1];
        if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:
        checked++;
        const [path, hash] = target.split('#');
        const file = path ? join(dirname(page), decodeURI(path)) : page;
        const where = `${relative(root, page)}: ${target}`;
        if (!existsSync(file)) broken.push(`${where} (no such file)`);
        else if (hash && file.endsWith('.md') && !anchors(file).has(hash)) broken.push(`${where} (no such heading)`);
      }
    }
    assert.deepEqual(broken, []);
    assert.ok(checked > 50, `only ${checked} links found: is the pattern still right?`);
  });
});
