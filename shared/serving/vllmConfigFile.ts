/**
 * vLLM serving configs: the YAML given to `vllm serve --config file.yaml`, whose keys are the
 * engine's command-line options without the dashes (`model`, `max-model-len`, `hf-overrides`, …;
 * vLLM's FlexibleArgumentParser accepts `max_model_len` as well). vLLM itself turns the file into
 * arguments (`FlexibleArgumentParser.load_config_file`: `--key str(value)`, a `true` boolean as
 * `--key` alone, a mapping as its JSON), so the file is read into the same request as a
 * `vllm serve` line, by the same reader (vllmRequestOf): the same values get the same findings.
 * Every token keeps its node's span; `paths` maps it back to its key for the config-file editor.
 */
import { child, ConfigNode, ParsedDocument } from '../document/configNode';
import { paramValue } from '../config/modelValues';
import type { Token } from '../launch/types';
import type { LaunchRequest } from '../launch/request';
import { ReadArgv, flagOf } from './argv';
import { VLLM_HABITS, VLLM_SPECS, vllmRequestOf } from './vllm';

export { parseLength, parseLengthOrAuto } from './vllm';

/** Options only a vLLM engine config has (either spelling). */
const VLLM_KEYS = [
  'max-model-len',
  'hf-overrides',
  'tensor-parallel-size',
  'pipeline-parallel-size',
  'gpu-memory-utilization',
  'served-model-name',
  'max-num-seqs',
  'max-num-batched-tokens',
  'enable-prefix-caching',
  'enable-chunked-prefill',
  'kv-cache-dtype',
  'trust-remote-code',
  'rope-scaling',
  'rope-theta',
  'uvicorn-log-level',
  'enforce-eager',
  'swap-space',
  'tokenizer-mode',
  'limit-mm-per-prompt',
];
/** Keys that make a YAML a training config instead. */
const TRAINING_KEYS = ['base_model', 'model_name_or_path', 'sequence_len', 'cutoff_len', 'datasets', 'dataset', 'learning_rate', 'output_dir', 'num_epochs'];

const snake = (k: string) => k.replace(/-/g, '_');

/** The node of option `name` under either spelling (`max-model-len` or `max_model_len`). */
function option(root: ConfigNode, name: string): ConfigNode | undefined {
  const n = child(root, name) ?? child(root, snake(name));
  return n && n.kind !== 'null' ? n : undefined;
}

export function isVllmServingYaml(doc: ParsedDocument): boolean {
  const root = doc.root;
  if (doc.format !== 'yaml' || !root || root.kind !== 'object') return false;
  const model = child(root, 'model');
  if (!model || model.kind !== 'string') return false;
  if (TRAINING_KEYS.some((k) => child(root, k))) return false;
  return VLLM_KEYS.some((k) => option(root, k));
}

/** A vLLM config file read as the request it makes, with the key path of every token. */
export interface VllmConfigFileRead {
  request: LaunchRequest;
  paths: Map<Token, readonly string[]>;
  /** `-` or `_`, as the file writes its keys (fixes write new keys the same way). */
  separator: '-' | '_';
}

function tokenOf(doc: ParsedDocument, offset: number, length: number, value: string): Token {
  const raw = doc.text.slice(offset, offset + length);
  const quote = raw.startsWith("'") ? 'single' : raw.startsWith('"') ? 'double' : 'none';
  return { value, raw, offset, length, range: doc.lines.rangeOf(offset, length), quote, known: true };
}

/** The argument text vLLM makes of a value: `str(value)` (Python's spelling of booleans), a mapping or list as JSON. */
function argText(n: ConfigNode): string {
  if (n.kind === 'object' || n.kind === 'array') return JSON.stringify(paramValue(n));
  if (n.kind === 'boolean') return n.value ? 'True' : 'False';
  return String(n.value);
}

/** A mapping or list that starts as a plain scalar on its key's line, where the parser reported a problem. */
function guessedMapping(doc: ParsedDocument, n: ConfigNode): boolean {
  if (n.kind !== 'object' && n.kind !== 'array') return false;
  if (/^[{[]/.test(doc.text.slice(n.offset, n.offset + 1))) return false;
  const keyLine = doc.lines.positionAt(n.keyOffset ?? n.offset).line;
  if (doc.lines.positionAt(n.offset).line !== keyLine) return false;
  return doc.problems.some((p) => p.offset >= n.offset && p.offset < n.offset + n.length);
}

export function readVllmConfigFile(doc: ParsedDocument): VllmConfigFileRead | undefined {
  if (!isVllmServingYaml(doc)) return undefined;
  const root = doc.root!;
  const paths = new Map<Token, readonly string[]>();
  const byFlag = new Map<string, (typeof VLLM_SPECS)[number]>();
  for (const s of VLLM_SPECS) for (const f of s.flags) byFlag.set(f, s);
  const r: ReadArgv = { uses: [], positionals: [], unknown: [] };
  const unparsed: string[] = [];
  for (const n of root.children ?? []) {
    if (n.key === undefined || n.kind === 'null') continue;
    // `key: 131072` with an over-indented next line: the YAML parser guesses a mapping whose key is
    // "131072 tensor-parallel-size", which the file does not hold (and vLLM's loader refuses): not judged.
    if (guessedMapping(doc, n)) {
      unparsed.push(n.key);
      continue;
    }
    const flagText = `--${n.key}`;
    const keyOffset = n.keyOffset ?? n.offset;
    const flag = tokenOf(doc, keyOffset, n.keyLength ?? n.key.length, flagText);
    paths.set(flag, [n.key]);
    const name = flagOf(flagText, VLLM_HABITS);
    const spec = byFlag.get(name);
    // `disable-sliding-window: false` is not passed at all; `true` is the flag alone.
    if (n.kind === 'boolean' && (!spec || !spec.takesValue)) {
      if (n.value !== true) continue;
      if (spec) r.uses.push({ name: spec.name, flag });
      else r.unknown.push({ flag, name });
      continue;
    }
    const value = tokenOf(doc, n.offset, n.length, argText(n));
    paths.set(value, [n.key]);
    if (spec) r.uses.push({ name: spec.name, flag, value });
    else r.unknown.push({ flag, name, value });
  }
  const request: LaunchRequest = { program: 'vllm', role: 'serving', rope: {}, problems: [], notes: [] };
  vllmRequestOf(request, r, undefined, undefined);
  if (unparsed.length) request.notes.push(`not read: ${unparsed.join(', ')} (the YAML does not parse there, and vLLM's loader refuses it)`);
  return { request, paths, separator: (root.children ?? []).some((c) => c.key?.includes('-')) ? '-' : '_' };
}
