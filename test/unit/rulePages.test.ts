/**
 * The finding-code registry (shared/core/codes.ts) against the rules and the docs:
 * - every code a rule module names, and every code the analysis emits over the fixtures, is registered;
 * - every registered code has its page, docs/rules/<code>.md, with what, why, examples and a source;
 * - every page's bad example gets the finding and its good example does not, nor any error (run through the service);
 * - docs/rules.md, the index, lists every code with its page and summary (renderRulesIndex).
 */
import { strict as assert } from 'node:assert';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ACTIVE_CODES, FINDING_CODES, codeInfo, codePage } from '../../shared/core/codes';
import { RULES } from '../../shared/rules/index';
import { createRopeLensService } from '../../shared/service/service';
import { createSyncOracle } from '../../shared/service/syncOracle';
import { loadShellParser } from '../../shared/node/shellParser';
import type { ShellParser } from '../../shared/launch/types';
import { pageExamples, rulePages } from '../../server/cli/rulePages';
import { renderRulesIndex } from '../support/rulesIndex';
import { renderPageFindings } from '../support/rulePageFindings';

const root = join(__dirname, '..', '..');
const CODE_LITERAL = /'((?:rope|training|axolotl|llama-factory|vllm|serving|launch|gguf|consumer|parse)\/[a-z0-9][a-z0-9-]*)'/g;

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...sourceFiles(p));
    else if (name.endsWith('.ts')) out.push(p);
  }
  return out;
}

describe('finding codes: registry, pages, examples', function () {
  this.timeout(120_000);
  let shell: ShellParser;
  const pages = rulePages();
  before(async () => {
    shell = await loadShellParser();
  });

  it('every code a rule declares or a module writes as a literal is registered', () => {
    for (const rule of RULES) for (const code of rule.codes) assert.ok(codeInfo(code), `${code} (rules/index) is not in shared/core/codes.ts`);
    // Image names (vllm/vllm-openai) share the shape of a code; they are not findings.
    const notCodes = new Set(['vllm/vllm-openai', 'vllm/vllm-openai-rocm']);
    for (const file of [...sourceFiles(join(root, 'shared', 'rules')), ...sourceFiles(join(root, 'shared', 'service'))]) {
      for (const m of readFileSync(file, 'utf8').matchAll(CODE_LITERAL)) {
        if (notCodes.has(m[1])) continue;
        assert.ok(codeInfo(m[1]), `${relative(root, file)} names '${m[1]}', which shared/core/codes.ts does not register`);
      }
    }
  });

  it('every code emitted over the fixtures is registered, with a severity the registry allows', () => {
    const service = createRopeLensService({ oracle: createSyncOracle(), shellParser: () => shell });
    const seen = new Set<string>();
    const walk = (dir: string) => {
      for (const name of readdirSync(dir).sort()) {
        const p = join(dir, name);
        if (statSync(p).isDirectory()) {
          walk(p);
          continue;
        }
        if (/\.(gguf|md|bin)$/i.test(name) || statSync(p).size > 256 * 1024) continue;
        const a = service.analyze(readFileSync(p, 'utf8'), { fileName: p });
        for (const d of a.diagnostics) {
          const info = codeInfo(d.code);
          assert.ok(info, `${relative(root, p)}: emitted '${d.code}', which is not registered`);
          assert.ok(!info.retired, `${relative(root, p)}: emitted '${d.code}', which the registry says is retired`);
          assert.ok(
            info.severity === d.severity || info.also?.includes(d.severity),
            `${d.code} at ${d.severity} in ${relative(root, p)}: registry says ${info.severity}${info.also ? ` or ${info.also}` : ''}`,
          );
          seen.add(d.code);
        }
      }
    };
    walk(join(root, 'test', 'fixtures'));
    walk(join(root, 'examples'));
    assert.ok(seen.size >= 25, `only ${seen.size} codes seen`);
  });

  it('every registered code has a page with what, why, a bad and a good example and a source; no page without a code', () => {
    for (const { code, retired } of FINDING_CODES) {
      const page = pages.get(code);
      assert.ok(page, `${codePage(code)} is missing`);
      assert.ok(page.startsWith(`# ${code}\n`), `${codePage(code)} must start with '# ${code}'`);
      if (retired) {
        // A retired code's page says so and why; it has no examples (nothing reports it).
        assert.ok(page.includes('**Retired.**') && page.includes('\n## Why it was retired'), `${codePage(code)} must say it is retired and why`);
        assert.deepEqual(pageExamples(page), [], `${codePage(code)}: a retired code has no examples`);
        continue;
      }
      for (const heading of ['## Why', '## Example', '## Source']) assert.ok(page.includes(`\n${heading}`), `${codePage(code)} has no '${heading}' section`);
      const ex = pageExamples(page);
      assert.ok(
        ex.some((e) => e.role === 'bad'),
        `${codePage(code)}: no bad example`,
      );
      assert.ok(
        ex.some((e) => e.role === 'good'),
        `${codePage(code)}: no good example`,
      );
    }
    for (const code of pages.keys()) assert.ok(codeInfo(code), `docs/rules/${code}.md: '${code}' is not a registered code`);
  });

  it("every page's bad example gets its finding and every good one does not", () => {
    const service = createRopeLensService({ oracle: createSyncOracle(), shellParser: () => shell });
    const failures: string[] = [];
    for (const { code } of ACTIVE_CODES) {
      for (const ex of pageExamples(pages.get(code) ?? '')) {
        const fileName = join('/rope-lens-examples', code, ex.fileName);
        const diagnostics = ex.fileName.endsWith('.gguf')
          ? service.analyzeGguf(JSON.parse(ex.text), undefined, fileName).diagnostics
          : service.analyze(ex.text, { fileName }).diagnostics;
        const found = diagnostics.map((d) => d.code);
        const has = found.includes(code);
        // A good example is one a user could copy: it must not fail on another rule either.
        const errors = diagnostics.filter((d) => d.severity === 'error').map((d) => d.code);
        if (ex.role === 'good' && errors.length) failures.push(`${codePage(code)}:${ex.line}: the good example gets an error: ${errors.join(', ')}`);
        if (ex.role === 'bad' && !has)
          failures.push(`${codePage(code)}:${ex.line}: the bad example does not get ${code} (got ${found.join(', ') || 'nothing'})`);
        if (ex.role === 'good' && has) failures.push(`${codePage(code)}:${ex.line}: the good example still gets ${code}`);
      }
    }
    assert.deepEqual(failures, []);
  });

  it('every page shows the finding its bad example gets, as RoPE Lens says it today (regenerate with `npm run docs:rules`)', () => {
    const service = createRopeLensService({ oracle: createSyncOracle(), shellParser: () => shell });
    const stale: string[] = [];
    for (const { code } of ACTIVE_CODES) {
      const page = pages.get(code) ?? '';
      // A concrete example: a file snippet and the finding it gets (issue 33).
      assert.match(page, /\n```text finding\n\S+ [\w/-]+: /, `${codePage(code)}: no finding shown under its bad example`);
      if (renderPageFindings(service, code, page) !== page) stale.push(codePage(code));
    }
    assert.deepEqual(stale, [], 'pages whose shown finding is not what RoPE Lens says: run `npm run docs:rules`');
  });

  it('docs/rules.md is the index: every code, its severity, summary and page (regenerate with `npm run docs:rules`)', () => {
    const actual = readFileSync(join(root, 'docs', 'rules.md'), 'utf8');
    assert.equal(actual, renderRulesIndex(actual));
  });
});
