/**
 * Value checks transformers makes (its wording) and what goes wrong when they fail:
 * rope/scaling-invalid-value (error): factor < 1 or not a number, attention_factor ≤ 0, a llama3
 *   low/high frequency factor or original length that is not a number;
 * rope/yarn-beta-order (warning): beta_fast < beta_slow inverts YaRN's ramp; transformers only warns,
 *   and equal values (Kimi-K2 ships beta_fast = beta_slow = 1) run correctly, so they are not flagged;
 * rope/llama3-freq-order (warning): high_freq_factor < low_freq_factor inverts the bands; transformers
 *   only warns, and equal values (Llama-4 ships low = high = 1) leave the medium band empty and run;
 * rope/llama3-original-context (warning): original_max_position_embeddings ≥ max_position_embeddings
 *   (transformers warns; the scaling then never leaves the original range);
 * rope/longrope-factor-length (error): short/long_factor length ≠ rotary dim / 2 (shape error at load).
 */
import type { Finding } from '../core/findings';
import { Rule, finding, fmt, numParam, pathTo, rangeFor, scalingKeyName, shownAny } from './context';
import { scalingsInDocument } from './scalingTargets';
import { float } from '../fixes/render';

export const INVALID_VALUE = 'rope/scaling-invalid-value';
export const BETA_ORDER = 'rope/yarn-beta-order';
export const LLAMA3_FREQ_ORDER = 'rope/llama3-freq-order';
export const LLAMA3_ORIGINAL = 'rope/llama3-original-context';
export const LONGROPE_LENGTH = 'rope/longrope-factor-length';

