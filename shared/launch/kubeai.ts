/**
 * KubeAI `Model` resources (apiVersion kubeai.org/v1) → the container KubeAI's model controller
 * starts for them (substratusai/kubeai internal/modelcontroller):
 *  - `engine: VLLM` (engine_vllm.go): command `python3 -m vllm.entrypoints.openai.api_server`,
 *    args `--model=<repo of spec.url>` `--served-model-name=<metadata.name>` then `spec.args`;
 *  - `engine: OLlama` (engine_ollama.go): `ollama serve` with `spec.env`, the model pulled and
 *    loaded with `ollama run <ref of spec.url>` (its startup probe); read as that run.
 * `spec.env` is the container's environment. Other engines (FasterWhisper, Infinity) serve no LLM.
 * Words KubeAI supplies are placed on the field they come from (`engine:`, `url:`) and marked
 * `from` so no fix edits them; `spec.args` are the user's own tokens, exact.
 */
import { isMap, isScalar, isSeq, type Node as YamlNode, type YAMLMap } from 'yaml';
import { LineMap, makeToken } from './text';
import type { Invocation, Token } from './types';
import { listAppend, quoteOfScalar, scalarText, scalarToken } from './yamlScalar';

const KUBEAI = "KubeAI's model controller";
const get = (m: unknown, key: string): YamlNode | undefined => (isMap(m) ? (m.get(key, true) as YamlNode | undefined) : undefined);

/** `hf://org/name` → `org/name`, `ollama://gemma3:27b` → `gemma3:27b`; other schemes (s3, gs, pvc) as written. */
function refOf(url: string): string {
  const m = /^(hf|ollama):\/\/(.+)$/.exec(url);
  return m ? m[2] : url;
}

export function isKubeAiModel(obj: YAMLMap): boolean {
  const kind = get(obj, 'kind');
  const api = get(obj, 'apiVersion');
  return isScalar(kind) && kind.value === 'Model' && isScalar(api) && /^kubeai\.org\//.test(String(api.value));
}

export function readKubeAiModel(obj: YAMLMap, doc: LineMap): Invocation | undefined {
  const spec = get(obj, 'spec');
  const engineNode = get(spec, 'engine');
  const urlNode = get(spec, 'url');
  if (!isScalar(engineNode) || !engineNode.range) return undefined;
  const engine = String(engineNode.value);
  const at = (node: YamlNode | undefined, value: string): Token | undefined => {
    if (!isScalar(node) || !node.range) return undefined;
    return { ...makeToken(doc, { offset: node.range[0], length: node.range[1] - node.range[0], value, quote: quoteOfScalar(node) }), from: KUBEAI };
  };
  const supplied = (...words: string[]) => words.map((w) => at(engineNode, w)!);
  const url = isScalar(urlNode) && urlNode.range ? scalarText(doc, urlNode) : undefined;
  const model = url !== undefined ? { ...scalarToken(doc, urlNode as never)!, value: refOf(url) } : undefined;
  const env: Record<string, Token> = {};
  const envNode = get(spec, 'env');
  if (isMap(envNode)) {
    for (const p of envNode.items) {
      if (!isScalar(p.key) || !isScalar(p.value)) continue;
      const t = scalarToken(doc, p.value);
      const k = p.key.range;
      if (t) env[String(p.key.value)] = k ? { ...t, nameAt: { offset: k[0], length: k[1] - k[0], range: doc.range(k[0], k[1] - k[0]) } } : t;
    }
  }
  const argsNode = get(spec, 'args');
  const args: Token[] = isSeq(argsNode) ? argsNode.items.flatMap((i) => (isScalar(i) ? [scalarToken(doc, i)].filter((t): t is Token => !!t) : [])) : [];
  const nameNode = get(get(obj, 'metadata'), 'name');
  let argv: Token[];
  const notes: string[] = [];
  if (/^vllm$/i.test(engine)) {
    argv = [...supplied('python3', '-m', 'vllm.entrypoints.openai.api_server')];
    if (model) argv.push(at(urlNode, '--model')!, model);
    if (isScalar(nameNode)) argv.push(at(nameNode, '--served-model-name')!, at(nameNode, String(nameNode.value))!);
    argv.push(...args);
    notes.push(
      `KubeAI Model (engine VLLM): the command ${KUBEAI} runs, python3 -m vllm.entrypoints.openai.api_server --model <spec.url> followed by spec.args`,
    );
  } else if (/^ollama$/i.test(engine)) {
    argv = [...supplied('ollama', 'run'), ...(model ? [model] : []), ...args];
    notes.push(`KubeAI Model (engine OLlama): ${KUBEAI} runs ollama serve with spec.env and loads the model with ollama run <spec.url>`);
  } else {
    return undefined;
  }
  const r = obj.range ?? [0, 0];
  const first = argv.reduce((a, t) => Math.min(a, t.offset), Infinity);
  const last = argv.reduce((a, t) => Math.max(a, t.offset + t.length), -Infinity);
  const span = Number.isFinite(first) ? { offset: first, length: last - first } : { offset: r[0], length: r[1] - r[0] };
  const inv: Invocation = { argv, entrypoint: 'program', env, source: 'kubernetes', range: doc.range(span.offset, span.length), ...span, notes };
  const append = isSeq(argsNode) && args.length ? listAppend(argsNode, doc, args) : undefined;
  if (append) inv.append = append;
  return inv;
}
