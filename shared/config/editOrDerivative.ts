/**
 * Derivative or edit (advice.md, "Derivatives"; issue 33 deliverable 2): a config whose RoPE values
 * differ from what a known model shipped keeps them as trained only when they are coherent for its
 * context — a length scaling, a base that meets the bound at the distance its layers see, or other
 * evidence of training (a `_name_or_path` naming another hub model). Otherwise the values are an
 * edit of the shipped model (Llama-3-8B's config with max_position_embeddings 131,072 and
 * rope_theta 10,000): judged as that model extended without scaling, so the worse the edit, the
 * louder the verdict — never milder than the same raise with the shipped base.
 */
import type { ModelRope } from './modelRope';
import { ropeReachAt } from './reach';
import { firstNegative, thetas } from '../rope/fb';
import { familyDefaultBase } from './families';

/** Longer reaches are not scanned here (linear in the length): the values are given the benefit of the doubt. */
const MAX_SCANNED_REACH = 1 << 21;
/**
 * Nor scans of more than this many cosines (channel pairs × positions): a mutated rotary dimension
 * of millions at a long context hung the service fuzz for hours (seed 1888554430). 128 channels at
 * 2,097,152 positions is 2^27; this leaves room for 256.
 */
const MAX_SCANNED_WORK = 2 ** 28;

/** The file sets a scaling that stretches positions (`mrope` sections and v5's `default` block do not). */
function hasLengthScaling(rope: ModelRope): boolean {
  const t = rope.scaling?.type;
  return t !== undefined && t !== 'default' && t !== 'proportional';
}

/** Σ cos(m·θᵢ) ≥ 0 for every m below the reach at the file's own context, with its own base and rotary dimension. */
export function baseMeetsBoundAtContext(rope: ModelRope): boolean | undefined {
  const reach = ropeReachAt(rope, rope.contextLength.value);
  const dim = rope.rotaryDim.value;
  const base = rope.base.value;
  if (!(reach >= 2) || reach > MAX_SCANNED_REACH || !(base > 1) || !(dim >= 2) || dim % 2 !== 0) return undefined;
  if ((dim / 2) * reach > MAX_SCANNED_WORK) return undefined;
  return firstNegative(thetas(base, dim), 0, reach) === null;
}

export interface EditQuestion {
  rope: ModelRope;
  /** What the shipped model was trained at. */
  trained: number;
  /** The base the model shipped with (its class default when its config names none). */
  shippedBase: number;
  /** The file names a hub model the catalog does not know: a fine-tune with its own name. */
  namedOtherwise: boolean;
}

/**
 * True when the differing values are an edit of the shipped model rather than a trained derivative:
 * no scaling, a context beyond what the shipped model was trained at, a base that fails the bound
 * there and was not raised above the shipped one, and no name of its own. A raised base is an
 * extension the user chose (the NTK-aware fix writes one): judged on its own values, so a fix RoPE
 * Lens offers never turns into the mistake it fixed.
 */
export function isEditOfShipped(q: EditQuestion): boolean {
  if (q.namedOtherwise || hasLengthScaling(q.rope)) return false;
  if (q.rope.base.value > q.shippedBase * (1 + 1e-9)) return false;
  if (!(q.rope.contextLength.value > q.trained)) return false;
  return baseMeetsBoundAtContext(q.rope) === false;
}

/**
 * The shipped base an edit changed (identity.edit set by applyIdentity), for rewrites that are judged
 * from what ships and put it back: `check`'s fixes and `serve`'s commands.
 */
export function editedBase(rope: ModelRope): { shipped: number; edited: number } | undefined {
  if (!rope.identity?.edit || rope.shipped === undefined) return undefined;
  const shipped = rope.shipped.base ?? familyDefaultBase(rope.modelType).value;
  return Math.abs(shipped - rope.base.value) > 1e-9 * shipped ? { shipped, edited: rope.base.value } : undefined;
}
