/**
 * vLLM serving configs: the YAML given to `vllm serve --config file.yaml`, whose keys are the
 * engine's command-line options without the dashes (`model`, `max-model-len`, `hf-overrides`, …;
 * vLLM's FlexibleArgumentParser accepts `max_model_len` as well). Every value keeps its node.
 */
import { child, ConfigNode, ParsedDocument } from '../../document/configNode';
import type { Located } from '../modelRope';
import { keyPathOf, paramValue } from '../modelValues';

/** Options only a vLLM engine config has (either spelling). */
const VLLM_KEYS = [
  'max-model-len', 'hf-overrides', 'tensor-parallel-size', 'pipeline-parallel-size', 'gpu-memory-utilization', 'served-model-name',
  'max-num-seqs', 'max-num-batched-tokens', 'enable-prefix-caching', 'enable-chunked-prefill', 'kv-cache-dtype', 'trust-remote-code',
  'rope-scaling', 'rope-theta', 'uvicorn-log-level', 'enforce-eager', 'swap-space', 'tokenizer-mode', 'limit-mm-per-prompt',
];
/** Keys that make a YAML a training config instead. */
const TRAINING_KEYS = ['base_model', 'model_name_or_path', 'sequence_len', 'cutoff_len', 'datasets', 'dataset', 'learning_rate', 'output_dir', 'num_epochs'];

const snake = (k: string) => k.replace(/-/g, '_');

/** The node of option `name` under either spelling (`max-model-len` or `max_model_len`). */
function option(root: ConfigNode, name: string): ConfigNode | undefined {
  const n = child(root, name) ?? child(root, snake(name));
  return n && n.kind !== 'null' ? n : undefined;
}

export interface VllmServingConfig {
  model: Located<string>;
  maxModelLen?: Located<number>;
  /** `hf-overrides` as a mapping (node) or a JSON string (parsed; positions at the string). */
  hfOverrides?: { node: ConfigNode; value: Record<string, unknown>; isString: boolean };
  /** `disable-sliding-window: true`: vLLM caps its derived length at the sliding window (see serving/vllm.ts). */
  disableSlidingWindow?: Located<boolean>;
  /** Removed options (vllm PR #28006): still written by older recipes. */
  removed: { key: string; node: ConfigNode; value: unknown }[];
  /** `-` or `_`, as the file writes its keys (fixes write new keys the same way). */
  separator: '-' | '_';
}

export function isVllmServingYaml(doc: ParsedDocument): boolean {
  const root = doc.root;
  if (doc.format !== 'yaml' || !root || root.kind !== 'object') return false;
  const model = child(root, 'model');
  if (!model || model.kind !== 'string') return false;
  if (TRAINING_KEYS.some((k) => child(root, k))) return false;
  return VLLM_KEYS.some((k) => option(root, k));
}

export function readVllmServingConfig(doc: ParsedDocument): VllmServingConfig | undefined {
  if (!isVllmServingYaml(doc)) return undefined;
  const root = doc.root!;
  const m = child(root, 'model')!;
  const out: VllmServingConfig = {
    model: { value: String(m.value), node: m, key: 'model' },
    removed: [],
    separator: (root.children ?? []).some((c) => c.key?.includes('-')) ? '-' : '_',
  };
  const len = option(root, 'max-model-len');
  if (len) {
    const v = len.kind === 'number' ? Number(len.value) : parseLength(String(len.value));
    if (Number.isFinite(v)) out.maxModelLen = { value: v, node: len, key: len.key };
  }
  const dsw = option(root, 'disable-sliding-window');
  if (dsw?.kind === 'boolean' && dsw.value === true) out.disableSlidingWindow = { value: true, node: dsw, key: dsw.key };
  const hf = option(root, 'hf-overrides');
  if (hf?.kind === 'object') out.hfOverrides = { node: hf, value: paramValue(hf) as Record<string, unknown>, isString: false };
  else if (hf?.kind === 'string') {
    try {
      const v = JSON.parse(String(hf.value));
      if (v && typeof v === 'object' && !Array.isArray(v)) out.hfOverrides = { node: hf, value: v, isString: true };
    } catch {
      // Not JSON: vLLM refuses it too; nothing to read.
    }
  }
  for (const name of ['rope-scaling', 'rope-theta']) {
    const n = option(root, name);
    if (!n) continue;
    let value: unknown = paramValue(n);
    if (typeof value === 'string') {
      try { value = JSON.parse(value); } catch { /* keep the string */ }
    }
    out.removed.push({ key: n.key ?? keyPathOf(n), node: n, value });
  }
  return out;
}

/**
 * vLLM's human-readable lengths, exactly as `human_readable_int` parses them
 * (vllm-project/vllm `vllm/utils/argparse_utils.py::human_readable_int`; older releases:
 * `vllm/engine/arg_utils.py`): the whole value (trimmed) is digits with an optional decimal part
 * and one suffix — k/m/g/t multiply by powers of 1000 (decimals allowed, truncated to an int),
 * K/M/G/T by powers of 1024 (no decimals: "Decimals are not allowed with binary suffixes");
 * otherwise Python `int()` (sign, underscores between digits). NaN where vLLM refuses the value.
 * A YAML `--config` value reaches the same function (`load_config_file` passes it as a string).
 */
export function parseLength(raw: string): number {
  const v = raw.trim();
  const m = /^(\d+(?:\.\d+)?)([kKmMgGtT])$/.exec(v);
  if (m) {
    const [, number, suffix] = m;
    const lower = suffix.toLowerCase();
    const power = 'kmgt'.indexOf(lower) + 1;
    if (suffix === lower) return Math.trunc(Number(number) * 1000 ** power);
    return /^\d+$/.test(number) ? Number(number) * 1024 ** power : NaN;
  }
  return /^[+-]?\d+(?:_\d+)*$/.test(v) ? Number(v.replace(/_/g, '')) : NaN;
}

/** `human_readable_int_or_auto` (--max-model-len in recent releases): `-1` or `auto` ask vLLM to fit the memory. */
export function parseLengthOrAuto(raw: string): number | 'auto' {
  const v = raw.trim();
  if (v === '-1' || v.toLowerCase() === 'auto') return 'auto';
  return parseLength(v);
}
