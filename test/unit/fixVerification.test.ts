/**
 * Every offered fix, applied, as the file's consumer reads it (issue 26, point 3), on every fixture
 * (configs, training and serving YAML, launch scripts, Dockerfiles, compose, Kubernetes, Modelfiles)
 * and on every corpus config and training YAML extended ×4 (max_position_embeddings, or the
 * training length, four times larger, written in place so the layout stays real):
 *   1. the result parses under the consumer's parser: Python's json (strict; no key twice),
 *      PyYAML (no key twice in a mapping), Docker's exec-form JSON, bash (the shell reader);
 *   2. no warning or error of any code is new, and the fixed finding is gone;
 *   3. no launch now runs the command's scaling in place of the one its model ships with.
 * The checks are written here from the consumers' rules, not taken from the service's verifier.
 */
import { strict as assert } from 'node:assert';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { analyzeText } from '../../shared/service/analyze';
import { createSyncOracle } from '../../shared/service/syncOracle';
import { applyTextEdits } from '../../shared/fixes/textEdits';
import { LineIndex } from '../../shared/document/positions';
import { checkStrictJson } from '../../shared/document/strictJson';
import { checkYamlStrict } from '../../shared/document/yamlStrict';
import { checkExecForms } from '../../shared/launch/execForm';
import { readLaunchFile, launchFormatOf } from '../../shared/launch/index';
import { splitLikeCompose } from '../../shared/launch/shellwords';
import { loadShellParser } from '../../shared/node/shellParser';
import type { ShellParser } from '../../shared/launch/types';
import type { FileAnalysis } from '../../shared/service/types';

const oracle = createSyncOracle();

function files(dir: string): string[] {
  const out: string[] = [];
  for (const n of readdirSync(dir).sort()) {
    const p = join(dir, n);
    if (statSync(p).isDirectory()) out.push(...files(p));
    else if (!/\.(md|txt)$/i.test(n) && n !== 'expected.json' && n !== 'catalogIds.json' && statSync(p).size < 200_000) out.push(p);
  }
  return out;
}

/** The training length or the declared context, four times larger, in place. */
function extendedX4(text: string, path: string): string | undefined {
  const keys = path.endsWith('.json')
    ? ['max_position_embeddings', 'seq_length', 'max_sequence_length', 'n_positions']
    : [
        'sequence_len',
        'cutoff_len',
        'max_seq_len',
        'max_seq_length',
        'seq_length',
        'seq-length',
        'max_position_embeddings',
        'block_size',
        'max_target_length',
        'max-model-len',
        'max_model_len',
      ];
  for (const k of keys) {
    const re = new RegExp(`("?${k}"?\\s*[:=]\\s*)(\\d+)`);
    const m = re.exec(text);
    if (m) return text.replace(re, (_all, pre: string, n: string) => `${pre}${Number(n) * 4}`);
  }
  return undefined;
}

type Parse = { json?: { syntax: boolean; dupes: number }; yaml?: { syntax: number; dupes: number }; exec?: number; shell?: number; launches?: number };

function consumerRead(text: string, path: string, shell: ShellParser): Parse {
  const launch = launchFormatOf(path, undefined, text);
  const out: Parse = {};
  if (launch === 'shell' || launch === 'dockerfile' || launch === 'modelfile') {
    if (launch === 'dockerfile') out.exec = checkExecForms(text).length;
    const file = readLaunchFile(text, path, { shell });
    out.shell = file?.problems.length ?? 0;
    out.launches = file?.invocations.length ?? 0;
    return out;
  }
  if (path.endsWith('.json')) {
    const r = checkStrictJson(text);
    out.json = { syntax: !!r.syntax, dupes: r.duplicates.length };
  } else {
    const p = checkYamlStrict(text);
    out.yaml = { syntax: p.filter((x) => x.kind === 'syntax').length, dupes: p.filter((x) => x.kind === 'duplicate-key').length };
    if (launch) out.launches = readLaunchFile(text, path, { shell })?.invocations.length ?? 0;
  }
  return out;
}

function serious(a: FileAnalysis): Map<string, number> {
  const m = new Map<string, number>();
  for (const d of a.diagnostics) if (d.severity === 'error' || d.severity === 'warning') m.set(d.code, (m.get(d.code) ?? 0) + 1);
  return m;
}

