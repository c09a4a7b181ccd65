/** `ropeLens/describe`: a document's RoPE description in a form that crosses the wire (no tree nodes). */
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { ModelRope, Located, ScalingDescription } from '../shared/config/modelRope';
import type { FileAnalysis } from '../shared/service/types';
import type { TransformersVariant } from '../shared/rope/spec';
import type { DescribeResult, DescribedValue, DescribedRope } from '../shared/protocol/messages';
import type { CachedBoundOracle } from './boundOracle';
import { toRopeSpec } from '../shared/config/modelConfig';

function described<T>(doc: TextDocument, l: Located<T>): DescribedValue<T> {
  const out: DescribedValue<T> = { value: l.value };
  if (l.key !== undefined) out.key = l.key;
  if (l.note !== undefined) out.note = l.note;
  if (l.node) out.range = { start: doc.positionAt(l.node.offset), end: doc.positionAt(l.node.offset + l.node.length) };
  return out;
}

function describedScaling(doc: TextDocument, s: ScalingDescription): NonNullable<DescribedRope['scaling']> {
  const params: Record<string, DescribedValue<unknown>> = {};
  for (const [k, v] of Object.entries(s.params)) params[k] = described(doc, v);
  return { key: s.key, type: s.type, rawType: s.rawType && described(doc, s.rawType), params };
}

export function describeRope(doc: TextDocument, rope: ModelRope): DescribedRope {
  const opt = <T>(l: Located<T> | undefined) => (l ? described(doc, l) : undefined);
  return {
    modelType: rope.modelType,
    base: described(doc, rope.base),
    headDim: described(doc, rope.headDim),
    rotaryDim: described(doc, rope.rotaryDim),
    partialRotaryFactor: described(doc, rope.partialRotaryFactor),
    contextLength: described(doc, rope.contextLength),
    originalContextLength: opt(rope.originalContextLength),
    slidingWindow: opt(rope.slidingWindow),
    scaling: rope.scaling && describedScaling(doc, rope.scaling),
    layerVariants: rope.layerVariants?.map((v) => ({ layerType: v.layerType, base: described(doc, v.base) })),
  };
}

export function describe(doc: TextDocument, analysis: FileAnalysis, oracle: CachedBoundOracle, variant: TransformersVariant): DescribeResult {
  const rope = analysis.rope;
  let bounds: DescribeResult['bounds'] = null;
  if (rope) {
    const L = rope.contextLength.value, d = rope.rotaryDim.value, base = rope.base.value;
    const lmax = oracle.peek('lmax', L, d, base);
    bounds = {
      length: L, headDim: d, base,
      bstar: oracle.peek('bstar', L, d) ?? null,
      threshold: oracle.peek('threshold', L, d) ?? null,
      lmax: lmax === undefined ? 'pending' : lmax,
    };
  }
  let spec = null;
  try { spec = rope ? toRopeSpec(rope, { variant }) : null; } catch { spec = null; }
  return {
    uri: doc.uri,
    version: doc.version,
    kind: analysis.kind,
    variant,
    rope: rope ? describeRope(doc, rope) : null,
    spec,
    training: analysis.training,
    bounds,
    findings: analysis.diagnostics.map((f) => ({
      code: f.code, severity: f.severity, message: f.message, range: f.range,
      fixes: f.fixes.map((x) => ({ title: x.title, kind: x.kind, preferred: x.preferred === true })),
    })),
  };
}
