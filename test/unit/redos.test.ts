/**
 * Every regular expression in shared/ is checked for super-linear backtracking with recheck
 * (a ReDoS checker: automata theory where it can, fuzzing otherwise). A pattern that runs over a
 * user's file and backtracks quadratically turns one long word into minutes (the image-reference
 * pattern did: 100 KB of base64 beside a config cost 18 s). Vulnerable patterns fail here unless
 * ALLOWED says why their input is bounded; patterns built at run time (`new RegExp`) are listed in
 * BUILT with the values to check or why none is needed, so a new one cannot slip past.
 *
 * recheck runs with no time limit (`timeout: null`), so the verdict does not depend on how busy
 * the machine is; its native build answers when installed, its pure-JS one otherwise.
 */
import { strict as assert } from 'node:assert';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { LAUNCH_WORD_RE, TRAINING_SCRIPT_NAME } from '../../shared/launch/sniff';
import { WORKLOAD } from '../../shared/launch/format';
import { WITH_ESCAPE } from '../../shared/launch/vars';
import { LABEL_MAP_ENTRY } from '../../shared/document/labelMaps';

const ROOT = join(__dirname, '..', '..');

interface Pattern {
  where: string;
  source: string;
  flags: string;
}

/** Literal patterns and `new RegExp(...)` call sites of every .ts file below shared/. */
function collect(): { literals: Pattern[]; built: string[] } {
  const files: string[] = [];
  const walk = (d: string) => {
    for (const n of readdirSync(d)) {
      const p = join(d, n);
      if (statSync(p).isDirectory()) walk(p);
      else if (n.endsWith('.ts')) files.push(p);
    }
  };
  walk(join(ROOT, 'shared'));
  const literals: Pattern[] = [];
  const built: string[] = [];
  for (const file of files.sort()) {
    const rel = relative(ROOT, file).replace(/\\/g, '/');
    const sf = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const visit = (n: ts.Node) => {
      if (n.kind === ts.SyntaxKind.RegularExpressionLiteral) {
        const text = n.getText(sf);
        const end = text.lastIndexOf('/');
        literals.push({ where: `${rel}:${sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1}`, source: text.slice(1, end), flags: text.slice(end + 1) });
      } else if (ts.isNewExpression(n) && n.expression.getText(sf) === 'RegExp') {
        built.push(`${rel}: ${n.getText(sf).replace(/\s+/g, ' ').slice(0, 36)}`);
      }
      ts.forEachChild(n, visit);
    };
    visit(sf);
  }
  return { literals, built };
}

/** Vulnerable patterns kept, by file and pattern, each with why its input cannot be long. */
const ALLOWED: Record<string, string> = {
  'shared/config/modelName.ts /[-_.](?:ud-)?(?:i?q\\d(?:_[a-z0-9]+)*|f16|f32|bf16|fp16|mxfp4(?:_moe)?)$/i':
    'a model name: modelNameOf reads at most MAX_NAME_LENGTH (1,024) characters',
  'shared/core/baseFigure.ts /\\.?0+e/': "a number's own toExponential() text: at most 25 characters",
  'shared/core/baseFigure.ts /\\.?0+$/': "a number's own toPrecision() text: at most 25 characters",
  'shared/core/format.ts /\\.?0+$/': "a number's own toPrecision() text: at most 25 characters",
  'shared/core/format.ts /0+$/': 'the fraction digits of a number printed by the formatter: at most 21 characters',
  'shared/fixes/render.ts /0+$/': "a number's own toFixed(20) text: at most 42 characters",
  'shared/document/strictJson.ts /"(?:[^"\\\\]|\\\\.)*"|-?Infinity|NaN/g':
    "runs only on text Python's json already accepted, where every string closes, so each match ends at the next quote",
  'shared/service/analyzeGguf.ts /[-._](i?q\\d[\\w]*|f16|bf16|f32|fp16|fp8)$/i': 'a file name, not run past 255 characters (NAME_MAX)',
  'shared/launch/sniff.ts /^(?:[A-Za-z][\\w-]*?[_-](?:llama[_-]?server|llama[_-]?cpp|vllm|sglang|ollama|tgi)(?:[_-][\\w-]*)?|(?:llama[_-]?server|vllm|sglang|ollama|tgi)[_-][\\w-]+)$/':
    'one command word, not run past 256 characters',
  'shared/service/analyzeLaunch.ts /[-_.](i?q\\d(_[a-z0-9]+)*|f16|f32|bf16|fp16|q\\d_k(_[sml])?)$/i': 'a file name, not run past 255 characters (NAME_MAX)',
};

