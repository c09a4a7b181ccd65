/**
 * Every command README.md and docs/*.md show in a `sh`, `bash`, `shell` or `console` block runs as
 * written: `rope-lens …`, `npx rope-lens …` (the built CLI through bin/rope-lens.js), `npm run …` and
 * `npm test`, from a folder that mirrors the repository root, offline (HF_HUB_OFFLINE=1, an empty
 * Hugging Face cache). Each must exit as the page says: 0, or the N of an `# exits N` comment on its
 * line. In a transcript (`$ command` followed by what it prints) the printed lines are compared too:
 * stdout line for line (lines the page shows from stderr, such as the summary, may sit among them),
 * a final `…` line ending the comparison early.
 *
 * The only commands not run are named on their page by a marker that says why:
 * `<!-- docs-commands: skip "TEXT" because REASON -->` skips the lines of that page containing TEXT.
 * A marker that skips nothing fails the test, so markers cannot outlive their commands.
 */
import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ggufHeader, qwen25InstructMetadata, u32, writeGguf } from '../gguf/writeGguf';

const root = join(__dirname, '../..');
const pages = [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

interface DocCommand {
  page: string;
  /** The line as the page shows it (without a transcript's `$ `). */
  line: string;
  /** The part of the line that is run. */
  run: string;
  exit: number;
  /** A transcript's printed lines, when the page shows them. */
  output?: string[];
}

/** A command line: optional `NAME=value` assignments, then one of the programs the pages show. */
const COMMAND = /^(?:[A-Z_][A-Z0-9_]*=\S*\s+)*(npx rope-lens|rope-lens|npm run|npm test)(\s|$)/;
/** A marker on a line of its own (one quoted in prose is not a marker). */
const SKIP = /^<!-- docs-commands: skip "([^"]+)" because ([^>]*\S)\s*-->$/gm;

