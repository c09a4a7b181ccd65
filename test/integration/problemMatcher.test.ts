/**
 * The VS Code problem matcher `$rope-lens` (package.json contributes.problemMatchers) on real
 * `rope-lens check` text output: every finding line matches, and the groups give the file, the
 * 1-based line and column, the severity VS Code will show, the code and the message, equal to
 * what `--json` reports for the same finding. The summary line on stderr matches nothing.
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';

const root = join(__dirname, '../..');
const check = (...args: string[]) => spawnSync(process.execPath, [join(root, 'bin/rope-lens.js'), 'check', ...args], { cwd: root, encoding: 'utf8' });

interface Matcher {
  name: string;
  owner: string;
  fileLocation: string[];
  pattern: { regexp: string; file: number; line: number; column: number; severity: number; code: number; message: number };
}

/** VS Code's reading of a severity group (problemMatcher.ts getSeverity: error, warning/warn, info; hint and note → info). */
const vscodeSeverity = (s: string) => (/^error$/i.test(s) ? 'error' : /^warn(ing)?$/i.test(s) ? 'warning' : /^(info|hint|note)$/i.test(s) ? 'info' : 'default');
const EXPECTED: Record<string, string> = { error: 'error', warning: 'warning', information: 'info', hint: 'info' };

describe('problem matcher $rope-lens on real CLI output', function () {
  this.timeout(120_000);
  before(function () {
    if (!existsSync(join(root, 'dist', 'cli.js'))) this.skip();
  });

  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const matcher: Matcher = pkg.contributes.problemMatchers.find((m: Matcher) => m.name === 'rope-lens');

  it('is contributed with a pattern for file, line, column, severity, code and message', () => {
    assert.ok(matcher, 'contributes.problemMatchers has rope-lens');
    assert.equal(matcher.owner, 'rope-lens');
    assert.deepEqual(matcher.fileLocation, ['autoDetect', '${workspaceFolder}']);
  });

  it('matches every finding line with the values --json reports, at every severity', () => {
    const inputs = ['examples', 'test/fixtures/configs', 'test/fixtures/corpus/models'];
    // --verbose: the text shows hints only then (issue 33), and the matcher must read every severity.
    const text = check(...inputs, '--verbose');
    const json = JSON.parse(check(...inputs, '--json').stdout);
    const re = new RegExp(matcher.pattern.regexp);
    // --verbose also prints each finding's detail, indented under it: no pattern line, so the matcher skips it.
    const lines = text.stdout.split('\n').filter((l) => l && !l.startsWith('    '));
    const seen = new Set<string>();
    let n = 0;
    for (const report of json.files) {
      for (const d of report.diagnostics) {
        const line = lines[n++];
        const m = re.exec(line);
        assert.ok(m, `no match: ${line}`);
        const file = m![matcher.pattern.file];
        assert.equal(file, report.path);
        assert.ok(existsSync(isAbsolute(file) ? file : join(root, file)), file);
        assert.equal(Number(m![matcher.pattern.line]), d.range.start.line + 1);
        assert.equal(Number(m![matcher.pattern.column]), d.range.start.character + 1);
        assert.equal(vscodeSeverity(m![matcher.pattern.severity]), EXPECTED[d.severity], line);
        assert.equal(m![matcher.pattern.code], d.code);
        assert.equal(m![matcher.pattern.message], d.message);
        seen.add(d.severity);
      }
    }
    assert.equal(n, lines.length, 'every stdout line is a finding');
    assert.ok(seen.has('error') && seen.has('warning') && seen.has('information') && seen.has('hint'), [...seen].join());
    assert.doesNotMatch(text.stderr.trim(), re, 'the summary is not a problem');
  });
});
