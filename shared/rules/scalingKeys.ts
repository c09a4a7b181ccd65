/**
 * rope/scaling-missing-key (error): transformers raises KeyError "Missing required keys in
 * `rope_scaling` for 'rope_type'=…" at load. original_max_position_embeddings and rope_theta are
 * not listed: transformers fills them in (see rope/original-context-missing).
 * rope/scaling-unknown-key (hint): transformers warns "Unrecognized keys in `rope_scaling`…", except
 * for keys the model's config class lists in `ignore_keys_at_rope_validation` (config/ropeValidationIgnores.ts).
 */
import type { Finding } from '../core/findings';
import type { RopeType } from '../rope/spec';
import { Rule, finding, keyRangeOf, pathTo, scalingKeyName, scalingRange, shown } from './context';
import { scalingsInDocument } from './scalingTargets';
import { float } from '../fixes/render';
import { ignoredAtRopeValidation } from '../config/ropeValidationIgnores';
import { missingScalingKeys, requiredScalingKeys } from '../rope/requiredKeys';
import type { PlainObject } from '../fixes/render';

export const MISSING_KEY = 'rope/scaling-missing-key';
export const UNKNOWN_KEY = 'rope/scaling-unknown-key';

const OPTIONAL: Record<RopeType, string[]> = {
  default: [],
  linear: [],
  dynamic: ['original_max_position_embeddings'],
  yarn: ['original_max_position_embeddings', 'attention_factor', 'beta_fast', 'beta_slow', 'mscale', 'mscale_all_dim', 'truncate'],
  // short_mscale/long_mscale: Phi-3.5 configs carry them and vLLM reads them.
  longrope: ['original_max_position_embeddings', 'attention_factor', 'factor', 'short_mscale', 'long_mscale'],
  llama3: ['original_max_position_embeddings'],
  // v5 proportional (Gemma-4) reads factor (default 1) and partial_rotary_factor (in ALWAYS).
  proportional: ['factor'],
};

/** Keys every type accepts, and model-specific keys transformers' configs tell it to ignore. */
const ALWAYS = ['rope_type', 'type', 'rope_theta', 'partial_rotary_factor', 'mrope_section', 'mrope_interleaved'];

/** Keys people write for another key; the hint names the right one. */
const MISSPELLED: Record<string, string> = {
  attn_factor: 'attention_factor',
  original_max_position: 'original_max_position_embeddings',
  scaling_factor: 'factor',
};

export const scalingKeysRule: Rule = {
  codes: [MISSING_KEY, UNKNOWN_KEY],
  check(ctx) {
    const out: Finding[] = [];
    for (const { scaling: s, rope } of scalingsInDocument(ctx)) {
      const type = s.type;
      if (!type || !s.rawType || s.rawType.value.trim().toLowerCase() === 'mrope') continue;
      const name = scalingKeyName(s);
      const missing = missingScalingKeys(type, Object.fromEntries(Object.entries(s.params).map(([k, p]) => [k, p.value])));
      if (missing.length) {
        const fill = fillFor(type, missing, rope?.contextLength.value, s.params['original_max_position_embeddings']?.value);
        const fixes =
          fill && s.node
            ? [
                {
                  title: `Add ${Object.entries(fill)
                    .map(([k, v]) => `${k}: ${typeof v === 'object' && v !== null && 'value' in v ? (v as { value: number }).value : v}`)
                    .join(', ')}`,
                  kind: 'other' as const,
                  preferred: true,
                  edits: ctx.editor.setObject(pathTo(s.node!), fill, Object.keys(s.params)),
                },
              ]
            : [];
        out.push(
          finding(
            MISSING_KEY,
            'error',
            `transformers refuses this ${name} at load: it is missing ${missing.join(', ')}.`,
            scalingRange(ctx.doc, s),
            fixes,
            `transformers raises KeyError "Missing required keys in \`${name}\` for 'rope_type'=${shown(s.rawType.value)}: {${missing.map((k) => `'${k}'`).join(', ')}}".`,
          ),
        );
      }
      const allowed = new Set([...ALWAYS, ...requiredScalingKeys(type), ...OPTIONAL[type]]);
      for (const [k, p] of Object.entries(s.params)) {
        // Keys the model's 5.x config class tells transformers to ignore are read by its model (Ministral-3's llama_4_scaling_beta).
        if (allowed.has(k) || ignoredAtRopeValidation(rope?.modelType, k)) continue;
        const better = MISSPELLED[k];
        const msg = better
          ? `transformers ignores ${shown(k)}: the key it reads for this is ${better}.`
          : `transformers ignores ${shown(k)}: it is not a key of ${shown(s.rawType.value)} scaling.`;
        const detail = `transformers warns "Unrecognized keys in \`${name}\` for 'rope_type'=${shown(s.rawType.value)}: {${shown(k)}}" and ignores the value.`;
        out.push(finding(UNKNOWN_KEY, 'hint', msg, keyRangeOf(ctx.doc, p.node), [], detail));
      }
    }
    return out;
  },
};

/** Values for missing keys when they can be derived: factor = mpe / original; llama3's usual bands. */
function fillFor(type: RopeType, missing: string[], mpe: number | undefined, original: unknown): PlainObject | undefined {
  const fill: PlainObject = {};
  for (const k of missing) {
    if (k === 'low_freq_factor') fill[k] = float(1);
    else if (k === 'high_freq_factor') fill[k] = float(4);
    else if (k === 'factor' && (type === 'yarn' || type === 'llama3') && typeof original === 'number' && mpe && mpe > original) fill[k] = float(mpe / original);
    else return undefined;
  }
  return fill;
}
