/**
 * From a config file's text to the Inspector's input: the shared config reader finds the RoPE
 * settings (any family layout, JSON or YAML), and this module only picks the lengths the Inspector
 * compares (original training context and default target).
 */
import { RopeError } from '../errors';
import type { ParsedDocument } from '../document/configNode';
import { formatOf, parseDocumentText } from '../document/parse';
import { readModelRope, toRopeSpec } from '../config/modelConfig';
import type { ModelRope } from '../config/modelRope';
import type { InspectorInput } from './build';

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
  if (!rope) {
    throw new RopeError('invalid-parameter', `${label} is not a model config (expected model_type or architectures with rope_theta, rope_scaling or max_position_embeddings)`);
  }
  return inspectorInputFromRope(rope, label, uri);
}

export function inspectorInputFromText(text: string, fileName: string, uri?: string): InspectorInput {
  const format = formatOf(fileName);
  if (!format) throw new RopeError('parse-error', `${fileName}: not a .json or .yaml file`);
  const doc = parseDocumentText(text, format);
  const label = fileName.split(/[\\/]/).slice(-2).join('/');
  return inspectorInputFromDocument(doc, label, uri);
}
