/**
 * dstack run configurations (`.dstack.yml`, `*.dstack.yml`: `type: task | service | dev-environment`):
 * `commands:` (dev environments: `init:`) run in one shell, in order, with `env:` exported
 * (a `- NAME=value` list or a map; `- NAME` alone comes from the user's environment). A service's
 * `model:` only registers a name with the gateway; the command says what runs.
 */
import { isMap, isSeq, type Node as YamlNode } from 'yaml';
import { joinScalars, readTaskShell, taskEnv } from './taskBlocks';
import { LineMap } from './text';
import type { Invocation, LaunchFile, ShellParser, SourceReader } from './types';
import { parseYamlDocs } from './yamlScalar';

export const DSTACK_TYPE = /^type[ \t]*:[ \t]*["']?(task|service|dev-environment)["']?[ \t]*(?:#.*)?$/m;

export function readDstack(text: string, shell?: ShellParser, readSourced?: SourceReader): LaunchFile {
  const doc = new LineMap(text);
  const problems: LaunchFile['problems'] = [];
  const invocations: Invocation[] = [];
  const parsed = parseYamlDocs(text);
  for (const p of parsed.problems) problems.push({ message: p.message, range: doc.range(p.offset, p.length), ...(p.partial ? { partial: true } : {}) });
  let kind = 'run configuration';
  let typeAt: [number, number] = [0, 0];
  let runs = false;
  for (const d of parsed.docs) {
    const root = d.contents;
    if (!isMap(root)) continue;
    const type = root.get('type', true) as { value?: unknown; range?: [number, number, number] } | undefined;
    if (type?.value) kind = String(type.value);
    if (type?.range) typeAt = [type.range[0], type.range[1]];
    const env = taskEnv(root.get('env', true) as YamlNode | undefined, doc);
    for (const key of ['init', 'commands'] as const) {
      const node = root.get(key, true) as YamlNode | undefined;
      if (!isSeq(node) || !shell) continue;
      runs ||= node.items.length > 0;
      const script = joinScalars(doc, node.items as YamlNode[]);
      if (!script) continue;
      const r = readTaskShell(doc, script, shell, env, 'dstack', `dstack ${kind} ${key}:, env: exported`, readSourced);
      invocations.push(...r.invocations);
      problems.push(...r.problems);
    }
  }
  const file: LaunchFile = { format: 'dstack', invocations, problems };
  // A dev environment with no `init:` only opens an IDE: nothing runs, nothing to say.
  if (!invocations.length && shell && runs)
    file.unread = [
      {
        program: `dstack ${kind}`,
        message: `a dstack ${kind} whose commands start no engine or trainer RoPE Lens reads (vLLM, SGLang, llama.cpp, TGI, Ollama, a known trainer or a train script), so nothing in it was judged.`,
        range: doc.range(typeAt[0], typeAt[1] - typeAt[0]),
      },
    ];
  return file;
}
