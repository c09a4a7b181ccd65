/**
 * "Not read" notes: a file that looks like a launch or a training run, which RoPE Lens recognised
 * but does not judge, gets one low-severity finding naming what was recognised, so a quiet answer
 * always means "looked and found nothing", never "did not look". Ordinary files stay quiet: each
 * note needs a launch format's structure, a trainer's keys, or a training or serving call.
 *   launch/not-read (information): launch files whose launches are all said rather than judged
 *     (the descriptions marked `unread`), and Python scripts that train or serve through a library.
 *   training/not-read (information): YAML with a base model and a trainer's keys that no training
 *     reader recognises.
 */
import type { ConfigNode } from '../document/configNode';
import { child } from '../document/configNode';
import { LineIndex } from '../document/positions';
import type { Finding, LaunchDescription } from './types';

export const LAUNCH_NOT_READ = 'launch/not-read';
export const TRAINING_NOT_READ = 'training/not-read';

/** A program as a headline names it: its first 40 characters. */
function shortProgram(program: string): string {
  return program.length > 40 ? `${program.slice(0, 39)}…` : program;
}

/** One note for a launch file whose launches RoPE Lens only said (`unread`), none judged. */
export function launchNotReadFinding(launches: readonly LaunchDescription[]): Finding[] {
  const unread = launches.filter((l) => l.unread);
  if (!unread.length || unread.length < launches.length) return [];
  const first = unread[0];
  const more = unread.length > 1;
  return [
    {
      code: LAUNCH_NOT_READ,
      severity: 'information',
      // One short headline; what was recognised and why it was not judged is the detail.
      message: more
        ? `Not judged: ${unread.length} launches were recognised but not read.`
        : `Not judged: \`${shortProgram(first.program)}\` was recognised but not read.`,
      detail: unread.map((u) => u.unjudged ?? `${u.program} is not read as a launch.`).join(' '),
      range: first.range,
      fixes: [],
    },
  ];
}

/** Keys that name the model a run starts from, in the trainers RoPE Lens does not read. */
const MODEL_KEYS = ['model_name_or_path', 'base_model', 'pretrained_model_name_or_path', 'model_id', 'hf_model', 'model_path', 'pretrained_model_path'];
/** Keys only a training run has. */
const TRAINING_KEYS = [
  'learning_rate',
  'lr',
  'num_train_epochs',
  'num_epochs',
  'epochs',
  'max_steps',
  'train_batch_size',
  'per_device_train_batch_size',
  'micro_batch_size',
  'global_batch_size',
  'gradient_accumulation_steps',
  'warmup_steps',
  'warmup_ratio',
];

/** A YAML training configuration no reader took: the model key and the training keys seen. */
export function trainingNotReadFinding(root: ConfigNode | undefined, text: string): Finding[] {
  if (!root || root.kind !== 'object') return [];
  const model = MODEL_KEYS.map((k) => child(root, k)).find((n) => n && n.kind === 'string' && String(n.value).trim());
  const training = TRAINING_KEYS.filter((k) => child(root, k) !== undefined);
  if (!model || training.length < 2) return [];
  const lines = new LineIndex(text);
  return [
    {
      code: TRAINING_NOT_READ,
      severity: 'information',
      message: `Not read as a training config: no trainer RoPE Lens reads takes it, so its RoPE was not checked.`,
      detail:
        `It names ${JSON.stringify(String(model.value))} (${model.key}) with training keys (${training.slice(0, 3).join(', ')}). ` +
        'RoPE Lens reads axolotl, LLaMA-Factory, torchtune, LitGPT, GPT-NeoX, nanotron, MaxText, OLMo, NeMo, open-instruct and TRL configs; a training length key it knows (max_seq_length, max_length, sequence_len, cutoff_len, seq_length) makes an HfArgumentParser YAML read.',
      range: lines.rangeOf(model.offset, model.length),
      fixes: [],
    },
  ];
}

/** A Python script that trains or serves through a library: RoPE Lens reads no Python. */
// Ray Serve LLM (`LLMConfig(…, engine_kwargs=dict(max_model_len=…))`) and llama-cpp-python (`Llama(…, n_ctx=…)`) serve too.
const PY_IMPORT = /^[ \t]*(?:from|import)[ \t]+(transformers|trl|vllm|sglang|peft|unsloth|axolotl|ray\.serve\.llm|llama_cpp)\b/m;
const PY_RUN =
  /\b(SFTTrainer|DPOTrainer|GRPOTrainer|Trainer|Seq2SeqTrainer|SFTConfig|TrainingArguments|LLM|AsyncLLMEngine|FastLanguageModel|LLMConfig|Llama)\s*\(/;

export function pythonNotReadFinding(text: string, fileName: string): Finding[] {
  if (!/\.py$/i.test(fileName)) return [];
  const imp = PY_IMPORT.exec(text);
  const run = imp ? PY_RUN.exec(text) : null;
  if (!imp || !run) return [];
  const lines = new LineIndex(text);
  const what = /Trainer|SFTConfig|Arguments|FastLanguageModel/.test(run[1]) ? 'trains' : 'serves';
  return [
    {
      code: LAUNCH_NOT_READ,
      severity: 'information',
      message: `Not read: a Python script importing ${imp[1]} that ${what} (${run[1]}(…)). RoPE Lens reads command lines and config files, not Python code, so its RoPE settings were not checked.`,
      detail:
        'Write the model and length where RoPE Lens reads them (a trainer YAML, the command line that starts the script with --model_name_or_path and --max_seq_length), or check the model config itself with `rope-lens check`.',
      range: lines.rangeOf(run.index, run[1].length),
      fixes: [],
    },
  ];
}

/** Megatron's RoPE options (arguments.py): a shell argument list holding one sets RoPE for a launch elsewhere. */
const MEGATRON_ROPE_FLAG =
  /(?:^|[\s("'])(--rotary-base|--use-rope-scaling|--rotary-scaling-factor|--rotary-percent|--rotary-seq-len-interpolation-factor)(?=[\s)"'=]|$)/m;
/** A bash array assignment (`MODEL_ARGS=(`), the shape such lists are kept in. */
const ARRAY_ASSIGNMENT = /^[ \t]*(?:export[ \t]+|declare[ \t]+-a[ \t]+)?([A-Za-z_]\w*)=\(/m;

/**
 * A shell file that launches nothing but keeps Megatron RoPE options in an argument list (slime's and
 * Megatron recipes' `scripts/models/*.sh`, sourced by the launcher): said, since the values are
 * judged only on the command line that passes them to a trainer.
 */
export function argumentListNotReadFinding(text: string, fileName: string): Finding[] {
  if (!/\.(?:sh|bash)$/i.test(fileName)) return [];
  const list = ARRAY_ASSIGNMENT.exec(text);
  const flag = list ? MEGATRON_ROPE_FLAG.exec(text) : null;
  if (!list || !flag) return [];
  const at = flag.index + flag[0].indexOf(flag[1]);
  return [
    {
      code: LAUNCH_NOT_READ,
      severity: 'information',
      message: `Not read: ${list[1]} sets Megatron RoPE options (${flag[1]}), but this file starts no training.`,
      detail: `Its RoPE options were not checked: RoPE Lens judges Megatron options on the command line that runs them (torchrun or python with pretrain_gpt.py, train.py …) with a model and a sequence length, and an argument list on its own names neither.`,
      range: new LineIndex(text).rangeOf(at, flag[1].length),
      fixes: [],
    },
  ];
}
