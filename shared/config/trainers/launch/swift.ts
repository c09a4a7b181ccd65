/**
 * `swift sft|pt|rlhf …` (ms-swift) and `megatron sft|pt|rlhf …` (Megatron-SWIFT), parsed by HfArgumentParser (swift/utils/utils.py::parse_args),
 * so `--max_length` and `--max-length`, `--k v` and `--k=v` are the same option.
 *   --model (3.x; `--model_id_or_path` in 2.x)   the checkpoint; `--model_type` only names ms-swift's model group;
 *   --max_length                                  the training length (3.x default: the model's max_model_len,
 *                                                 swift/arguments/base_args/base_args.py; 2.x default 2048);
 *   --max_model_len                               3.x: overrides max_position_embeddings;
 *   --rope_scaling                                a type name or a JSON object (3.x model_args.py::_init_rope_scaling):
 *       a name must be linear|dynamic|yarn (assert), and then the factor is
 *       max(ceil(max_model_len / original), 1) — without --max_model_len ms-swift stops with
 *       "max_model_len must be set if rope_scaling does not contain a \"factor\""; the original length
 *       is the dict's, else the model's scaling original, else max_model_len // factor, else the model's length;
 *       2.x (Literal['linear', 'dynamic']): factor = max(ceil(max_length / max_position_embeddings), 1)
 *       (swift/llm/utils/model.py at ebfb636).
 */
import type { Invocation } from '../../../launch/types';
import type { LineIndex } from '../../../document/positions';
import type { Located, ScalingDescription } from '../../modelRope';
import type { TrainingConfig } from '../../training';
import type { ResolvedBaseModel } from '../../resolve';
import { describeScalingNode } from '../common';
import { ArgOption, lastOf, readOptions } from './argv';
import { LaunchDocBuilder } from './launchDoc';
import type { Launched } from './launchers';
import type { TrainerLaunch } from './types';
import { emptyRequest, numberOption, optionUse, setLength, stringOption } from './common';
import { fmt } from '../../../core/format';

const NAMES_3X = ['linear', 'dynamic', 'yarn'];
const NAMES_2X = ['linear', 'dynamic'];
const SWIFT_2X_DEFAULT_MAX_LENGTH = 2048;

export function readSwiftLaunch(l: Launched, inv: Invocation, lines: LineIndex): TrainerLaunch | undefined {
  const { options } = readOptions(l.args);
  const b = new LaunchDocBuilder(lines, inv);
  const request = emptyRequest('swift', inv);
  const megatron = l.via.includes('megatron');
  const legacyOpt = megatron ? undefined : lastOf(options, 'model_id_or_path');
  const legacy = !!legacyOpt;
  // Megatron-SWIFT loads `--model` (HF weights through its bridge) or an mcore checkpoint folder in `--load`.
  const loadOpt = megatron ? lastOf(options, 'load') : undefined;
  const modelOpt = lastOf(options, 'model') ?? legacyOpt ?? loadOpt;
  if (megatron && loadOpt && modelOpt === loadOpt)
    request.notes.push(`--load ${loadOpt.text} is a Megatron (mcore) checkpoint converted from a Hugging Face model: it is looked up by that name.`);
  const model = stringOption(b, 'model', modelOpt);
  const lengthOpt = lastOf(options, 'max_length');
  const length = numberOption(b, 'max_length', lengthOpt);
  const mmlOpt = legacy ? undefined : lastOf(options, 'max_model_len');
  const maxModelLen = numberOption(b, 'max_model_len', mmlOpt);
  const t: TrainingConfig = { tool: 'swift', baseModelCandidates: [], overrides: {}, scalingKeyPath: ['rope_scaling'], trains: true };
  if (model && modelOpt) {
    t.baseModel = model;
    request.model = modelOpt.value;
  }
  const typeOpt = lastOf(options, 'model_type');
  if (!model && typeOpt?.text)
    request.notes.push(`--model_type ${typeOpt.text} names an ms-swift model group, not a checkpoint: give --model to have its RoPE settings checked.`);
  if (length) t.sequenceLength = length;
  else if (legacy) t.sequenceLength = { value: SWIFT_2X_DEFAULT_MAX_LENGTH, note: 'max_length absent: ms-swift 2.x default 2048' };
  else request.notes.push("--max_length absent: ms-swift trains at the model's own max_model_len.");
  setLength(request, 'max_length', lengthOpt, length?.value);
  if (maxModelLen) t.overrides.contextLength = maxModelLen;

  const scalingOpt = lastOf(options, 'rope_scaling');
  let byName: Located<string> | undefined;
  if (scalingOpt) {
    request.rope['rope_scaling'] = optionUse('rope_scaling', scalingOpt);
    const node = b.add('rope_scaling', scalingOpt, true);
    if (node.kind === 'object') t.overrides.scaling = describeScalingNode(node);
    else byName = stringOption(b, 'rope_scaling', scalingOpt);
  }
  const launch: TrainerLaunch = {
    program: 'swift',
    invocation: inv,
    training: t,
    doc: b.doc(),
    options: b.options,
    request,
    // 2.x takes only a type name (its factor derived from max_length): a JSON rewrite would be refused.
    writer: { jsonKeys: legacy ? [] : ['rope_scaling'], write: (key, value) => [`--${key}`, value] },
  };
  if (legacy)
    launch.fixElsewhere =
      "ms-swift 2.x's --rope_scaling takes only linear or dynamic (factor ceil(max_length / max_position_embeddings)); YaRN or an explicit factor needs ms-swift 3 (--rope_scaling with a JSON object).";
  if (byName) {
    const name = byName.value.trim().toLowerCase();
    const allowed = legacy ? NAMES_2X : NAMES_3X;
    if (!allowed.includes(name)) {
      request.problems.push({
        token: scalingOpt!.value ?? scalingOpt!.flag,
        kind: 'bad-value',
        severity: 'error',
        message: legacy
          ? `ms-swift 2.x accepts --rope_scaling linear or dynamic (argparse choices), got '${byName.value}': it stops before training.`
          : `ms-swift 3.x accepts --rope_scaling linear, dynamic, yarn or a JSON object, got '${byName.value}': it stops before training (an assertion in _init_rope_scaling).`,
      });
    }
  }
  launch.complete = (resolved) => settleScaling(launch, { byName, legacy, maxModelLen, length, scalingOpt }, resolved);
  return launch;
}