/** Patterns built at run time: the values to check, or why their shape is safe whatever is spliced in. */
const BUILT: Record<string, RegExp[] | string> = {
  'shared/config/modelFamilies.ts: new RegExp(`(?:^|[-_. ])(${generatio':
    "a generation's name pattern from families.json, matched against a model name of at most 1,024 characters (modelNameOf)",
  "shared/config/modelFamilies.ts: new RegExp(v.when, 'i')": 'a size pattern from families.json, matched against a model name of at most 1,024 characters',
  // Sticky: each exec tries one position only, as a leading ^ does (unanchored it would be quadratic).
  'shared/document/labelMaps.ts: new RegExp(String.raw`[ \\t\\r\\n]*(${S': [new RegExp(`^(?:${LABEL_MAP_ENTRY.source})`)],
  'shared/fixes/launchEdits.ts: new RegExp(`\\\\$\\\\{?${name.replace(/[': 'a variable name (sanitised to [A-Za-z0-9_]) between fixed-length parts',
  'shared/launch/format.ts: new RegExp(`^kind:\\\\s*["\']?(?:${WORK': [WORKLOAD],
  'shared/launch/sniff.ts: new RegExp(TRAINING_SCRIPT_WORDS.joi': [TRAINING_SCRIPT_NAME],
  'shared/launch/sniff.ts: new RegExp( `(?:^|[^\\\\w.-])(?:${[...': [LAUNCH_WORD_RE],
  "shared/launch/vars.ts: new RegExp(`\\\\\\\\\\\\$|${REFERENCE}`, '": [WITH_ESCAPE['\\$']],
  "shared/launch/vars.ts: new RegExp(`\\\\$\\\\$|${REFERENCE}`, 'g": [WITH_ESCAPE.$$],
  "shared/service/projectConfig.ts: new RegExp(`^${anchored ? '' : '(?:.":
    'a glob from .rope-lens.yaml matched against one file path (at most 4,096 characters)',
};

/** Only a pattern with an unbounded repetition can take super-linear time (after removing escapes). */
const repeats = (source: string) => /[*+]|\{\d+,\}/.test(source.replace(/\\./g, ''));

// The native build (or the JVM) when installed, else recheck's pure-JS engine in this process.
process.env.RECHECK_SYNC_BACKEND ??= 'synckit';
type Diagnostics = { status: 'safe' | 'vulnerable' | 'unknown'; complexity?: { summary?: string }; error?: { kind: string } };
const recheck = require('recheck') as { checkSync(source: string, flags: string, params?: object): Diagnostics };
const PARAMS = { timeout: null, randomSeed: 0, incubationTimeout: null, seedingTimeout: null, recallTimeout: -1 };
const check = (source: string, flags: string) => recheck.checkSync(source, flags.replace(/[gyd]/g, ''), PARAMS);

describe('ReDoS: no regular expression in shared/ backtracks super-linearly', function () {
  // recheck takes ~10 s for all patterns on an idle machine; a busy 2-core runner may take several times that.
  this.timeout(15 * 60_000);
  const { literals, built } = collect();

  it('the checker tells a super-linear pattern from a linear one (the old image-reference pattern, and its fix)', () => {
    assert.equal(check('^(a+)+$', '').status, 'vulnerable');
    assert.equal(check('([a-z0-9.-]+(?::\\d+)?\\/)?([a-z0-9._-]+\\/[a-z0-9._-]+)(?::([A-Za-z0-9._-]+))?', 'g').status, 'vulnerable');
    assert.equal(check('^([a-z0-9.-]+(?::\\d+)?\\/)?([a-z0-9._-]+\\/[a-z0-9._-]+)(?::([A-Za-z0-9._-]+))?', '').status, 'safe');
  });

  it('finds the patterns: hundreds of literals, every `new RegExp` site listed in BUILT', () => {
    assert.ok(literals.length > 300, `only ${literals.length} literals found`);
    assert.deepEqual(
      built.filter((b) => !(b in BUILT)),
      [],
      'a new `new RegExp(...)`: add it to BUILT with the value to check or why its shape is safe',
    );
    assert.deepEqual(
      Object.keys(BUILT).filter((b) => !built.includes(b)),
      [],
      'BUILT names a site that is gone',
    );
  });

  it('every pattern is linear, or on ALLOWED with why its input is bounded', () => {
    const byPattern = new Map<string, Pattern[]>();
    for (const p of literals.filter((l) => repeats(l.source))) {
      const key = `/${p.source}/${p.flags.replace(/[gyd]/g, '')}`;
      byPattern.set(key, [...(byPattern.get(key) ?? []), p]);
    }
    for (const [site, values] of Object.entries(BUILT))
      if (typeof values !== 'string')
        for (const re of values) byPattern.set(`/${re.source}/${re.flags.replace(/[gyd]/g, '')}`, [{ where: site, source: re.source, flags: re.flags }]);
    const bad: string[] = [];
    const allowedSeen = new Set<string>();
    for (const sites of byPattern.values()) {
      const { source, flags } = sites[0];
      const d = check(source, flags);
      if (d.status === 'safe') continue;
      for (const s of sites) {
        const key = `${s.where.replace(/:\d+$/, '')} /${s.source}/${s.flags}`;
        if (key in ALLOWED) allowedSeen.add(key);
        else bad.push(`${s.where} /${s.source}/${s.flags}: ${d.status} ${d.complexity?.summary ?? d.error?.kind ?? ''}`);
      }
    }
    assert.deepEqual(bad, [], 'super-linear patterns: rewrite them (shared/core/text.ts has linear helpers) or bound their input and say why in ALLOWED');
    assert.deepEqual(
      Object.keys(ALLOWED).filter((k) => !allowedSeen.has(k)),
      [],
      'ALLOWED names a pattern that is gone or now linear: drop it',
    );
  });
});
