/**
 * SkyPilot task YAML (`sky launch`, `sky serve up`): `setup:` and `run:` are bash scripts run on the
 * cluster with `envs:` exported (sky/task.py; `secrets:` too, values unknown here). Both blocks are
 * read with the shell adapter; the engine or trainer `run:` starts is the launch. A task whose
 * blocks start nothing RoPE Lens reads is said, not silent (LaunchFile.unread).
 */
import { isMap, isScalar, type Node as YamlNode } from 'yaml';
import { joinScalars, readTaskShell, taskEnv } from './taskBlocks';
import { LineMap } from './text';
import type { Invocation, LaunchFile, ShellParser, SourceReader, Token } from './types';
import { parseYamlDocs } from './yamlScalar';

/** Top-level keys only a SkyPilot task has beside `run:` (sky/utils/schemas.py get_task_schema). */
export const SKYPILOT_KEYS = /^(?:resources|envs|setup|num_nodes|file_mounts|workdir|service|secrets)[ \t]*:/m;
export const SKYPILOT_RUN = /^run[ \t]*:/m;

export function readSkyPilot(text: string, shell?: ShellParser, readSourced?: SourceReader): LaunchFile {
  const doc = new LineMap(text);
  const problems: LaunchFile['problems'] = [];
  const invocations: Invocation[] = [];
  const parsed = parseYamlDocs(text);
  for (const p of parsed.problems) problems.push({ message: p.message, range: doc.range(p.offset, p.length), ...(p.partial ? { partial: true } : {}) });
  let runAt: [number, number] | undefined;
  for (const d of parsed.docs) {
    const root = d.contents;
    if (!isMap(root)) continue;
    const env: Record<string, Token> = { ...taskEnv(root.get('envs', true) as YamlNode | undefined, doc) };
    // `secrets:` are exported too; their values come from the command line or the environment.
    for (const [k, t] of Object.entries(taskEnv(root.get('secrets', true) as YamlNode | undefined, doc))) env[k] = { ...t, known: false };
    for (const block of ['setup', 'run'] as const) {
      const node = root.get(block, true) as YamlNode | undefined;
      if (!isScalar(node) || typeof node.value !== 'string' || !node.range) continue;
      if (block === 'run') runAt = [node.range[0], node.range[1]];
      const script = joinScalars(doc, [node]);
      if (!script) {
        problems.push({ message: `the ${block}: block does not map back to the file, so it was not read`, range: doc.range(node.range[0], 0) });
        continue;
      }
      if (!shell) continue;
      const r = readTaskShell(doc, script, shell, env, 'skypilot', `SkyPilot task ${block}: block, envs: exported`, readSourced);
      invocations.push(...r.invocations);
      problems.push(...r.problems);
    }
  }
  const file: LaunchFile = { format: 'skypilot', invocations, problems };
  if (!invocations.length && shell) {
    const at = runAt ?? [0, 0];
    file.unread = [
      {
        program: 'SkyPilot task',
        message: `a SkyPilot task whose ${runAt ? 'run: block' : 'setup: block (it has no run:)'} starts no engine or trainer RoPE Lens reads (vLLM, SGLang, llama.cpp, TGI, Ollama, a known trainer or a train script), so nothing in it was judged.`,
        range: doc.range(at[0], Math.min(at[1] - at[0], Math.max(0, text.indexOf('\n', at[0]) - at[0]))),
      },
    ];
  }
  return file;
}
