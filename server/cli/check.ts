/**
 * `rope-lens check <files or folders…> [--json]`: lints model configs, training and serving YAML,
 * and GGUF headers.
 * Human output: `path:line:col severity code message` (1-based, like other linters), a summary
 * on stderr. `--json`: {"files":[…]} with 0-based LSP ranges. Exit 1 if any error finding,
 * 2 on usage errors or unreadable paths, else 0.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { CliIO, EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, UsageError, parseCliArgs } from './io';
import { cliService } from './service';
import { toJsonReport, JsonFileReport } from '../../shared/service/jsonReport';
import { checkGguf, GgufFileReport } from './checkGguf';
import { loadShellParser } from '../../shared/node/shellParser';

const EXTENSIONS = /\.(json|jsonc|ya?ml|gguf)$/i;
/** Launch files a folder walk picks up by name (a file named on the command line is always read). */
const LAUNCH_NAMES = /(\.(sh|bash|zsh)|^(Dockerfile|Containerfile)([.-][\w.-]*)?|\.dockerfile|^Modelfile|\.modelfile)$/i;
const SKIP_DIRS = new Set(['node_modules', '.git', 'dist', '.venv', 'venv', '__pycache__']);

export async function run(argv: string[], io: CliIO): Promise<number> {
  const parsed = parseCliArgs({ args: argv, allowPositionals: true, options: { json: { type: 'boolean' }, variant: { type: 'string' }, consumer: { type: 'string', multiple: true }, verbose: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } });
  if (parsed.values.help) {
    io.out('usage: rope-lens check <files or folders…> [--json] [--variant v4|v5] [--consumer SPEC]… [--verbose]');
    return EXIT_OK;
  }
  const variant = parsed.values.variant ?? 'v5';
  if (variant !== 'v4' && variant !== 'v5') throw new UsageError(`--variant must be v4 or v5, got '${variant}'`);
  if (parsed.positionals.length === 0) throw new UsageError('no files or folders given (usage: rope-lens check <files or folders…> [--json])');

  let unreadable = false;
  const files: string[] = [];
  for (const p of parsed.positionals) {
    const found = collect(p, io);
    if (found === undefined) unreadable = true;
    else files.push(...found);
  }

  // --verbose: errors the analysis survives (a rule tripping over an odd value) are printed, not dropped.
  const log = parsed.values.verbose ? (line: string) => io.err(`rope-lens check: ${line}`) : undefined;
  // The shell grammar (WASM, ~25 ms) is loaded only when a file may hold shell commands.
  const mayLaunch = files.some((f) => !/\.(json|jsonc|gguf)$/i.test(f));
  const shell = mayLaunch ? await loadShellParser().catch((e) => { io.err(`rope-lens check: the shell parser did not load, shell commands are not read: ${(e as Error).message}`); return undefined; }) : undefined;
  const service = cliService(variant, log, shell);
  const reports: (JsonFileReport | GgufFileReport)[] = [];
  let errors = 0, warnings = 0, others = 0;
  for (const file of files) {
    if (/\.gguf$/i.test(file)) {
      const g = await checkGguf(file, service, io);
      if (!g) { unreadable = true; continue; }
      for (const d of g.diagnostics) {
        if (d.severity === 'error') errors++;
        else if (d.severity === 'warning') warnings++;
        else others++;
        if (!parsed.values.json) io.out(`${file}: ${d.severity} ${d.code} ${d.message}${d.key ? ` [${d.key}]` : ''}`);
      }
      reports.push(g.report);
      continue;
    }
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (e) {
      io.err(`rope-lens check: cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
      unreadable = true;
      continue;
    }
    // --consumer transformers==4.41.0 (repeatable): the consumers that load these files, as ropeLens.consumers.
    const analysis = service.analyze(text, { fileName: resolve(file), settings: parsed.values.consumer ? { consumers: parsed.values.consumer } : undefined });
    for (const d of analysis.diagnostics) {
      if (d.severity === 'error') errors++;
      else if (d.severity === 'warning') warnings++;
      else others++;
    }
    const report = toJsonReport(file, analysis);
    reports.push(report);
    if (!parsed.values.json) {
      for (const d of report.diagnostics) {
        io.out(`${file}:${d.range.start.line + 1}:${d.range.start.character + 1} ${d.severity} ${d.code} ${d.message}`);
      }
    }
  }
  if (parsed.values.json) io.out(JSON.stringify({ files: reports }, null, 2));
  else io.err(`${files.length} file${files.length === 1 ? '' : 's'} checked: ${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}, ${others} other finding${others === 1 ? '' : 's'}`);
  if (unreadable) return EXIT_USAGE;
  return errors > 0 ? EXIT_FINDINGS : EXIT_OK;
}

/** Files under a path (folders recursively, config extensions only); undefined if unreadable. */
function collect(p: string, io: CliIO): string[] | undefined {
  let st;
  try {
    st = statSync(p);
  } catch (e) {
    io.err(`rope-lens check: cannot read ${p}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file or folder' : (e as Error).message}`);
    return undefined;
  }
  if (st.isFile()) return [p];
  if (!st.isDirectory()) {
    io.err(`rope-lens check: ${p} is neither a file nor a folder`);
    return undefined;
  }
  const out: string[] = [];
  const walk = (dir: string) => {
    let names: string[];
    try {
      names = readdirSync(dir).sort();
    } catch {
      return;
    }
    for (const n of names) {
      const full = join(dir, n);
      let s;
      try { s = statSync(full); } catch { continue; }
      if (s.isDirectory()) { if (!SKIP_DIRS.has(n)) walk(full); }
      else if (EXTENSIONS.test(n) || LAUNCH_NAMES.test(n)) out.push(full);
    }
  };
  walk(p);
  return out;
}
