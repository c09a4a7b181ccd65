/**
 * Suppressions, as linters do them. In a file with `#` comments (YAML, shell, Dockerfile, Modelfile):
 *
 *   # rope-lens: disable=CODE[,CODE…] [reason]   on the line(s) right above a finding: silences those codes there
 *   # rope-lens: disable-file=CODE[,CODE…]       anywhere: silences those codes in the whole file
 *   # rope-lens: disable-file                     silences every code in the file
 *
 * A code may be a group (`launch`, `launch/*`). The comment applies to the finding's line, or to the
 * first line of the command the finding is in (a continued shell command, a Dockerfile RUN), when
 * it is in the block of comment lines directly above. JSON has no comments: its findings are
 * silenced by the project file (projectConfig.ts). Suppressed findings are kept aside, not dropped,
 * so SARIF can report them as suppressed (inSource for comments, external for the project file).
 */
import type { Finding, Severity } from '../core/findings';
import type { Range } from '../core/range';
import { selectorKnown, selectorMatches } from '../core/codes';
import type { ProjectConfig } from './projectConfig';

export interface SuppressedFinding {
  finding: Finding;
  /** SARIF's suppression kinds: a comment in the file, or the project file. */
  kind: 'inSource' | 'external';
  /** Where it was silenced and why: `line 3: # rope-lens: disable=…`, `.rope-lens.yaml: disable`. */
  justification: string;
}

/** A directive that names nothing known or cannot be read, with its 0-based line. */
export interface DirectiveProblem {
  line: number;
  message: string;
}

interface LineDirective {
  line: number;
  selectors: string[];
  text: string;
}

export interface Directives {
  /** 0-based line → directives written on it. */
  lines: Map<number, LineDirective>;
  /** `disable-file`: selectors, or 'all'. */
  file: { selectors: string[] | 'all'; line: number; text: string }[];
  /** 0-based lines that are comments only (blocks of them stack). */
  commentLines: Set<number>;
  problems: DirectiveProblem[];
}

// `[\s\S]*` to the end, not `.*$`: a line may hold U+2028, where `.*$` fails and every split of the blanks is retried.
const DIRECTIVE = /^\s*#\s*rope-lens\s*:\s*([\s\S]*)$/i;
const SELECTOR_LIST = /^(disable-file|disable)\s*(?:=\s*([A-Za-z0-9_.*\/-]+(?:\s*,\s*[A-Za-z0-9_.*\/-]+)*))?\s*([\s\S]*)$/;

/** The `# rope-lens:` comments of a text (none for JSON, which has no comments). */
export function readDirectives(text: string, hasHashComments: boolean): Directives {
  const out: Directives = { lines: new Map(), file: [], commentLines: new Set(), problems: [] };
  if (!hasHashComments || !/rope-lens\s*:/i.test(text)) return out;
  const lines = text.split(/\r\n|\r|\n/);
  lines.forEach((raw, line) => {
    if (/^\s*#/.test(raw)) out.commentLines.add(line);
    const m = DIRECTIVE.exec(raw);
    if (!m) return;
    const body = m[1].trim();
    const d = SELECTOR_LIST.exec(body);
    if (!d) {
      out.problems.push({ line, message: `'# rope-lens: ${body}' is not a directive RoPE Lens reads (disable=CODE, disable-file=CODE, disable-file)` });
      return;
    }
    const selectors = d[2]
      ?.split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    for (const s of selectors ?? []) {
      if (!selectorKnown(s)) out.problems.push({ line, message: `'${s}' is no finding code or group (see \`rope-lens rules\`); it silences nothing` });
    }
    const text = raw.trim();
    if (d[1] === 'disable-file') out.file.push({ selectors: selectors ?? 'all', line, text });
    else if (!selectors)
      out.problems.push({
        line,
        message: `'disable' needs the codes it silences on the next line (disable=CODE[,CODE]); 'disable-file' silences the whole file`,
      });
    else out.lines.set(line, { line, selectors, text });
  });
  return out;
}

/** The directive that silences a finding starting at `line` (or whose command starts at `commandLine`). */
function lineDirectiveFor(d: Directives, code: string, lines: number[]): LineDirective | undefined {
  for (const start of lines) {
    // Walk the comment block directly above the line, nearest first.
    for (let l = start - 1; l >= 0 && d.commentLines.has(l); l--) {
      const dir = d.lines.get(l);
      if (dir && dir.selectors.some((s) => selectorMatches(s, code))) return dir;
    }
  }
  return undefined;
}

export interface SuppressionInput {
  directives: Directives;
  project?: ProjectConfig;
  /** Ranges of the commands in a launch file: a directive above a command covers its findings. */
  commandRanges?: Range[];
}

/** Which findings a project file turns off (disable, enable, severity `off`), and why; undefined if none. */
export function projectSilences(project: ProjectConfig | undefined, code: string): string | undefined {
  if (!project) return undefined;
  if (project.enable && !project.enable.some((s) => selectorMatches(s, code))) return `${project.path}: not in enable`;
  const off = project.disable.find((s) => selectorMatches(s, code));
  if (off) return `${project.path}: disable ${off}`;
  if (project.severity[code] === 'off') return `${project.path}: severity off`;
  return undefined;
}

/** The project file's severity for a code (exact code first, then its group), if it sets one. */
export function projectSeverity(project: ProjectConfig | undefined, code: string): Severity | undefined {
  if (!project) return undefined;
  const exact = project.severity[code];
  if (exact && exact !== 'off') return exact;
  for (const [sel, level] of Object.entries(project.severity)) {
    if (sel !== code && level !== 'off' && selectorMatches(sel, code)) return level;
  }
  return undefined;
}

/** Splits findings into those reported and those suppressed (comments first, then the project file). */
export function applySuppressions(findings: Finding[], input: SuppressionInput): { kept: Finding[]; suppressed: SuppressedFinding[] } {
  const kept: Finding[] = [];
  const suppressed: SuppressedFinding[] = [];
  const { directives: d, project } = input;
  for (const f of findings) {
    const whole = d.file.find((x) => x.selectors === 'all' || x.selectors.some((s) => selectorMatches(s, f.code)));
    if (whole) {
      suppressed.push({ finding: f, kind: 'inSource', justification: `line ${whole.line + 1}: ${whole.text}` });
      continue;
    }
    const line = f.range.start.line;
    const starts = [line, ...(input.commandRanges ?? []).filter((r) => r.start.line < line && r.end.line >= line).map((r) => r.start.line)];
    const dir = lineDirectiveFor(d, f.code, starts);
    if (dir) {
      suppressed.push({ finding: f, kind: 'inSource', justification: `line ${dir.line + 1}: ${dir.text}` });
      continue;
    }
    const why = projectSilences(project, f.code);
    if (why) {
      suppressed.push({ finding: f, kind: 'external', justification: why });
      continue;
    }
    kept.push(f);
  }
  return { kept, suppressed };
}
