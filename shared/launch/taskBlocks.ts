/**
 * Shell held in YAML task files (SkyPilot `setup:`/`run:`, dstack `commands:`): the blocks are read
 * by the shell adapter, mapped back to the YAML so every token keeps its span, with the task's
 * variables (`envs:`, `env:`) exported before the first line as the task runners do.
 */
import { isMap, isScalar, isSeq, type Node as YamlNode } from 'yaml';
import { readShellValue } from './shell';
import type { LineMap } from './text';
import type { Invocation, LaunchFile, ShellParser, SourceReader, Token } from './types';
import { scalarText, scalarToken, valueMap, type ValueMap } from './yamlScalar';

/** One script made of YAML scalars run in order by one shell (dstack's `commands:` list). */
export function joinScalars(doc: LineMap, nodes: YamlNode[]): { text: string; pieces: ValueMap } | undefined {
  let text = '';
  const pieces: ValueMap = [];
  for (const n of nodes) {
    if (!isScalar(n) || typeof n.value !== 'string') continue;
    const map = valueMap(doc, n);
    if (!map) continue;
    if (text) text += '\n';
    const at = text.length;
    for (const p of map) pieces.push({ valueStart: at + p.valueStart, docStart: p.docStart });
    text += n.value;
  }
  return text ? { text, pieces } : undefined;
}

/** `NAME: value` maps and `- NAME=value` lists (dstack), as exported variables; `- NAME` alone is unknown. */
export function taskEnv(node: YamlNode | undefined, doc: LineMap): Record<string, Token> {
  const env: Record<string, Token> = {};
  const nameAt = (r: [number, number, number] | undefined) => (r ? { offset: r[0], length: r[1] - r[0], range: doc.range(r[0], r[1] - r[0]) } : undefined);
  if (isMap(node)) {
    for (const p of node.items) {
      if (!isScalar(p.key)) continue;
      const name = String(p.key.value);
      const t = isScalar(p.value) && p.value.value !== null ? scalarToken(doc, p.value) : undefined;
      const at = nameAt(p.key.range as [number, number, number] | undefined);
      if (t) env[name] = at ? { ...t, nameAt: at } : t;
      else if (at) env[name] = { value: '', raw: '', offset: at.offset, length: at.length, range: at.range, quote: 'none', known: false };
    }
  } else if (isSeq(node)) {
    for (const item of node.items) {
      if (!isScalar(item) || !item.range) continue;
      const text = scalarText(doc, item);
      const eq = text.indexOf('=');
      const whole = scalarToken(doc, item);
      if (!whole) continue;
      if (eq < 0) {
        env[text] = { ...whole, value: '', known: false };
        continue;
      }
      const map = valueMap(doc, item);
      const start = map?.length === 1 ? map[0].docStart + eq + 1 : undefined;
      const value = text.slice(eq + 1);
      env[text.slice(0, eq)] =
        start !== undefined
          ? {
              value,
              raw: doc.text.slice(start, start + value.length),
              offset: start,
              length: value.length,
              range: doc.range(start, value.length),
              quote: 'none',
              known: true,
            }
          : { ...whole, value };
    }
  }
  return env;
}

/** The launches a shell block starts, with the task's variables exported and its source named. */
export function readTaskShell(
  doc: LineMap,
  script: { text: string; pieces: ValueMap },
  shell: ShellParser,
  env: Record<string, Token>,
  source: Invocation['source'],
  note: string,
  readSourced?: SourceReader,
): { invocations: Invocation[]; problems: LaunchFile['problems'] } {
  const r = readShellValue(doc, script.text, script.pieces, shell, { env, source, readSourced });
  for (const inv of r.invocations) inv.notes.push(note);
  return r;
}
