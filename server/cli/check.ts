/**
 * `rope-lens check <files or folders…>`: lints model configs, training and serving YAML, and GGUF
 * headers.
 *
 * Output (`--format`): `text` (default) `path:line:col severity code message` (1-based, like other
 * linters) and a summary on stderr; `json` (or `--json`) {"files":[…]} with 0-based LSP ranges;
 * `sarif` (SARIF 2.1.0, for code scanning); `github` (workflow commands that annotate the diff).
 *
 * Exit codes: 0 nothing at or above the `--fail-on` level (default `error`); 1 at least one finding
 * at or above it (`never`: never 1); 2 usage errors or unreadable paths.
 *
 * Base models and served models are resolved offline (local folder, HF cache, catalog); with `--hub`
 * or ROPE_LENS_HUB=1 the ones not found are fetched from the Hub into the HF cache first (see hub.ts).
 */
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { CliIO, EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, UsageError, parseCliArgs } from './io';
import { cliService } from './service';
import { toJsonReport, JsonFileReport } from '../../shared/service/jsonReport';
import { checkGguf, GgufFileReport } from './checkGguf';
import type { Severity } from '../../shared/core/findings';
import type { FileAnalysis } from '../../shared/service/types';
import { HUB_OPTION, fetchMissing, fromPhrase, hubContext } from './hub';
import { createNodeResolver } from '../../shared/node/resolveNode';
import { parseHubRef, recordingResolver } from '../../shared/config/resolve';
import { toGithub, toSarif } from './ciFormats';
import { loadShellParser } from '../../shared/node/shellParser';
import { PROJECT_FILE_NAME, ignoredBy } from '../../shared/service/projectConfig';
// Launch files a folder walk picks up by name (a file named on the command line is always read);
// what each one is, is decided by its text.
import { mayBeLaunchFileName } from '../../shared/launch/format';
import { CONSUMER_SPEC_FORMS, consumerSpecProblem } from '../../shared/service/engines';
import { Walker } from './walk';
import { readInput } from './readInput';
import { NATIVE_LOG_ENV } from '../../shared/node/adapterProbe';

const EXTENSIONS = /\.(json|jsonc|ya?ml|gguf)$/i;
const SKIP_DIRS = new Set(['node_modules', '.git', 'dist', '.venv', 'venv', '__pycache__']);

const USAGE =
  'usage: rope-lens check <files or folders…> [--format text|json|sarif|github] [--output FILE] [--fail-on error|warning|never] [--hub] [--variant v4|v5] [--consumer SPEC]… [--verbose]';
const FORMATS = ['text', 'json', 'sarif', 'github'] as const;
const FAIL_ON = ['error', 'warning', 'never'] as const;
type Format = (typeof FORMATS)[number];
type FailOn = (typeof FAIL_ON)[number];

/** Whether a finding of this severity makes the run fail at the `--fail-on` level. */
export function fails(severity: Severity, failOn: FailOn): boolean {
  return failOn === 'error' ? severity === 'error' : failOn === 'warning' ? severity === 'error' || severity === 'warning' : false;
}

