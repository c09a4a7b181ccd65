/**
 * "Apply to config": the Inspector writes a rewrite with the very fix builders the quick fixes use
 * (shared/fixes/rewrites), at the places the rules would write (shared/rules/targets), so the edit
 * is identical to the quick fix's: same keys, same rounding, comments and layout kept.
 */
import { pathOf, type ParsedDocument } from '../document/configNode';
import type { ModelRope } from '../config/modelRope';
import type { Fix } from '../core/findings';
import { DocumentEditor } from '../fixes/documentEditor';
import { dynamicFix, linearFix, llama3Fix, ntkFix, raiseBaseFix, roundBase, yarnFix } from '../fixes/rewrites';
import { modelTarget } from '../rules/targets';
import type { RuleContext } from '../rules/context';
import { gradientThetaBase } from '../rope/seedMethods';
import { originalLengthOf } from './fromConfig';
import type { InspectorControls, RewriteMethod } from './types';
import { REWRITE_METHODS } from './types';
import type { TransformersVariant } from '../rope/spec';

/** The minimal rule context the fix targets need (no bound oracle: these fixes take no bound). */
function contextFor(doc: ParsedDocument, rope: ModelRope, variant: TransformersVariant): RuleContext {
  return {
    doc,
    fileKind: 'model-config',
    model: rope,
    oracle: { lmax: () => undefined, bstar: () => undefined, threshold: () => undefined, robust: () => undefined },
    variant,
    pending: [],
    editor: new DocumentEditor(doc),
  };
}

/**
 * The fix that writes `method` at `targetLength` into this document, or undefined if none can.
 * Unlike a quick fix (which answers a context the file already declares), the Inspector extends
 * the context, so for the methods whose declared context is the extended one (YaRN and llama3:
 * transformers checks factor = max_position_embeddings / original; NTK and a raised base: nothing
 * else records the new length) it also raises max_position_embeddings to the target. Linear and
 * dynamic keep it: vLLM multiplies it by the factor, and dynamic starts scaling past it.
 */
export function inspectorFix(
  doc: ParsedDocument,
  rope: ModelRope,
  method: RewriteMethod,
  targetLength: number,
  variant: TransformersVariant = 'v5',
): Fix | undefined {
  const fix = rewriteFix(doc, rope, method, targetLength, variant);
  if (!fix || !RAISES_CONTEXT.has(method)) return fix;
  return withContext(fix, doc, rope, targetLength);
}

const RAISES_CONTEXT: ReadonlySet<RewriteMethod> = new Set<RewriteMethod>(['yarn', 'llama3', 'ntk', 'gradient']);

function withContext(fix: Fix, doc: ParsedDocument, rope: ModelRope, targetLength: number): Fix {
  const node = rope.contextLength.node;
  if (!node || !(targetLength > rope.contextLength.value)) return fix;
  const key = rope.contextLength.key ?? 'max_position_embeddings';
  const path = pathOf(node);
  if (!path.every((p): p is string => typeof p === 'string')) return fix;
  const edits = new DocumentEditor(doc).set(path, targetLength);
  return { ...fix, title: `${fix.title}; ${key.split('.').pop()} ${rope.contextLength.value} → ${targetLength}`, edits: [...fix.edits, ...edits] };
}

function rewriteFix(doc: ParsedDocument, rope: ModelRope, method: RewriteMethod, targetLength: number, variant: TransformersVariant): Fix | undefined {
  const target = modelTarget(contextFor(doc, rope, variant), rope);
  const L0 = originalLengthOf(rope);
  const factor = targetLength / L0;
  const base = rope.base.value;
  const dim = rope.rotaryDim.value;
  switch (method) {
    case 'pi':
      return linearFix(target, factor);
    case 'yarn':
      return yarnFix(target, factor, L0);
    case 'llama3':
      return llama3Fix(target, factor, L0);
    case 'dynamic':
      return dynamicFix(target, factor);
    case 'ntk':
      return factor > 1 ? ntkFix(target, base, factor, dim) : undefined;
    case 'gradient': {
      if (!(targetLength > L0)) return undefined;
      return raiseBaseFix(target, base, roundBase(gradientThetaBase(base, L0, targetLength)), targetLength, 'none');
    }
    // The file's own scaling, a seed-only method and per-dimension factors are not one-click edits.
    case 'configured':
    case 'ntk-by-parts':
    case 'longrope':
      return undefined;
  }
}

/** Every rewrite this document can take at `targetLength`, with the quick fix's title. */
export function applicableRewrites(
  doc: ParsedDocument,
  rope: ModelRope,
  targetLength: number,
  variant: TransformersVariant = 'v5',
): { method: RewriteMethod; title: string }[] {
  const out: { method: RewriteMethod; title: string }[] = [];
  for (const m of REWRITE_METHODS) {
    const f = inspectorFix(doc, rope, m, targetLength, variant);
    if (f && f.edits.length > 0) out.push({ method: m, title: f.title });
  }
  return out;
}

export function fixForControls(doc: ParsedDocument, rope: ModelRope, c: InspectorControls, variant: TransformersVariant = 'v5'): Fix | undefined {
  return inspectorFix(doc, rope, c.method, c.targetLength, variant);
}
