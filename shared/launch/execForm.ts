/**
 * Dockerfile exec form as Docker reads it: `CMD`, `ENTRYPOINT`, `RUN`, `SHELL` (and `HEALTHCHECK
 * CMD`) whose arguments start with `[` are parsed as a JSON array of strings; when that parse fails
 * Docker silently falls back to shell form (`/bin/sh -c '["python3", …'`), which runs something
 * else entirely. This lists the instructions written as exec form that Docker would not read as
 * one, so a fix can be held to "every exec-form list still parses".
 */

export interface ExecFormProblem {
  instruction: string;
  /** Offset of the instruction's first character. */
  offset: number;
  message: string;
}

const EXEC_INSTRUCTIONS = /^\s*(CMD|ENTRYPOINT|RUN|SHELL|HEALTHCHECK\s+(?:--\S+\s+)*CMD)\s+(\[[\s\S]*)$/i;

export function checkExecForms(text: string): ExecFormProblem[] {
  const escape = /^#\s*escape\s*=\s*`/im.test(text.split(/\r?\n/).slice(0, 5).join('\n')) ? '`' : '\\';
  const out: ExecFormProblem[] = [];
  const lines = text.split('\n');
  let offset = 0;
  let logical = '';
  let start = -1;
  for (const raw of lines) {
    const line = raw.replace(/\r$/, '');
    const lineOffset = offset;
    offset += raw.length + 1;
    // Comment lines are dropped, inside a continued instruction too.
    if (/^\s*#/.test(line)) continue;
    if (start < 0) {
      if (!line.trim()) continue;
      start = lineOffset;
    }
    const trimmed = line.trimEnd();
    if (trimmed.endsWith(escape)) {
      logical += trimmed.slice(0, -1);
      continue;
    }
    logical += line;
    check(logical, start, out);
    logical = '';
    start = -1;
  }
  if (start >= 0) check(logical, start, out);
  return out;
}

function check(instruction: string, offset: number, out: ExecFormProblem[]): void {
  const m = EXEC_INSTRUCTIONS.exec(instruction);
  if (!m) return;
  const args = m[2].trim();
  let ok = false;
  try {
    const v: unknown = JSON.parse(args);
    ok = Array.isArray(v) && v.every((x) => typeof x === 'string');
  } catch {
    ok = false;
  }
  if (!ok)
    out.push({
      instruction: m[1].split(/\s/)[0].toUpperCase(),
      offset,
      message: `${m[1].toUpperCase()} is not a JSON array of strings: Docker runs it in shell form`,
    });
}
