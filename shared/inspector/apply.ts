/**
 * "Apply to config": the Inspector writes a rewrite with the very fix builders the quick fixes use
 * (shared/fixes/rewrites), at the places the rules would write (shared/rules/targets), so the edit
 * is identical to the quick fix's: same keys, same rounding, comments and layout kept.
 */
import type { ParsedDocument } from '../document/configNode';
import type { ModelRope } from '../config/modelRope';
import type { Fix } from '../service/types';
import { DocumentEditor } from '../fixes/documentEditor';
import { dynamicFix, linearFix, llama3Fix, ntkFix, raiseBaseFix, roundBase, yarnFix } from '../fixes/rewrites';
import { modelTarget } from '../rules/targets';
import type { RuleContext } from '../rules/context';
import { gradientThetaBase } from '../rope/seedMethods';
import { originalLengthOf } from './fromConfig';
import type { InspectorControls, RewriteMethod } from './types';
import { REWRITE_METHODS } from './types';

/** The minimal rule context the fix targets need (no bound oracle: these fixes take no bound). */
function contextFor(doc: ParsedDocument, rope: ModelRope): RuleContext {
  return {
    doc,
    fileKind: 'model-config',
    model: rope,
    oracle: { lmax: () => undefined, bstar: () => undefined, threshold: () => undefined },
    variant: 'v5',
    pending: [],
    editor: new DocumentEditor(doc),
  };
}

/** The fix that writes `method` at `targetLength` into this document, or undefined if none can. */
export function inspectorFix(doc: ParsedDocument, rope: ModelRope, method: RewriteMethod, targetLength: number): Fix | undefined {
  const target = modelTarget(contextFor(doc, rope), rope);
  const L0 = originalLengthOf(rope);
  const factor = targetLength / L0;
  const base = rope.base.value;
  const dim = rope.rotaryDim.value;
  switch (method) {
    case 'pi': return linearFix(target, factor);
    case 'yarn': return yarnFix(target, factor, L0);
    case 'llama3': return llama3Fix(target, factor, L0);
    case 'dynamic': return dynamicFix(target, factor);
    case 'ntk': return factor > 1 ? ntkFix(target, base, factor, dim) : undefined;
    case 'gradient': {
      if (!(targetLength > L0)) return undefined;
      return raiseBaseFix(target, base, roundBase(gradientThetaBase(base, L0, targetLength)), targetLength);
    }
    // The file's own scaling, a seed-only method and per-dimension factors are not one-click edits.
    case 'configured':
    case 'ntk-by-parts':
    case 'longrope':
      return undefined;
  }
}

/** Every rewrite this document can take at `targetLength`, with the quick fix's title. */
export function applicableRewrites(doc: ParsedDocument, rope: ModelRope, targetLength: number): { method: RewriteMethod; title: string }[] {
  const out: { method: RewriteMethod; title: string }[] = [];
  for (const m of REWRITE_METHODS) {
    const f = inspectorFix(doc, rope, m, targetLength);
    if (f && f.edits.length > 0) out.push({ method: m, title: f.title });
  }
  return out;
}

export function fixForControls(doc: ParsedDocument, rope: ModelRope, c: InspectorControls): Fix | undefined {
  return inspectorFix(doc, rope, c.method, c.targetLength);
}
