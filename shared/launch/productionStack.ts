/**
 * vLLM production-stack Helm values (vllm-project/production-stack, helm/values.yaml):
 * `servingEngineSpec.modelSpec[]`, one vLLM Deployment each. The chart's template
 * (helm/templates/deployment-vllm-multi.yaml) starts `vllm serve <modelURL>` and adds
 * `--max-model-len <vllmConfig.maxModelLen>` (and the other vllmConfig switches), then
 * `vllmConfig.extraArgs` as given; `env:` is the container's environment. Words the chart supplies
 * are placed on the key they come from and marked `from`, so no fix edits them.
 */
import { isMap, isScalar, isSeq, type Node as YamlNode } from 'yaml';
import { LineMap, makeToken, spanOf } from './text';
import type { Invocation, LaunchFile, Token } from './types';
import { listAppend, parseYamlDocs, quoteOfScalar, scalarText, scalarToken } from './yamlScalar';

const CHART = "production-stack's vLLM chart";
const get = (m: unknown, key: string): YamlNode | undefined => (isMap(m) ? (m.get(key, true) as YamlNode | undefined) : undefined);

export const PRODUCTION_STACK = /^servingEngineSpec[ \t]*:/m;

/** vllmConfig keys the chart turns into flags that matter to RoPE Lens (the template has no override key). */
const VALUE_FLAGS: Record<string, string> = { maxModelLen: '--max-model-len' };

export function readProductionStack(text: string): LaunchFile {
  const doc = new LineMap(text);
  const problems: LaunchFile['problems'] = [];
  const invocations: Invocation[] = [];
  const parsed = parseYamlDocs(text);
  for (const p of parsed.problems) problems.push({ message: p.message, range: doc.range(p.offset, p.length), ...(p.partial ? { partial: true } : {}) });
  for (const d of parsed.docs) {
    const specs = get(get(d.contents, 'servingEngineSpec'), 'modelSpec');
    if (!isSeq(specs)) continue;
    for (const spec of specs.items) {
      const inv = isMap(spec) ? readModelSpec(spec, doc) : undefined;
      if (inv) invocations.push(inv);
    }
  }
  return { format: 'helm-values', invocations, problems };
}

function readModelSpec(spec: YamlNode, doc: LineMap): Invocation | undefined {
  const urlNode = get(spec, 'modelURL');
  if (!isScalar(urlNode) || !urlNode.range) return undefined;
  const supplied = (node: YamlNode | undefined, value: string): Token | undefined => {
    if (!isScalar(node) || !node.range) return undefined;
    return { ...makeToken(doc, { offset: node.range[0], length: node.range[1] - node.range[0], value, quote: quoteOfScalar(node) }), from: CHART };
  };
  const argv: Token[] = [supplied(urlNode, 'vllm')!, supplied(urlNode, 'serve')!, scalarToken(doc, urlNode)!];
  const config = get(spec, 'vllmConfig');
  for (const [key, flag] of Object.entries(VALUE_FLAGS)) {
    const v = get(config, key);
    if (!isScalar(v) || v.value === null || v.value === undefined) continue;
    argv.push(supplied(v, flag)!, scalarToken(doc, v)!);
  }
  const extraNode = get(config, 'extraArgs');
  const extra = isSeq(extraNode) ? extraNode.items.flatMap((i) => (isScalar(i) ? [scalarToken(doc, i)].filter((t): t is Token => !!t) : [])) : [];
  argv.push(...extra);
  const env: Record<string, Token> = {};
  const envNode = get(spec, 'env');
  if (isSeq(envNode))
    for (const item of envNode.items) {
      const name = get(item, 'name');
      const value = get(item, 'value');
      if (isScalar(name) && isScalar(value)) {
        const t = scalarToken(doc, value);
        if (t) env[String(name.value)] = t;
      }
    }
  const repo = get(spec, 'repository');
  const tag = get(spec, 'tag');
  const image = isScalar(repo) ? scalarToken(doc, repo, `${scalarText(doc, repo)}${isScalar(tag) ? `:${scalarText(doc, tag)}` : ''}`) : undefined;
  const span = spanOf(argv.filter((t) => !t.from)) ?? { offset: urlNode.range[0], length: urlNode.range[1] - urlNode.range[0] };
  const name = get(spec, 'name');
  const inv: Invocation = {
    argv,
    entrypoint: 'program',
    env,
    source: 'helm-values',
    range: doc.range(span.offset, span.length),
    ...span,
    notes: [
      `production-stack modelSpec${isScalar(name) ? ` "${scalarText(doc, name)}"` : ''}: the chart runs vllm serve <modelURL> with --max-model-len <vllmConfig.maxModelLen>, then vllmConfig.extraArgs`,
    ],
  };
  if (image) inv.image = image;
  const append = isSeq(extraNode) && extra.length ? listAppend(extraNode, doc, extra) : undefined;
  if (append) inv.append = append;
  return inv;
}
