/**
 * Ties a RoPE description to the public model it is (identity.ts) and takes from the catalog what
 * the file cannot say: the trained context T when the config does not state it, and what the
 * checkpoint shipped with (to tell a stock config from an edited one). T falls back to
 * max_position_embeddings, marked as an assumption, never to another number. A file whose
 * architecture matches a catalog model but whose RoPE values differ is a derivative: no identity,
 * its own values stand, and `derivativeOf` records what it derives from.
 */
import type { ConfigNode } from '../document/configNode';
import type { ModelRope } from './modelRope';
import { IdentityMatch, derivativeOf, editedModel, fingerprintOf, identifyModel, languageScope, namesAnotherModel, shippedContextOf } from './identity';
import { isEditOfShipped } from './editOrDerivative';
import { familyDefaultBase } from './families';
import { paramValue } from './modelValues';
import { assumedTrainedContext } from './trainedContext';
import { enUS } from '../core/format';

export interface IdentityEvidence {
  /** The config's root, for the fingerprint. */
  root?: ConfigNode;
  nameOrPath?: string;
  filePath?: string;
  /** A training config's base model reference. */
  baseModel?: string;
}

export function applyIdentity(rope: ModelRope, evidence: IdentityEvidence): void {
  const plain = evidence.root ? paramValue(evidence.root) : undefined;
  const fingerprint = plain && typeof plain === 'object' && !Array.isArray(plain) ? fingerprintOf(languageScope(plain as Record<string, unknown>)) : undefined;
  // The context as the catalog records what each model shipped (shippedOf's key order), so the two compare alike
  // (Qwen-1 declares max_position_embeddings 32,768 beside the seq_length 8,192 it trains at).
  const scope = plain && typeof plain === 'object' && !Array.isArray(plain) ? languageScope(plain as Record<string, unknown>) : undefined;
  const declared = scope ? shippedContextOf(scope) : undefined;
  const input = {
    nameOrPath: evidence.nameOrPath,
    filePath: evidence.filePath,
    baseModel: evidence.baseModel,
    fingerprint,
    contextLength: declared ?? rope.contextLength.value,
  };
  let match = identifyModel(input);
  // A derivative (architecture of a catalog model, RoPE values of its own) keeps its own T below;
  // the models it derives from are recorded so findings can say why the catalog was not used.
  // Unless its values are not coherent for its context: then it is an edit of the shipped model.
  let derivative = match ? undefined : derivativeOf(input);
  const namedOtherwise = namesAnotherModel(evidence.nameOrPath);
  const shippedBaseOf = (shipped: { base?: number }) => shipped.base ?? familyDefaultBase(rope.modelType).value;
  if (derivative && isEditOfShipped({ rope, trained: derivative.trainedContext.value, shippedBase: shippedBaseOf(derivative.shipped), namedOtherwise })) {
    match = editedModel(derivative);
    if (match) derivative = undefined;
  } else if (match) markBaseEdit(rope, match, namedOtherwise);
  rope.identity = match ? match.identity : null;
  if (match) rope.shipped = match.shipped;
  if (derivative) {
    rope.derivativeOf = { candidates: derivative.candidates, baseTrainedContext: derivative.trainedContext.value, differences: derivative.differences };
    if (derivative.unscaledTrainedContext !== undefined) rope.derivativeOf.unscaledTrainedContext = derivative.unscaledTrainedContext;
  }
  // The order of advice.md: what the file states, then the catalog, then max_position_embeddings.
  if (!rope.trainedContext) rope.trainedContext = match ? { ...match.trainedContext } : assumedTrainedContext(rope);
}

/**
 * A named (or fingerprinted) model whose base the file changed, with the context raised past T and
 * a base that fails the bound there: an edit, not a retrained model (the name is the shipped one's).
 */
function markBaseEdit(rope: ModelRope, match: IdentityMatch, namedOtherwise: boolean): void {
  const shippedBase = match.shipped.base ?? familyDefaultBase(rope.modelType).value;
  if (Math.abs(rope.base.value - shippedBase) <= 1e-9 * shippedBase) return;
  if (!isEditOfShipped({ rope, trained: match.trainedContext.value, shippedBase, namedOtherwise })) return;
  const n = (v: number) => enUS(v);
  match.identity.edit = [`${rope.base.key ?? 'rope_theta'} ${n(rope.base.value)} (shipped ${n(shippedBase)})`];
}
