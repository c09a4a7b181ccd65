/**
 * Kubernetes manifests → one invocation per container of each workload (Deployment, StatefulSet,
 * DaemonSet, ReplicaSet, Job, CronJob, Pod, LeaderWorkerSet leader and worker templates, and `List`
 * items), and one per KubeAI `Model` (kubeai.ts), across `---` documents.
 * Container semantics: `command` replaces the image's entrypoint, `args` its CMD; `$(NAME)` in
 * either is replaced by the container's `env` value (`$$(` keeps it literal); `valueFrom` values
 * are unknown. Init containers run before the server and are not read.
 */
import { isMap, isScalar, isSeq, type Node as YamlNode, type YAMLMap } from 'yaml';
import { isKubeAiModel, readKubeAiModel } from './kubeai';
import { throughShellC } from './shell';
import { isLaunchInvocation, isLaunchProgram } from './sniff';
import { LineMap, makeToken, spanOf } from './text';
import type { Invocation, LaunchFile, ShellParser, Token } from './types';
import { listAppend, parseYamlDocs, quoteOfScalar, scalarText, scalarToken, valueMap, type ValueMap } from './yamlScalar';

const get = (m: unknown, key: string): YamlNode | undefined => (isMap(m) ? (m.get(key, true) as YamlNode | undefined) : undefined);

/** The pod spec of a workload object, by kind. */
function podSpecs(obj: YAMLMap): YAMLMap[] {
  const kind = String(get(obj, 'kind') && isScalar(get(obj, 'kind')) ? (get(obj, 'kind') as { value: unknown }).value : '');
  const spec = get(obj, 'spec');
  let pod: unknown;
  switch (kind) {
    case 'Pod':
      pod = spec;
      break;
    case 'Deployment':
    case 'StatefulSet':
    case 'DaemonSet':
    case 'ReplicaSet':
    case 'Job':
    case 'ReplicationController':
      pod = get(get(spec, 'template'), 'spec');
      break;
    case 'CronJob':
      pod = get(get(get(get(spec, 'jobTemplate'), 'spec'), 'template'), 'spec');
      break;
    // LeaderWorkerSet (sigs.k8s.io/lws): a leader pod template and a worker pod template per group;
    // without leaderTemplate the leader runs the worker template.
    case 'LeaderWorkerSet': {
      const lwt = get(spec, 'leaderWorkerTemplate');
      return [get(get(lwt, 'leaderTemplate'), 'spec'), get(get(lwt, 'workerTemplate'), 'spec')].filter((p): p is YAMLMap => isMap(p));
    }
    case 'List': {
      const items = get(obj, 'items');
      return isSeq(items) ? items.items.filter(isMap).flatMap((i) => podSpecs(i as YAMLMap)) : [];
    }
  }
  return isMap(pod) ? [pod] : [];
}

export function readKubernetes(text: string, shell?: ShellParser): LaunchFile {
  const doc = new LineMap(text);
  const problems: LaunchFile['problems'] = [];
  const invocations: Invocation[] = [];
  const maps = new Map<Token, ValueMap>();
  const parsed = parseYamlDocs(text);
  for (const p of parsed.problems) problems.push({ message: p.message, range: doc.range(p.offset, p.length), ...(p.partial ? { partial: true } : {}) });
  for (const d of parsed.docs) {
    if (!isMap(d.contents)) continue;
    if (isKubeAiModel(d.contents)) {
      const inv = readKubeAiModel(d.contents, doc);
      if (inv && isLaunchInvocation(inv)) invocations.push(inv);
      continue;
    }
    for (const pod of podSpecs(d.contents)) {
      const containers = get(pod, 'containers');
      if (!isSeq(containers)) continue;
      for (const c of containers.items) {
        if (!isMap(c)) continue;
        const inv = readContainer(c, doc, maps);
        if (!inv) continue;
        const shelled = throughShellC(
          inv,
          doc,
          (t) => {
            const pieces = maps.get(t);
            return pieces && { text: t.value, pieces };
          },
          shell,
        );
        const args = c.items.find((p) => isScalar(p.key) && p.key.value === 'args');
        const key = args && isScalar(args.key) ? args.key.range : undefined;
        // `args:` go to the image's entrypoint; `command:` replaces it.
        if (shelled.shellAfterEntrypoint && key)
          shelled.shellAfterEntrypoint.fix = {
            title: 'Replace the image entrypoint: args: → command:',
            range: doc.range(key[0], key[1] - key[0]),
            newText: 'command',
          };
        if (isLaunchInvocation(shelled)) invocations.push(shelled);
      }
    }
  }
  return { format: 'kubernetes', invocations, problems };
}

