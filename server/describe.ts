/** `ropeLens/describe`: a document's RoPE description in a form that crosses the wire (nodes → ranges). */
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { ModelRope } from '../shared/config/modelRope';
import type { FileAnalysis } from '../shared/service/types';
import type { TransformersVariant } from '../shared/rope/spec';
import type { DescribeResult, DescribedRope } from '../shared/protocol/messages';
import { toWire } from '../shared/config/wire';
import type { CachedBoundOracle } from './boundOracle';
import { toRopeSpec } from '../shared/config/modelConfig';

export function describeRope(doc: TextDocument, rope: ModelRope): DescribedRope {
  return toWire(rope, (n) => ({ start: doc.positionAt(n.offset), end: doc.positionAt(n.offset + n.length) }));
}

export function describe(doc: TextDocument, analysis: FileAnalysis, oracle: CachedBoundOracle, variant: TransformersVariant): DescribeResult {
  const rope = analysis.rope;
  let bounds: DescribeResult['bounds'] = null;
  if (rope) {
    const L = rope.contextLength.value,
      d = rope.rotaryDim.value,
      base = rope.base.value;
    const lmax = oracle.peek('lmax', L, d, base);
    bounds = {
      length: L,
      headDim: d,
      base,
      bstar: oracle.peek('bstar', L, d) ?? null,
      threshold: oracle.peek('threshold', L, d) ?? null,
      lmax: lmax === undefined ? 'pending' : lmax,
    };
  }
  let spec = null;
  try {
    spec = rope ? toRopeSpec(rope, { variant }) : null;
  } catch {
    spec = null;
  }
  const result: DescribeResult = {
    uri: doc.uri,
    version: doc.version,
    kind: analysis.kind,
    variant,
    rope: rope ? describeRope(doc, rope) : null,
    spec,
    training: analysis.training,
    bounds,
    findings: analysis.diagnostics.map((f) => ({
      code: f.code,
      severity: f.severity,
      message: f.message,
      range: f.range,
      ...(f.related ? { related: f.related } : {}),
      fixes: f.fixes.map((x) => ({ title: x.title, kind: x.kind, preferred: x.preferred === true })),
    })),
  };
  if (analysis.noRope !== undefined) result.noRope = analysis.noRope;
  return result;
}