/** The commands one page shows, and its skip markers. */
function commandsOf(page: string): { commands: DocCommand[]; skips: { text: string; reason: string }[] } {
  const text = readFileSync(join(root, page), 'utf8');
  const skips = [...text.matchAll(SKIP)].map((m) => ({ text: m[1], reason: m[2] }));
  const commands: DocCommand[] = [];
  for (const block of text.matchAll(/^```(?:sh|bash|shell|console)\n([\s\S]*?)^```/gm)) {
    const lines = block[1].replace(/\n$/, '').split('\n');
    const transcript = lines.some((l) => l.startsWith('$ '));
    lines.forEach((raw, i) => {
      if (transcript && !raw.startsWith('$ ')) return;
      const line = transcript ? raw.slice(2) : raw;
      const code = line.replace(/\s+#.*$/, '');
      // `npm ci && npx rope-lens check examples/`: the rope-lens part is run (npm ci is the install the test runs in).
      const parts = code.split(/\s*&&\s*/).filter((p) => COMMAND.test(p));
      if (parts.length === 0) return;
      let output: string[] | undefined;
      if (transcript) {
        const next = lines.slice(i + 1).findIndex((l) => l.startsWith('$ '));
        output = lines.slice(i + 1, next < 0 ? undefined : i + 1 + next);
        if (output.length === 0) output = undefined;
      }
      const exit = Number(/#.*?\bexits? (\d+)/.exec(line)?.[1] ?? 0);
      commands.push({ page, line, run: parts.join(' && '), exit, output });
    });
  }
  return { commands, skips };
}

/** The shell command that runs `run` here: rope-lens through this checkout's launcher. */
function shellCommand(run: string): string {
  const launcher = `node '${join(root, 'bin', 'rope-lens.js')}'`;
  return run
    .split(' && ')
    .map((p) =>
      p
        .replace(/^((?:[A-Z_][A-Z0-9_]*=\S*\s+)*)(?:npx rope-lens|rope-lens)(?=\s|$)/, `$1${launcher}`)
        .replace(/^((?:[A-Z_][A-Z0-9_]*=\S*\s+)*)npm (run|test)/, `$1npm --prefix '${root}' $2`),
    )
    .join(' && ');
}

function runShell(command: string, cwd: string, env: NodeJS.ProcessEnv): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-c', command], { cwd, env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    // Only a guard against a hang: a busy 2-core machine can take many times a command's usual second.
    const timer = setTimeout(() => child.kill('SIGKILL'), 300_000);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}

/** Files the pages name that the repository does not hold, made here as the page describes them. */
function makeNamedFiles(dir: string): void {
  // docs/check.md: "a 4.7 GB file whose context was raised to 131,072 without scaling" (sparse: only the header is written).
  const header = ggufHeader({ ...qwen25InstructMetadata(), 'qwen2.context_length': u32(131072) });
  writeGguf(join(dir, 'qwen2.5-7b-instruct-q4_k_m.gguf'), header, 4_683_073_536);
}

/** Compares what a transcript shows with what the command printed. */
function compareOutput(c: DocCommand, stdout: string, stderr: string): void {
  const errLines = new Set(stderr.split('\n'));
  let shown = c.output!;
  const ellipsis = shown.length > 0 && shown[shown.length - 1].trim() === '…';
  if (ellipsis) shown = shown.slice(0, -1);
  const fromStdout = shown.filter((l) => !errLines.has(l) || l === '');
  let printed = stdout.replace(/\n$/, '').split('\n');
  if (ellipsis) printed = printed.slice(0, fromStdout.length);
  assert.deepEqual(printed, fromStdout, `${c.page}: what \`${c.line}\` prints`);
}

describe('every command shown in README.md and docs/*.md', function () {
  this.timeout(900_000);
  const all = pages.map(commandsOf);
  const skipped = new Map<string, number>();
  const runnable: DocCommand[] = [];
  for (const [i, { commands, skips }] of all.entries()) {
    for (const c of commands) {
      const skip = skips.find((s) => c.line.includes(s.text));
      if (skip) skipped.set(`${pages[i]}: ${skip.text}`, (skipped.get(`${pages[i]}: ${skip.text}`) ?? 0) + 1);
      else runnable.push(c);
    }
  }

  let work: string;
  let env: NodeJS.ProcessEnv;
  before(function () {
    if (!existsSync(join(root, 'dist', 'cli.js'))) this.skip();
    // A folder that looks like the repository root, so that files a command writes (rope-lens.sarif,
    // inspector.html) land there and not in the checkout.
    work = mkdtempSync(join(tmpdir(), 'rope-lens-doc-commands-'));
    for (const name of readdirSync(root)) if (name !== '.git') symlinkSync(join(root, name), join(work, name));
    makeNamedFiles(work);
    const hfHome = join(work, '.hf-home');
    mkdirSync(hfHome);
    env = { ...process.env, HF_HUB_OFFLINE: '1', HF_HOME: hfHome, NO_COLOR: '1' };
    delete env.HF_HUB_CACHE;
    delete env.ROPE_LENS_HUB;
  });
  after(() => {
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('finds the commands, and every skip marker names a reason and skips a command', () => {
    assert.ok(runnable.length >= 30, `only ${runnable.length} commands found: is the extraction still right?`);
    for (const [i, { skips }] of all.entries())
      for (const s of skips) assert.ok(skipped.get(`${pages[i]}: ${s.text}`), `${pages[i]}: the marker for "${s.text}" skips nothing`);
    for (const page of ['README.md', 'docs/check.md', 'docs/serve.md', 'docs/editors.md'])
      assert.ok(
        runnable.some((c) => c.page === page),
        `${page} shows commands`,
      );
  });

  it('each runs and exits as documented (transcripts print what they show)', async () => {
    const started = Date.now();
    const failures: string[] = [];
    const timings: [number, string][] = [];
    // Two at a time (most of each is Node's start-up and the bound engine's CPU); a command shown on
    // several pages runs once and is held to what each page says.
    const distinct = [...new Set(runnable.map((c) => c.run))];
    const results = new Map<string, { status: number | null; stdout: string; stderr: string }>();
    const worker = async () => {
      for (let run = distinct.shift(); run; run = distinct.shift()) {
        const t0 = Date.now();
        results.set(run, await runShell(shellCommand(run), work, env));
        timings.push([Date.now() - t0, run]);
      }
    };
    await Promise.all([worker(), worker()]);
    for (const c of runnable) {
      const r = results.get(c.run)!;
      const where = `${c.page}: ${c.line}`;
      if (r.status !== c.exit) {
        failures.push(`${where}\n  exited ${r.status}, documented ${c.exit}\n  ${r.stderr.trim().split('\n').slice(-3).join('\n  ')}`);
        continue;
      }
      try {
        if (c.output) compareOutput(c, r.stdout, r.stderr);
      } catch (e) {
        failures.push(`${where}\n  ${(e as Error).message.split('\n').slice(0, 12).join('\n  ')}`);
      }
    }
    assert.deepEqual(failures, []);
    console.log(
      `      ${runnable.length} commands (${results.size} distinct) from ${new Set(runnable.map((c) => c.page)).size} pages in ${((Date.now() - started) / 1000).toFixed(1)} s; skipped by marker: ${[...skipped.keys()].join('; ')}`,
    );
    const slowest = timings.sort((a, b) => b[0] - a[0]).slice(0, 5);
    console.log(`      slowest: ${slowest.map(([ms, run]) => `${(ms / 1000).toFixed(1)} s ${run}`).join('; ')}`);
  });
});
