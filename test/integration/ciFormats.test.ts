/**
 * `rope-lens check --format sarif|github` and `--fail-on`, through the built CLI: the SARIF log is
 * valid against the official SARIF 2.1.0 schema (test/fixtures/sarif, checked with ajv), its regions
 * are the text output's line:col, its fixes applied to the file remove the finding, its rules carry
 * their pages (docs/rules/<code>.md), and silenced findings stay in the log as suppressed.
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Ajv from 'ajv';
import { escapeGithubData, escapeGithubProperty } from '../../server/cli/ciFormats';

const root = join(__dirname, '../..');
const check = (args: string[], cwd = root) => spawnSync(process.execPath, [join(root, 'bin/rope-lens.js'), 'check', ...args], { cwd, encoding: 'utf8' });

/** ajv over the official schema (draft-04: its root `id` is `$id` for ajv's default draft). */
function sarifValidator() {
  const schema = JSON.parse(readFileSync(join(root, 'test/fixtures/sarif/sarif-schema-2.1.0.json'), 'utf8'));
  assert.equal(schema.title, 'Static Analysis Results Format (SARIF) Version 2.1.0 JSON Schema');
  const { $schema: _draft, id, ...rest } = schema;
  const ajv = new Ajv({ strict: false, allErrors: true });
  // The formats the schema names, checked as the spec defines them (ajv-formats is not a dependency).
  ajv.addFormat('uri', (s: string) => {
    try {
      return !!new URL(s).protocol;
    } catch {
      return false;
    }
  });
  ajv.addFormat('uri-reference', (s: string) => {
    try {
      return !!new URL(s, 'file:///base/');
    } catch {
      return false;
    }
  });
  ajv.addFormat('date-time', (s: string) => !Number.isNaN(Date.parse(s)) && /T/.test(s));
  const validate = ajv.compile({ $id: id, ...rest });
  return Object.assign((data: unknown): boolean => validate(data), {
    get errors() {
      return validate.errors;
    },
  });
}

/** Text offsets of each line start (\r\n, \r and \n end lines, as LSP counts them). */
function lineStarts(text: string): number[] {
  const starts = [0];
  const re = /\r\n|\r|\n/g;
  for (let m; (m = re.exec(text)); ) starts.push(m.index + m[0].length);
  return starts;
}

interface Region {
  startLine: number;
  startColumn: number;
  endLine: number;
  endColumn: number;
}
const offsetOf = (starts: number[], line: number, column: number) => starts[line - 1] + column - 1;

/** A SARIF fix applied to a text, as a viewer would (replacements from the end backwards). */
function applySarifFix(text: string, replacements: { deletedRegion: Region; insertedContent?: { text: string } }[]): string {
  const starts = lineStarts(text);
  const edits = replacements
    .map((r) => ({
      start: offsetOf(starts, r.deletedRegion.startLine, r.deletedRegion.startColumn),
      end: offsetOf(starts, r.deletedRegion.endLine, r.deletedRegion.endColumn),
      text: r.insertedContent?.text ?? '',
    }))
    .sort((a, b) => b.start - a.start);
  for (const e of edits) text = text.slice(0, e.start) + e.text + text.slice(e.end);
  return text;
}