export async function run(argv: string[], io: CliIO): Promise<number> {
  const parsed = parseCliArgs({
    args: argv,
    allowPositionals: true,
    options: {
      json: { type: 'boolean' },
      format: { type: 'string' },
      output: { type: 'string' },
      'fail-on': { type: 'string' },
      variant: { type: 'string' },
      consumer: { type: 'string', multiple: true },
      verbose: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
      ...HUB_OPTION,
    },
  });
  if (parsed.values.help) {
    io.out(USAGE);
    return EXIT_OK;
  }
  const variant = parsed.values.variant ?? 'v5';
  if (variant !== 'v4' && variant !== 'v5') throw new UsageError(`--variant must be v4 or v5, got '${variant}'`);
  const format = (parsed.values.format ?? (parsed.values.json ? 'json' : 'text')) as Format;
  if (!FORMATS.includes(format)) throw new UsageError(`--format must be one of ${FORMATS.join(', ')}, got '${parsed.values.format}'`);
  if (parsed.values.json && format !== 'json') throw new UsageError(`--json and --format ${format} contradict each other`);
  const failOn = (parsed.values['fail-on'] ?? 'error') as FailOn;
  if (!FAIL_ON.includes(failOn)) throw new UsageError(`--fail-on must be one of ${FAIL_ON.join(', ')}, got '${failOn}'`);
  if (parsed.positionals.length === 0) throw new UsageError(`no files or folders given (${USAGE})`);
  // --output FILE: the format goes to the file and the plain text lines to stdout, from one analysis
  // (the GitHub Action writes SARIF for code scanning and keeps a readable log, without annotations).
  const output = parsed.values.output;
  if (output !== undefined && (output === '' || format === 'text')) throw new UsageError('--output takes a file name, with --format json, sarif or github');
  // A misspelt consumer would silently check nothing: refuse it, naming the forms accepted.
  for (const spec of parsed.values.consumer ?? []) {
    const problem = consumerSpecProblem(spec);
    if (problem) throw new UsageError(`--consumer ${problem}; accepted: ${CONSUMER_SPEC_FORMS}`);
  }

  let unreadable = false;
  const walker = new Walker({
    wanted: (n) => n !== PROJECT_FILE_NAME && (EXTENSIONS.test(n) || mayBeLaunchFileName(n)),
    skipFolder: (n) => SKIP_DIRS.has(n),
  });
  for (const p of parsed.positionals) if (!collect(p, walker, io)) unreadable = true;
  const { files } = walker.result;
  const notRead = [...walker.result.notFollowed];
  let skippedFiles = 0;

  // --verbose: errors the analysis survives (a rule tripping over an odd value) are printed, not dropped,
  // and so are the GPU library's own log lines (adapterProbe.ts).
  if (parsed.values.verbose) process.env[NATIVE_LOG_ENV] = '1';
  const log = parsed.values.verbose ? (line: string) => io.err(`rope-lens check: ${line}`) : undefined;

  // Pass 1, offline: every file, remembering which ones named a Hub model the resolver did not find.
  // --consumer transformers==4.41.0 (repeatable): the consumers that load these files, as ropeLens.consumers.
  const settings = parsed.values.consumer ? { consumers: parsed.values.consumer } : undefined;
  // The shell grammar (WASM, ~25 ms) is loaded only when a file may hold shell commands.
  const mayLaunch = files.some((f) => !/\.(json|jsonc|gguf)$/i.test(f));
  const shell = mayLaunch
    ? await loadShellParser().catch((e) => {
        io.err(`rope-lens check: the shell parser did not load, shell commands are not read: ${(e as Error).message}`);
        return undefined;
      })
    : undefined;
  const recorder = recordingResolver(createNodeResolver());
  let service = cliService(variant, log, recorder, shell);
  const analyses = new Map<string, FileAnalysis>();
  const missed: string[] = [];
  for (const file of files) {
    if (/\.gguf$/i.test(file)) continue;
    let text: string;
    try {
      const input = readInput(file);
      if ('skipped' in input) {
        notRead.push(`${file}: ${input.skipped}`);
        skippedFiles++;
        continue;
      }
      text = input.text;
    } catch (e) {
      io.err(`rope-lens check: cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
      unreadable = true;
      continue;
    }
    analyses.set(file, service.analyze(text, { fileName: resolve(file), settings }));
    if (recorder.takeMisses(resolve(file)).length) missed.push(file);
  }
  // Those models from the Hub (with the opt-in), then pass 2 over the files that needed them.
  const hub = hubContext(parsed.values.hub, io);
  let resolver = recorder;
  if (recorder.misses.size && (await fetchMissing(recorder.misses, hub))) {
    resolver = recordingResolver(createNodeResolver());
    service = cliService(variant, log, resolver, shell);
    for (const file of missed) analyses.set(file, service.analyze(readFileSync(file, 'utf8'), { fileName: resolve(file), settings }));
  }
  // With the Hub enabled, every model the run used says where it came from (fetched ones said so above).
  if (hub.enabled) {
    for (const hit of resolver.hits.values()) {
      if (!hub.said.has(hit.ref) && parseHubRef(hit.ref)) io.err(`rope-lens: ${hit.ref}: ${fromPhrase(hit)}`);
      hub.said.add(hit.ref);
    }
  }

  // Problems with suppression comments and project files: one stderr line each (they never fail the run).
  const said = new Set<string>();
  const warn = (line: string) => {
    if (!said.has(line)) {
      said.add(line);
      io.err(line);
    }
  };
  let ignored = 0;
  const reports: (JsonFileReport | GgufFileReport)[] = [];
  const counts: Record<Severity, number> = { error: 0, warning: 0, information: 0, hint: 0 };
  // Hints are facts about files the user need not change (a stock checkpoint below the bound): the
  // editor shows them without a Problems entry, the text, GitHub and SARIF outputs only with --verbose.
  // JSON keeps every finding, with its severity, for tools to filter.
  const shown = (severity: Severity) => severity !== 'hint' || !!parsed.values.verbose;
  const textLines: string[] = [];
  for (const file of files) {
    if (/\.gguf$/i.test(file)) {
      const project = service.projectFor(resolve(file));
      const skip = project && ignoredBy(project, resolve(file));
      for (const p of project?.problems ?? []) warn(`rope-lens: ${p}`);
      if (skip) {
        ignored++;
        continue;
      }
      const g = await checkGguf(file, service, io);
      if (!g) {
        unreadable = true;
        continue;
      }
      for (const d of g.diagnostics) {
        counts[d.severity]++;
        if (!shown(d.severity)) continue;
        textLines.push(`${file}: ${d.severity} ${d.code} ${d.message}${d.key ? ` [${d.key}]` : ''}`);
      }
      reports.push(g.report);
      continue;
    }
    const analysis = analyses.get(file);
    if (!analysis) continue;
    for (const p of analysis.configProblems ?? []) warn(p.line === undefined ? `rope-lens: ${p.message}` : `${file}:${p.line + 1}: rope-lens: ${p.message}`);
    if (analysis.ignoredBy) {
      ignored++;
      continue;
    }
    for (const d of analysis.diagnostics) counts[d.severity]++;
    const report = toJsonReport(file, analysis);
    reports.push(report);
    for (const d of report.diagnostics) {
      if (!shown(d.severity)) continue;
      textLines.push(`${file}:${d.range.start.line + 1}:${d.range.start.character + 1} ${d.severity} ${d.code} ${d.message}`);
      // --verbose: the explanation behind each headline, indented under it.
      if (parsed.values.verbose && d.detail) textLines.push(`    ${d.detail}`);
    }
  }

  // Launches not judged are said once for all of them, not per launch: those whose model was not found offline
  // (`--hub` can help), those not judged for another reason (no RoPE, no model named, a model chosen at run time),
  // and lines that look like launches but are not read as one (a RUN build step, …).
  const unjudged: string[] = [];
  const otherwise: string[] = [];
  const unread: string[] = [];
  for (const [file, a] of analyses) {
    if (a.ignoredBy) continue;
    for (const l of a.launches ?? [])
      if (l.unjudged)
        (l.unread ? unread : l.notFoundOffline ? unjudged : otherwise).push(`${file}:${l.range.start.line + 1}:${l.range.start.character + 1} ${l.unjudged}`);
    if (a.serving?.unjudged) (a.serving.notFoundOffline ? unjudged : otherwise).push(`${file} ${a.serving.unjudged}`);
  }

  // Code scanning and GitHub annotations list what they get as alerts: hints only with --verbose, as in the text.
  const shownReports = reports.map((r) => ({ ...r, diagnostics: (r.diagnostics as { severity: Severity }[]).filter((d) => shown(d.severity)) }) as typeof r);
  const formatted =
    format === 'json'
      ? JSON.stringify({ files: reports }, null, 2)
      : format === 'sarif'
        ? JSON.stringify(toSarif(shownReports, { version: require('../../package.json').version }), null, 2)
        : format === 'github'
          ? toGithub(shownReports).join('\n')
          : textLines.join('\n');
  if (output !== undefined) {
    try {
      writeFileSync(output, formatted + '\n');
    } catch (e) {
      io.err(`rope-lens check: cannot write ${output}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
      return EXIT_USAGE;
    }
    for (const l of textLines) io.out(l);
  } else if (formatted) io.out(formatted);
  // What was given but not read (a symlink cycle, a binary or oversized file): said in every format.
  sayNotRead(notRead, parsed.values.verbose === true, io);
  if ((format !== 'json' && format !== 'sarif') || output !== undefined) {
    const others = counts.information + counts.hint;
    const n = (k: number, w: string) => `${k} ${w}${k === 1 ? '' : 's'}`;
    if (unjudged.length) {
      io.err(
        `${unjudged.length} launch${unjudged.length === 1 ? '' : 'es'} not judged: ${unjudged.length === 1 ? 'its model was' : 'models'} not found ${hub.enabled ? 'offline or on the Hub' : 'offline; `--hub` resolves them'}${parsed.values.verbose ? ':' : ' (--verbose lists them)'}`,
      );
      if (parsed.values.verbose) for (const u of unjudged) io.err(`  ${u}`);
    }
    if (otherwise.length) {
      io.err(
        `${otherwise.length} launch${otherwise.length === 1 ? '' : 'es'} not judged for what ${otherwise.length === 1 ? 'it says' : 'they say'} (no RoPE, no model named, a model chosen at run time, …)${parsed.values.verbose ? ':' : otherwise.length === 1 ? `: ${otherwise[0]}` : ' (--verbose lists them)'}`,
      );
      if (parsed.values.verbose) for (const u of otherwise) io.err(`  ${u}`);
    }
    if (unread.length) {
      io.err(
        `${unread.length === 1 ? '1 line that looks like a launch' : `${unread.length} lines that look like launches`} not judged${parsed.values.verbose ? ':' : unread.length === 1 ? `: ${unread[0]}` : ' (--verbose lists them)'}`,
      );
      if (parsed.values.verbose) for (const u of unread) io.err(`  ${u}`);
    }
    const silenced = reports.reduce((k, r) => k + ('suppressed' in r && r.suppressed ? r.suppressed.length : 0), 0);
    const hidden = parsed.values.verbose || format === 'json' ? 0 : counts.hint;
    const extra = [
      hidden ? `${n(hidden, 'hint')} not shown; --verbose shows them` : '',
      ignored ? `${n(ignored, 'file')} ignored by the project file` : '',
      silenced ? `${silenced} suppressed` : '',
    ].filter(Boolean);
    io.err(
      `${n(files.length - ignored - skippedFiles, 'file')} checked: ${n(counts.error, 'error')}, ${n(counts.warning, 'warning')}, ${n(others, 'other finding')}${extra.length ? ` (${extra.join(', ')})` : ''}`,
    );
  }
  if (unreadable) return EXIT_USAGE;
  return (Object.keys(counts) as Severity[]).some((sev) => counts[sev] > 0 && fails(sev, failOn)) ? EXIT_FINDINGS : EXIT_OK;
}

/** Lines past this many are listed with --verbose only (a tree full of links would flood stderr). */
const NOT_READ_SHOWN = 10;

function sayNotRead(notRead: readonly string[], verbose: boolean, io: CliIO): void {
  const shown = verbose ? notRead : notRead.slice(0, NOT_READ_SHOWN);
  for (const line of shown) io.err(`rope-lens check: skipped ${line}`);
  if (shown.length < notRead.length) io.err(`rope-lens check: skipped ${notRead.length - shown.length} more (--verbose lists them)`);
}

/** Adds the files under a path (folders recursively, config extensions only) to the walk; false if unreadable. */
function collect(p: string, walker: Walker, io: CliIO): boolean {
  let st;
  try {
    st = statSync(p);
  } catch (e) {
    io.err(`rope-lens check: cannot read ${p}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file or folder' : (e as Error).message}`);
    return false;
  }
  if (st.isFile()) walker.addFile(p);
  else if (st.isDirectory()) walker.addFolder(p);
  else {
    io.err(`rope-lens check: ${p} is neither a file nor a folder`);
    return false;
  }
  return true;
}