/** What ms-swift makes of --rope_scaling once the model's own context is known. */
function settleScaling(
  launch: TrainerLaunch,
  x: { byName?: Located<string>; legacy: boolean; maxModelLen?: Located<number>; length?: Located<number>; scalingOpt?: ArgOption },
  resolved: ResolvedBaseModel | undefined,
): void {
  const t = launch.training;
  const r = resolved?.rope;
  const json = t.overrides.scaling;
  if (!x.byName && !json) return;
  const name = x.byName?.value.trim().toLowerCase();
  if (name !== undefined && !(x.legacy ? NAMES_2X : NAMES_3X).includes(name)) return;
  const params: Record<string, Located<unknown>> = json ? { ...json.params } : { rope_type: x.byName! };
  // The name's own token stands for the scaling object: findings about it point there, a removal deletes the option.
  const scaling: ScalingDescription = json
    ? { ...json, params }
    : { type: name as ScalingDescription['type'], key: 'rope_scaling', rawType: x.byName, node: x.byName!.node, params };
  t.overrides.scaling = scaling;
  if (!r) {
    // ms-swift 3.x computes what the file leaves out once it loads the model (_init_rope_scaling in
    // swift/llm/argument/base_args/model_args.py: factor = max(ceil(max_model_len / original), 1),
    // original from the model): with the model unknown here, a missing factor is not a finding.
    if (!x.legacy && params['factor'] === undefined) {
      delete t.overrides.scaling;
      launch.request.notes.push(
        `ms-swift derives the ${name ?? 'rope_scaling'} factor itself (ceil(max_model_len / the model's original context)); it is checked when the model is found.`,
      );
    }
    return;
  }
  const mpe = r.contextLength.value;
  if (x.legacy) {
    // 2.x: factor from max_length over max_position_embeddings, no original length.
    const L = t.sequenceLength?.value ?? SWIFT_2X_DEFAULT_MAX_LENGTH;
    params['factor'] ??= { value: Math.max(Math.ceil(L / mpe), 1), note: `ms-swift 2.x: ceil(${fmt(L)} / ${fmt(mpe)})` };
    return;
  }
  const native = r.scaling?.params;
  const nativeOrig = native?.['original_max_position_embeddings']?.value;
  const nativeFactor = native?.['factor']?.value;
  const original =
    typeof params['original_max_position_embeddings']?.value === 'number'
      ? (params['original_max_position_embeddings'].value as number)
      : typeof nativeOrig === 'number'
        ? nativeOrig
        : typeof nativeFactor === 'number' && nativeFactor > 0
          ? Math.floor(mpe / nativeFactor)
          : mpe;
  // ms-swift writes the original length into every dict; only YaRN reads it (transformers warns on it for the others).
  const type = scaling.type;
  if (type === 'yarn' || type === 'llama3') params['original_max_position_embeddings'] ??= { value: original, note: "ms-swift: the model's own context" };
  if (params['factor'] === undefined) {
    if (!x.maxModelLen) {
      const tok = x.scalingOpt!.value ?? x.scalingOpt!.flag;
      launch.request.problems.push({
        token: tok,
        kind: 'bad-value',
        severity: 'error',
        message:
          'ms-swift stops before training: "max_model_len must be set if rope_scaling does not contain a \\"factor\\"". Add --max_model_len (the length to scale to).',
      });
      return;
    }
    params['factor'] = {
      value: Math.max(Math.ceil(x.maxModelLen.value / original), 1),
      note: `ms-swift: ceil(max_model_len ${fmt(x.maxModelLen.value)} / ${fmt(original)})`,
    };
  }
  const factor = params['factor'].value;
  if (!x.maxModelLen && typeof factor === 'number') {
    // ms-swift sets max_model_len to original × factor when the command does not.
    t.overrides.contextLength = { value: Math.floor(original * factor), note: `ms-swift: original ${fmt(original)} × factor ${factor}` };
  }
}
