/**
 * From a config file's text to the Inspector's input: the shared config reader finds the RoPE
 * settings (any family layout, JSON or YAML), and this module only picks the lengths the Inspector
 * compares (original training context and default target).
 */
import { RopeError } from '../core/errors';
import type { ParsedDocument } from '../document/configNode';
import { formatOf, parseDocumentText } from '../document/parse';
import { readModelRope, toRopeSpec } from '../config/modelConfig';
import type { ModelRope } from '../config/modelRope';
import type { InspectorInput } from './build';
import { analyzeOnce } from '../service/analyze';

/** The training context of the unscaled model: original_max_position_embeddings, else the context. */
export function originalLengthOf(rope: ModelRope): number {
  return rope.originalContextLength?.value ?? rope.contextLength.value;
}

export function inspectorInputFromRope(rope: ModelRope, label: string, uri?: string): InspectorInput {
  const spec = toRopeSpec(rope);
  const originalLength = originalLengthOf(rope);
  const warnings: string[] = [];
  // A scaled config whose max_position_embeddings was left at the original value (Qwen2.5's
  // model-card YaRN snippet): the scaled context is original × factor.
  if (spec.ropeType !== 'default' && spec.factor !== undefined && spec.maxPositionEmbeddings <= originalLength) {
    spec.maxPositionEmbeddings = Math.round(originalLength * spec.factor);
    warnings.push(`max_position_embeddings (${rope.contextLength.value}) is not above the original context; the target defaults to original × factor = ${spec.maxPositionEmbeddings}.`);
  }
  // Values not written in the file (defaults, derived): say where each number comes from.
  const notes: string[] = [];
  const named: [string, { note?: string } | undefined][] = [
    ['base', rope.base], ['head dim', rope.headDim], ['rotary dim', rope.rotaryDim], ['context', rope.contextLength],
  ];
  for (const [what, n] of named) if (n?.note) notes.push(`${what}: ${n.note}`);
  return { label, uri, modelType: rope.modelType, spec, headDim: rope.headDim.value, originalLength, warnings, notes };
}

export function inspectorInputFromDocument(doc: ParsedDocument, label: string, uri?: string): InspectorInput {
  const rope = readModelRope(doc);
  if (rope) return inspectorInputFromRope(rope, label, uri);
  const training = trainingInput(doc.text, label, uri);
  if (training) return training;
  throw new RopeError('invalid-parameter', `${label} is neither a model config (model_type or architectures with rope_theta, rope_scaling or max_position_embeddings) nor a training config whose base model is known`);
}

const NO_ORACLE = { lmax: () => undefined, bstar: () => undefined, threshold: () => undefined };

/**
 * A training YAML (axolotl, LLaMA-Factory, torchtune, …): the analysis service resolves its base
 * model offline and applies the YAML's overrides; the target is the training sequence length.
 * Read-only: the Inspector's Apply writes model configs only.
 */
function trainingInput(text: string, label: string, uri?: string): InspectorInput | undefined {
  const a = analyzeOnce(text, { fileName: label, oracle: NO_ORACLE, verifyFixes: false });
  if (a.kind !== 'training-config' || !a.rope) return undefined;
  const input = inspectorInputFromRope(a.rope, label, uri);
  const t = a.training;
  input.label = `${label} (training${t?.baseModel ? `, base model ${t.baseModel}` : ''})`;
  if (t?.sequenceLength && t.sequenceLength >= 16) input.defaultTargetLength = t.sequenceLength;
  input.notes = [...(input.notes ?? []), `Base model from ${t?.resolvedFrom ?? 'the training config'}; the target is the training sequence length.`];
  return input;
}

export function inspectorInputFromText(text: string, fileName: string, uri?: string): InspectorInput {
  const format = formatOf(fileName);
  if (!format) throw new RopeError('parse-error', `${fileName}: not a .json or .yaml file`);
  const doc = parseDocumentText(text, format);
  const label = fileName.split(/[\\/]/).slice(-2).join('/');
  return inspectorInputFromDocument(doc, label, uri);
}
