/**
 * rope/type-conflict: `type` and `rope_type` both set and different (vLLM refuses the config;
 * transformers silently uses rope_type).
 * rope/unknown-type: a rope type neither transformers nor vLLM knows (both raise at load), or
 * a scaling object without any type.
 * rope/vllm-only-type: a type only vLLM implements (transformers raises at model init).
 */
import type { Finding } from '../core/findings';
import { Rule, finding, keyRangeOf, pathTo, rangeFor, scalingKeyName, scalingRange, shown } from './context';
import { scalingsInDocument } from './scalingTargets';

export const TYPE_CONFLICT = 'rope/type-conflict';
export const UNKNOWN_TYPE = 'rope/unknown-type';
export const VLLM_ONLY_TYPE = 'rope/vllm-only-type';

const TRANSFORMERS_TYPES = new Set(['default', 'linear', 'dynamic', 'yarn', 'longrope', 'llama3', 'su', 'mrope', 'proportional']);
const VLLM_ONLY = new Set(['ntk', 'mllama4', 'xdrope', 'deepseek_yarn', 'deepseek_llama_scaling']);

export const scalingTypeRule: Rule = {
  codes: [TYPE_CONFLICT, UNKNOWN_TYPE, VLLM_ONLY_TYPE],
  check(ctx) {
    const out: Finding[] = [];
    for (const { scaling: s } of scalingsInDocument(ctx)) {
      const name = scalingKeyName(s);
      const modern = s.params['rope_type'];
      const legacy = s.params['type'];
      if (
        s.legacyType &&
        typeof modern?.value === 'string' &&
        typeof legacy?.value === 'string' &&
        modern.value.trim().toLowerCase() !== legacy.value.trim().toLowerCase()
      ) {
        out.push(
          finding(
            TYPE_CONFLICT,
            'error',
            `vLLM refuses this config: rope_type ${shown(modern.value)} and the legacy type ${shown(legacy.value)} conflict.`,
            keyRangeOf(ctx.doc, legacy.node),
            [
              {
                title: `Remove the legacy \`type\` (keep rope_type ${shown(modern.value)})`,
                kind: 'other',
                preferred: true,
                edits: ctx.editor.remove(pathTo(legacy.node!)),
              },
            ],
            `In \`${name}\`: "Found conflicts between rope_type=${shown(modern.value)} (modern field) and type=${shown(legacy.value)} (legacy field)". transformers uses rope_type. Keep only one of them.`,
          ),
        );
      }
      const raw = s.rawType?.value;
      if (raw === undefined) {
        const keys = Object.keys(s.params).filter((k) => k !== 'rope_theta' && k !== 'partial_rotary_factor');
        const perLayer = Object.values(s.params).some((p) => p.node?.kind === 'object');
        if (keys.length > 0 && !perLayer) {
          out.push(
            finding(
              UNKNOWN_TYPE,
              'error',
              `\`${name}\` should have a 'rope_type' key: without it transformers finds no RoPE init function and vLLM refuses the config.`,
              scalingRange(ctx.doc, s),
            ),
          );
        }
        continue;
      }
      const t = raw.trim().toLowerCase();
      if (TRANSFORMERS_TYPES.has(t)) continue;
      if (VLLM_ONLY.has(t)) {
        out.push(
          finding(
            VLLM_ONLY_TYPE,
            'warning',
            `rope_type ${shown(raw)} is implemented by vLLM only; transformers raises when it builds the rotary embedding.`,
            rangeFor(ctx.doc, s.rawType),
          ),
        );
      } else {
        out.push(
          finding(
            UNKNOWN_TYPE,
            'error',
            `transformers refuses this config at load: ${shown(raw)} is not a RoPE scaling type it knows.`,
            rangeFor(ctx.doc, s.rawType),
            [],
            `Unknown RoPE scaling type ${shown(raw)} in \`${name}\`: transformers knows default, linear, dynamic, yarn, longrope, llama3 and (v5) proportional.`,
          ),
        );
      }
    }
    return out;
  },
};