describe('every offered fix, applied, as its consumer reads the file (fixtures and the corpus ×4)', function () {
  this.timeout(300_000);
  let shell: ShellParser;
  before(async () => {
    shell = await loadShellParser();
  });

  const cases: { name: string; path: string; text: string }[] = [];
  for (const p of files('test/fixtures')) cases.push({ name: p, path: p, text: readFileSync(p, 'utf8') });
  for (const dir of ['test/fixtures/corpus/models', 'test/fixtures/corpus/training']) {
    for (const p of files(dir)) {
      const x4 = extendedX4(readFileSync(p, 'utf8'), p);
      if (x4) cases.push({ name: `${p} ×4`, path: p, text: x4 });
    }
  }
  let checked = 0;

  for (const c of cases) {
    it(c.name, () => {
      const a = analyzeText(c.text, { fileName: c.path, oracle, shellParser: shell });
      const fixes = a.diagnostics.flatMap((d) => d.fixes.map((f) => ({ d, f })));
      if (!fixes.length) return;
      const before = consumerRead(c.text, c.path, shell);
      const seriousBefore = serious(a);
      for (const { d, f } of fixes) {
        checked++;
        const what = `${basename(c.path)}: "${f.title}" (${d.code})`;
        const next = applyTextEdits(c.text, new LineIndex(c.text), f.edits);
        // 1. The consumer's parser reads it at least as well as before.
        const after = consumerRead(next, c.path, shell);
        if (before.json && !before.json.syntax)
          assert.ok(!after.json!.syntax, `${what}: Python's json refuses the result\n${checkStrictJson(next).syntax?.message}`);
        if (before.json) assert.ok(after.json!.dupes <= before.json.dupes, `${what}: a JSON key written twice`);
        if (before.yaml) {
          assert.ok(after.yaml!.syntax <= before.yaml.syntax, `${what}: PyYAML would refuse the result`);
          assert.ok(after.yaml!.dupes <= before.yaml.dupes, `${what}: a YAML key written twice in one mapping (PyYAML keeps the last)`);
        }
        if (before.exec !== undefined) assert.ok(after.exec! <= before.exec, `${what}: an exec-form list Docker no longer reads as JSON`);
        if (before.shell !== undefined) assert.ok(after.shell! <= before.shell, `${what}: the shell reader meets a new syntax problem`);
        if (before.launches !== undefined) assert.ok(after.launches! >= before.launches, `${what}: a launch is no longer read`);
        // bash: every word the fix writes into a script reaches a command as (part of) one argument
        if (launchFormatOf(c.path, undefined, c.text) === 'shell') {
          // (a `NAME=value` prefix reaches it as its environment)
          const args = (readLaunchFile(next, c.path, { shell })?.invocations ?? []).flatMap((i) => [
            ...i.argv.map((t) => t.value),
            ...Object.entries(i.env).map(([k, t]) => `${k}=${t.value}`),
          ]);
          for (const e of f.edits) {
            if (/^\s*#/.test(e.newText)) continue; // a comment moved out of a command
            for (const w of splitLikeCompose(e.newText.replace(/\\\r?\n/g, ' ')).words) {
              assert.ok(
                args.some((a) => a.includes(w.value)),
                `${what}: bash does not pass ${JSON.stringify(w.value)} to the command`,
              );
            }
          }
        }
        // 2. The finding is gone and nothing serious is new.
        const re = analyzeText(next, { fileName: c.path, oracle, shellParser: shell, verifyFixes: false });
        assert.ok(
          re.diagnostics.filter((x) => x.code === d.code).length < a.diagnostics.filter((x) => x.code === d.code).length,
          `${what}: the finding is still there`,
        );
        for (const [code, n] of serious(re)) {
          assert.ok(n <= (seriousBefore.get(code) ?? 0), `${what}: brings a new ${code}: ${re.diagnostics.find((x) => x.code === code)?.message}`);
        }
        // 3. No launch's model loses its own scaling to the command's.
        assert.ok(a.serving?.replacesModelScaling || !re.serving?.replacesModelScaling, `${what}: the config now replaces ${a.serving?.model}'s own scaling`);
        (a.launches ?? []).forEach((l, i) => {
          assert.ok(l.replacesModelScaling || !re.launches?.[i]?.replacesModelScaling, `${what}: the command now replaces ${l.model}'s own scaling`);
        });
      }
    });
  }

  after(() => {
    // The suite checks something: fixes were offered on these files.
    assert.ok(checked > 50, `only ${checked} fixes were checked`);
  });
});