describe('rope-lens check --format sarif|github, --fail-on (built CLI)', function () {
  this.timeout(120_000);
  before(function () {
    if (!existsSync(join(root, 'dist', 'cli.js'))) this.skip();
  });

  const inputs = ['test/fixtures/corpus', 'test/fixtures/configs', 'examples'];

  it("SARIF of the corpus, the fixtures and the examples is valid SARIF 2.1.0 with one run, and its regions are the text output's line:col", () => {
    const sarif = check([...inputs, '--format', 'sarif']);
    const text = check(inputs);
    assert.equal(sarif.status, text.status);
    const log: any = JSON.parse(sarif.stdout);
    const validate = sarifValidator();
    assert.ok(validate(log), JSON.stringify(validate.errors?.slice(0, 5), null, 2));
    assert.equal(log.version, '2.1.0');
    assert.equal(log.runs.length, 1);
    // The validator does reject what SARIF forbids: a 0-based line, an unknown level.
    const broken = JSON.parse(sarif.stdout);
    broken.runs[0].results[0].locations[0].physicalLocation.region.startLine = 0;
    assert.equal(validate(broken), false);
    broken.runs[0].results[0].locations[0].physicalLocation.region.startLine = 1;
    broken.runs[0].results[0].level = 'information';
    assert.equal(validate(broken), false);
    const run = log.runs[0];
    assert.equal(run.tool.driver.name, 'RoPE Lens');

    // Every text line `path:line:col severity code message` has a result at the same place, and no more results.
    const fromText = text.stdout
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((l) => {
        const m = /^(.+?):(\d+):(\d+) (\w+) (\S+) /.exec(l);
        return m ? `${m[1]}:${m[2]}:${m[3]} ${m[5]}` : `${l.split(': ')[0]} ${l.split(' ')[2]}`; // GGUF lines have no position
      })
      .sort();
    const fromSarif = run.results
      .map((r: any) => {
        const loc = r.locations[0].physicalLocation;
        const reg = loc.region;
        return reg ? `${loc.artifactLocation.uri}:${reg.startLine}:${reg.startColumn} ${r.ruleId}` : `${loc.artifactLocation.uri} ${r.ruleId}`;
      })
      .sort();
    assert.ok(fromText.length > 20, `only ${fromText.length} findings`);
    assert.deepEqual(fromSarif, fromText);
    for (const r of run.results) {
      assert.equal(run.tool.driver.rules[r.ruleIndex].id, r.ruleId);
      assert.ok(['error', 'warning', 'note'].includes(r.level));
      assert.equal(r.locations[0].physicalLocation.artifactLocation.uriBaseId, 'SRCROOT');
    }
  });

  it('rules carry their page as help and a link to it (docs/rules/<code>.md)', () => {
    const log = JSON.parse(check(['examples', '--format', 'sarif']).stdout);
    const rules = log.runs[0].tool.driver.rules;
    assert.ok(rules.length >= 45, `${rules.length} rules`);
    for (const rule of rules) {
      assert.equal(rule.helpUri, `https://github.com/rope-lens/rope-lens/blob/main/docs/rules/${rule.id}.md`);
      assert.ok(existsSync(join(root, 'docs', 'rules', `${rule.id}.md`)), `${rule.id}: no page`);
      // The page itself, built into the bundle: its title, its examples (a retired code's page has none).
      assert.ok(rule.help.markdown.startsWith(`# ${rule.id}\n`), rule.id);
      assert.ok(rule.help.markdown.includes('```') || rule.help.markdown.includes('**Retired.**'), rule.id);
      assert.ok(rule.help.markdown.includes(rule.helpUri), rule.id);
      assert.ok(rule.shortDescription.text.endsWith('.'), `${rule.id}: ${rule.shortDescription.text}`);
      assert.ok(['error', 'warning', 'note'].includes(rule.defaultConfiguration.level), rule.id);
    }
  });

  it('silenced findings stay in the SARIF log with their suppression (inSource, external); text, github and the exit code ignore them', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rope-lens-sarif-suppress-'));
    try {
      const cfg = JSON.parse(readFileSync(join(root, 'test/fixtures/corpus/models/meta-llama-3-8b.json'), 'utf8'));
      cfg.max_position_embeddings = 65536;
      cfg.transformers_version = '4.46.0';
      writeFileSync(join(dir, 'config.json'), JSON.stringify(cfg, null, 2) + '\n');
      writeFileSync(
        join(dir, 'train.yaml'),
        'base_model: NousResearch/Llama-2-7b-hf\n# rope-lens: disable=training/context-exceeded  a YaRN recipe is applied by the launcher\nsequence_len: 16384\n',
      );
      writeFileSync(join(dir, '.rope-lens.yaml'), 'disable: [rope/context-extended]\n');
      const sarif = check(['.', '--format', 'sarif', '--fail-on', 'warning'], dir);
      const log = JSON.parse(sarif.stdout);
      const validate = sarifValidator();
      assert.ok(validate(log), JSON.stringify(validate.errors?.slice(0, 3)));
      const results = log.runs[0].results.filter((r: any) => r.suppressions);
      const byRule = Object.fromEntries(results.map((r: any) => [r.ruleId, r.suppressions[0]]));
      assert.equal(byRule['rope/context-extended']?.kind, 'external');
      assert.match(byRule['rope/context-extended']?.justification, /\.rope-lens\.yaml: disable rope\/context-extended$/);
      assert.equal(byRule['training/context-exceeded']?.kind, 'inSource');
      assert.match(byRule['training/context-exceeded']?.justification, /^line 2: # rope-lens: disable=training\/context-exceeded  a YaRN recipe/);
      // --json lists them under `suppressed`, with the same kinds.
      const json = JSON.parse(check(['.', '--json'], dir).stdout);
      const listed = json.files.flatMap((f: any) => (f.suppressed ?? []).map((x: any) => `${x.code} ${x.suppression.kind}`)).sort();
      assert.deepEqual(listed, ['rope/context-extended external', 'training/context-exceeded inSource']);
      assert.deepEqual(
        json.files.flatMap((f: any) => f.diagnostics),
        [],
      );
      // Nothing else is left, so the run passes even at --fail-on warning; the summary counts what was silenced.
      const text = check(['.', '--fail-on', 'warning'], dir);
      assert.equal(text.status, 0, text.stdout + text.stderr);
      assert.equal(text.stdout.trim(), '');
      assert.match(text.stderr, /2 files checked: 0 errors, 0 warnings, 0 other findings \(2 suppressed\)/);
      assert.equal(check(['.', '--format', 'github', '--fail-on', 'warning'], dir).stdout.trim(), '');
      // Without the project file and the comment both findings come back and the run fails.
      writeFileSync(join(dir, '.rope-lens.yaml'), 'ignore: []\n');
      writeFileSync(join(dir, 'train.yaml'), 'base_model: NousResearch/Llama-2-7b-hf\nsequence_len: 16384\n');
      const bare = check(['.', '--fail-on', 'warning'], dir);
      assert.equal(bare.status, 1);
      assert.match(bare.stdout, /rope\/context-extended/);
      assert.match(bare.stdout, /training\/context-exceeded/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a SARIF fix, applied to the file, removes its finding', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rope-lens-sarif-'));
    try {
      // Llama-3-70B with max_position_embeddings raised 8× without scaling (the README's example), in CRLF.
      const cfg = JSON.parse(readFileSync(join(root, 'test/fixtures/corpus/models/meta-llama-3-8b.json'), 'utf8'));
      cfg.max_position_embeddings = 65536;
      const file = join(dir, 'config.json');
      writeFileSync(file, JSON.stringify(cfg, null, 2).replace(/\n/g, '\r\n'));
      const log = JSON.parse(check(['config.json', '--format', 'sarif'], dir).stdout);
      const result = log.runs[0].results.find((r: any) => r.ruleId === 'rope/context-extended');
      assert.ok(result?.fixes?.length, 'the finding carries fixes');
      const fixed = applySarifFix(readFileSync(file, 'utf8'), result.fixes[0].artifactChanges[0].replacements);
      writeFileSync(file, fixed);
      const after = check(['config.json'], dir);
      assert.doesNotMatch(after.stdout, /rope\/context-extended/, after.stdout);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('--format github: one workflow command per finding, 1-based, escaped as GitHub requires', () => {
    const r = check(['examples', '--format', 'github']);
    const text = check(['examples']);
    const lines = r.stdout.trim().split('\n');
    assert.equal(lines.length, text.stdout.trim().split('\n').length);
    for (const l of lines)
      assert.match(l, /^::(error|warning|notice) file=examples\/[^,]+,line=\d+,col=\d+,endLine=\d+,endColumn=\d+,title=RoPE Lens [a-z.\-]+\/[a-z0-9.\-]+::\S/);
    const first = text.stdout.split('\n')[0].match(/^(.+?):(\d+):(\d+) /)!;
    assert.ok(lines.some((l) => l.includes(`file=${first[1]},line=${first[2]},col=${first[3]},`)));
    // An absolute path inside the working directory (the workspace) is annotated relative to it.
    const abs = check([join(root, 'examples'), '--format', 'github']);
    assert.deepEqual(abs.stdout, r.stdout);
    assert.equal(escapeGithubData('50% done\r\nnext'), '50%25 done%0D%0Anext');
    assert.equal(escapeGithubProperty('a:b,c%'), 'a%3Ab%2Cc%25');
  });

  it('--fail-on error|warning|never sets the exit code; bad values are usage errors (2)', () => {
    const warningOnly = 'examples/axolotl-llama2-16k.yaml';
    const errorFile = 'test/fixtures/configs/llama-2-linear-inverted-factor.oneline.json';
    assert.equal(check([warningOnly]).status, 0);
    assert.equal(check([warningOnly, '--fail-on', 'warning']).status, 1);
    assert.equal(check([errorFile]).status, 1);
    assert.equal(check([errorFile, '--fail-on', 'never']).status, 0);
    assert.equal(check([errorFile, '--format', 'sarif', '--fail-on', 'never']).status, 0);
    const bad = check([warningOnly, '--fail-on', 'sometimes']);
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /--fail-on must be one of error, warning, never/);
    assert.equal(check([warningOnly, '--format', 'xml']).status, 2);
  });
});