export const scalingValuesRule: Rule = {
  codes: [INVALID_VALUE, BETA_ORDER, LLAMA3_FREQ_ORDER, LLAMA3_ORIGINAL, LONGROPE_LENGTH],
  check(ctx) {
    const out: Finding[] = [];
    for (const { scaling: s, rope } of scalingsInDocument(ctx)) {
      const name = scalingKeyName(s);
      const type = s.type;
      if (!type || type === 'default') continue;
      const p = s.params;
      const factorP = p['factor'];
      if (factorP && factorP.value !== null && (type !== 'longrope' || factorP.value !== undefined)) {
        const f = factorP.value;
        if (typeof f !== 'number' || !Number.isFinite(f)) {
          out.push(finding(INVALID_VALUE, 'error', `\`${name}\`'s factor field must be a float >= 1, got ${shownAny(f)}`, rangeFor(ctx.doc, factorP)));
        } else if (f < 1) {
          const fixes =
            f > 0 && factorP.node
              ? [
                  {
                    title: `Use factor ${fmt(1 / f)} (transformers' factor is the extension ratio, the inverse of llama.cpp's rope-freq-scale)`,
                    kind: 'other' as const,
                    preferred: true,
                    edits: ctx.editor.set(pathTo(factorP.node), float(Math.round((1 / f) * 1e6) / 1e6)),
                  },
                ]
              : [];
          out.push(
            finding(
              INVALID_VALUE,
              'error',
              `Factor ${f} compresses positions instead of extending the context: \`${name}\`'s factor must be ≥ 1.`,
              rangeFor(ctx.doc, factorP),
              fixes,
              `transformers: "\`${name}\`'s factor field must be a float >= 1, got ${f}".`,
            ),
          );
        }
      }
      if (type === 'yarn') {
        const af = p['attention_factor'];
        if (af && af.value !== null && !(typeof af.value === 'number' && af.value > 0)) {
          out.push(
            finding(
              INVALID_VALUE,
              'error',
              `\`${name}\`'s attention_factor field must be a float greater than 0, got ${shownAny(af.value)}`,
              rangeFor(ctx.doc, af),
            ),
          );
        }
        for (const k of ['beta_fast', 'beta_slow']) {
          const b = p[k];
          if (b && b.value !== null && typeof b.value !== 'number')
            out.push(finding(INVALID_VALUE, 'error', `\`${name}\`'s ${k} field must be a float, got ${shownAny(b.value)}`, rangeFor(ctx.doc, b)));
        }
        const bf = numParam(s, 'beta_fast') ?? 32;
        const bs = numParam(s, 'beta_slow') ?? 1;
        if (bf < bs) {
          const fast = p['beta_fast'],
            slow = p['beta_slow'];
          const fixes =
            fast?.node && slow?.node
              ? [
                  {
                    title: `Swap them: beta_fast ${bs}, beta_slow ${bf}`,
                    kind: 'other' as const,
                    preferred: true,
                    edits: [...ctx.editor.set(pathTo(fast.node), bs), ...ctx.editor.set(pathTo(slow.node), bf)],
                  },
                ]
              : [];
          out.push(
            finding(
              BETA_ORDER,
              'warning',
              `YaRN's ramp runs inverted: beta_fast ${bf} is below beta_slow ${bs}, and transformers only warns.`,
              rangeFor(ctx.doc, fast, slow, s.node),
              fixes,
              `In \`${name}\`, beta_fast (${bf}${p['beta_fast'] ? '' : ', the default'}) is below beta_slow (${bs}${p['beta_slow'] ? '' : ', the default'}): YaRN then interpolates the fast dimensions and keeps the slow ones.`,
            ),
          );
        }
      }
      if (type === 'llama3') {
        for (const k of ['low_freq_factor', 'high_freq_factor']) {
          const v = p[k];
          if (v && v.value !== null && typeof v.value !== 'number')
            out.push(finding(INVALID_VALUE, 'error', `\`${name}\`'s ${k} field must be a float, got ${shownAny(v.value)}`, rangeFor(ctx.doc, v)));
        }
        const lo = numParam(s, 'low_freq_factor'),
          hi = numParam(s, 'high_freq_factor');
        if (lo !== undefined && hi !== undefined && hi < lo) {
          const lp = p['low_freq_factor'],
            hp = p['high_freq_factor'];
          out.push(
            finding(
              LLAMA3_FREQ_ORDER,
              'warning',
              `llama3's frequency bands run inverted: high_freq_factor ${hi} is below low_freq_factor ${lo}, and transformers only warns.`,
              rangeFor(ctx.doc, hp),
              [
                {
                  title: `Swap them: low_freq_factor ${hi}, high_freq_factor ${lo}`,
                  kind: 'other',
                  preferred: true,
                  edits: [...ctx.editor.set(pathTo(lp.node!), float(hi)), ...ctx.editor.set(pathTo(hp.node!), float(lo))],
                },
              ],
            ),
          );
        }
        const op = p['original_max_position_embeddings'];
        if (op && op.value !== null) {
          const o = op.value;
          if (typeof o !== 'number' || !Number.isInteger(o)) {
            out.push(
              finding(
                INVALID_VALUE,
                'error',
                `\`${name}\`'s original_max_position_embeddings field must be an integer, got ${shownAny(o)}`,
                rangeFor(ctx.doc, op),
              ),
            );
          } else if (rope && o >= rope.contextLength.value) {
            out.push(
              finding(
                LLAMA3_ORIGINAL,
                'warning',
                `llama3 scaling stretches from ${fmt(o)}, which is not below the context ${fmt(rope.contextLength.value)}; transformers warns.`,
                rangeFor(ctx.doc, op),
                [],
                `transformers: "\`${name}\`'s original_max_position_embeddings field must be less than max_position_embeddings, got ${o} and max_position_embeddings=${rope.contextLength.value}".`,
              ),
            );
          }
        }
      }
      // The rotary dim is NaN when a training YAML's base model is unknown: nothing to compare with.
      if (type === 'longrope' && rope && Number.isFinite(rope.rotaryDim.value)) {
        const half = Math.floor(rope.rotaryDim.value / 2);
        for (const k of ['short_factor', 'long_factor']) {
          const v = p[k];
          if (!v || v.value === null || v.value === undefined) continue;
          if (!Array.isArray(v.value) || v.value.some((x) => typeof x !== 'number')) {
            out.push(finding(INVALID_VALUE, 'error', `\`${name}\`'s ${k} field must be a list of numbers, got ${typeof v.value}`, rangeFor(ctx.doc, v)));
          } else if (v.value.length !== half) {
            out.push(
              finding(
                LONGROPE_LENGTH,
                'error',
                `\`${name}\`'s ${k} field must have length ${half}, got ${v.value.length} (rotary dim ${rope.rotaryDim.value} / 2)`,
                rangeFor(ctx.doc, v),
              ),
            );
          }
        }
      }
    }
    return out;
  },
};