function containerEnv(node: YamlNode | undefined, doc: LineMap): Record<string, Token> {
  const env: Record<string, Token> = {};
  if (!isSeq(node)) return env;
  for (const item of node.items) {
    const nameNode = get(item, 'name');
    if (!isScalar(nameNode)) continue;
    const name = String(nameNode.value);
    const value = get(item, 'value');
    if (isScalar(value)) {
      // An env value may use the variables defined before it: `$(BASE)/models`.
      const t = scalarToken(doc, value);
      const n = nameNode.range;
      if (t) env[name] = { ...expandRefs(t, env), ...(n ? { nameAt: { offset: n[0], length: n[1] - n[0], range: doc.range(n[0], n[1] - n[0]) } } : {}) };
    } else {
      // `valueFrom:` (a secret, a config map, a field ref): unknown until the cluster resolves it.
      const at = (get(item, 'valueFrom') as { range?: [number, number] } | undefined)?.range ?? nameNode.range ?? [0, 0];
      env[name] = makeToken(doc, { offset: at[0], length: at[1] - at[0], value: '', quote: 'none', known: false });
    }
  }
  return env;
}

/** `$(NAME)` → the env value, as the kubelet expands command and args. */
function expandRefs(t: Token, env: Record<string, Token>): Token {
  if (!t.value.includes('$(')) return t;
  let known = t.known;
  const via = [...(t.via ?? [])];
  const value = t.value.replace(/\$\$\(|\$\(([A-Za-z_][\w.-]*)\)/g, (m, name?: string) => {
    if (!name) return '$(';
    const e = env[name];
    if (!e) return m; // the kubelet leaves an unknown reference as written
    known &&= e.known;
    via.push({ name, assignedAt: e.range });
    return e.value;
  });
  return { ...t, value, known, via: via.length ? via : undefined };
}

function listTokens(node: YamlNode | undefined, doc: LineMap, env: Record<string, Token>, maps: Map<Token, ValueMap>): Token[] | undefined {
  if (!isSeq(node)) return undefined;
  const out: Token[] = [];
  for (const item of node.items) {
    if (!isScalar(item) || !item.range) continue;
    const t = expandRefs(
      makeToken(doc, { offset: item.range[0], length: item.range[1] - item.range[0], value: scalarText(doc, item), quote: quoteOfScalar(item) }),
      env,
    );
    const m = t.value === scalarText(doc, item) ? valueMap(doc, item) : undefined;
    if (m) maps.set(t, m);
    out.push(t);
  }
  return out;
}

function readContainer(c: YAMLMap, doc: LineMap, maps: Map<Token, ValueMap>): Invocation | undefined {
  const imageNode = get(c, 'image');
  const image = isScalar(imageNode) ? scalarToken(doc, imageNode) : undefined;
  const env = containerEnv(get(c, 'env'), doc);
  const notes: string[] = [];
  if (get(c, 'envFrom')) notes.push('envFrom not read: the variables it sets are unknown');
  const commandNode = get(c, 'command');
  const argsNode = get(c, 'args');
  const command = listTokens(commandNode, doc, env, maps);
  const args = listTokens(argsNode, doc, env, maps);
  if (!image && !command && !args) return undefined;
  const argv = [...(command ?? []), ...(args ?? [])];
  const r = c.range ?? [0, 0];
  const span = spanOf(argv) ?? { offset: r[0], length: r[1] - r[0] };
  // `args` without `command` feed the image's entrypoint. Args that start with a launch program
  // (`python3 -m vllm.entrypoints.api_server …` on GKE's Vertex vLLM image) are a whole command:
  // the image runs its arguments (no entrypoint of its own, or one that execs them), since an
  // engine's own entrypoint does not take a program name as its first argument.
  const argsAreCommand = !command && !!args?.length && isLaunchProgram(args.map((t) => t.value));
  if (argsAreCommand) notes.push('args without command start with a program: read as the command the image runs');
  const inv: Invocation = {
    argv,
    entrypoint: command || argsAreCommand ? 'program' : 'image',
    env,
    source: 'kubernetes',
    range: doc.range(span.offset, span.length),
    offset: span.offset,
    length: span.length,
    notes,
  };
  if (image) inv.image = image;
  const append = args?.length ? listAppend(argsNode!, doc, args) : command?.length ? listAppend(commandNode!, doc, command) : undefined;
  if (append) inv.append = append;
  return inv;
}
