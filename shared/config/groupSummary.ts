/**
 * One line per attention group with RoPE, for the hover and the Inspector: how many layers, which rotary table
 * they read where the library names it otherwise, the rope type, base, rotated dimensions and reach, with
 * "default" on values the file does not write (a config class's own defaults, e.g. Gemma-4's).
 */
import { groupScaling, ropeGroups } from './attentionGroups';
import type { Located, ModelRope } from './modelRope';
import { grouped } from '../core/format';

const valueOf = (l: Located<number>) => `${grouped(l.value)}${l.node ? '' : ' (default)'}`;

export function groupSummaries(rope: ModelRope): string[] {
  const groups = ropeGroups(rope);
  // A single group says nothing the model's own line does not.
  if (groups.length < 2 && !groups.some((g) => g.table)) return [];
  return groups.map((g) => {
    const scaling = groupScaling(rope, g);
    // A head of its own (Gemma-4's global_head_dim) is said; the model's head_dim is the hover's own line.
    const head = g.headDim?.value;
    const dims = head === undefined || g.rotaryDim.value === head ? `${g.rotaryDim.value} dims` : `${g.rotaryDim.value} of ${head} dims`;
    return (
      `${g.layerType}${g.layers !== null ? ` ×${g.layers}` : ''}${g.table ? ` (table ${g.table})` : ''}: ` +
      `${scaling?.type && scaling.type !== 'default' ? `${scaling.type}, ` : ''}base ${valueOf(g.base)}, ${dims}, ` +
      `reach ${grouped(g.reach)}${g.window ? ` (window ${grouped(g.window.value)})` : ''}`
    );
  });
}
