/**
 * consumer/refused: a consumer raises at load on this file (transformers ≤ 4.42 on `rope_type`
 * llama3/yarn/…: "`rope_scaling` must be a dictionary with two fields, `type` and `factor`").
 * Error when the workspace says that consumer is used (a pin or launch in its release range), or
 * when the refusing consumer is the current transformers (5.x validation: a `layer_types` list of
 * the wrong length or with an entry that is no layer type, Phi-3's `"type": "su"`): a fresh install
 * fails at load; a current engine's refusal likewise, on a file that is not the vendor's as shipped; a hint when only an older generation nobody pins refuses it; nothing for a
 * vendor's file as shipped with no pin. The file's own
 * `transformers_version` says what saved it, not what will load it, so it never raises the
 * severity (readersThatCount.ts).
 */
import type { Finding, Severity } from '../core/findings';
import type { ConsumerReading } from '../serving/consumer';
import { configView } from '../serving/consumer';
import { child } from '../document/configNode';
import type { ModelRope } from '../config/modelRope';
import { familyDefaultBase } from '../config/families';
import { Rule, finding, keyRangeOf, rangeFor } from './context';
import type { RuleContext } from './context';
import { standingOf } from './readersThatCount';
import { missingScalingKeys } from '../rope/requiredKeys';

export const REFUSED = 'consumer/refused';

/**
 * The vendor's file as it shipped (identity known, base, context and scaling type as the catalog
 * records): its transformers_version is the vendor's (Llama-3.1 ships `4.42.3` from a build that
 * reads llama3), so only a pin makes an old release's refusal worth saying.
 */
function asShipped(rope: ModelRope | undefined): boolean {
  const shipped = rope?.shipped;
  if (!rope || !shipped) return false;
  const base = shipped.base ?? familyDefaultBase(rope.modelType).value;
  return (
    shipped.contextLength === rope.contextLength.value &&
    Math.abs(rope.base.value - base) <= 1e-9 * base &&
    (rope.scaling?.type ?? 'default') === (shipped.scalingType ?? 'default')
  );
}

function judge(row: ConsumerReading, pins: RuleContext['pins'], stock: boolean): { severity: Severity; why: string } | undefined {
  const standing = standingOf(row, pins);
  if (standing.pin) return { severity: 'error', why: standing.why };
  // The current transformers line is what a fresh install gets: its refusal matters even for a
  // vendor's file as shipped (Phi-3's first revision).
  if (standing.counts && row.pkg === 'transformers') return { severity: 'error', why: standing.why };
  // A vendor's file as shipped: an engine's refusal there is the engine's to fix, said by the serving notes.
  if (stock) return undefined;
  if (standing.counts) return { severity: 'error', why: standing.why };
  return { severity: 'hint', why: `${standing.why}, and current releases load it` };
}

function lacksRequiredKey(rope: ModelRope | undefined): boolean {
  const s = rope?.scaling;
  if (!s?.type) return false;
  return missingScalingKeys(s.type, Object.fromEntries(Object.entries(s.params).map(([k, p]) => [k, p.value]))).length > 0;
}

/** " with KeyError" for the headline; the error's text goes to the detail. */
function errorClass(error: string | undefined): string {
  const m = /^\s*([A-Z]\w*(?:Error|Exception))\b/.exec(error ?? '');
  return m ? ` with ${m[1]}` : '';
}

export const consumerRefusedRule: Rule = {
  codes: [REFUSED],
  check(ctx) {
    if (ctx.fileKind !== 'model-config' || !ctx.consumers?.length) return [];
    const view = configView(ctx.doc);
    const out: Finding[] = [];
    // A reader that inherits another's refusal (vLLM builds the config through transformers 5) with
    // the same error and severity is named in the same finding, not a second one.
    const said = new Map<string, { finding: Finding; labels: string[]; tail: string }>();
    for (const row of ctx.consumers) {
      if (row.status !== 'refuses') continue;
      // A key its rope type requires is missing: rope/scaling-missing-key says so once, as an error, for every reader.
      if (/^KeyError: "Missing required keys/.test(row.error ?? '') && lacksRequiredKey(ctx.model)) continue;
      const j = judge(row, ctx.pins, asShipped(ctx.model));
      if (!j) continue;
      const error =
        row.error
          ?.split('\n')
          .map((l) => l.trim())
          .filter(Boolean)
          .join(' ') ?? 'an error';
      const from = row.range?.before ? ` (these keys are read from ${row.pkg} ${row.range.before} on)` : '';
      const key = `${j.severity}\u0000${error}`;
      const prior = said.get(key);
      if (prior) {
        prior.labels.push(row.label);
        prior.finding.message = `${prior.labels.join(' and ')} refuse this file at load${errorClass(row.error)}.`;
        continue;
      }
      // The key the error is about: layer_types, a plain value in rope_parameters, else the scaling type.
      const about = /layer_types/.test(row.error ?? '')
        ? child(view?.scope, 'layer_types')
        : /has no attribute 'get'/.test(row.error ?? '')
          ? child(view?.scope, 'rope_parameters')
          : undefined;
      const range = about
        ? keyRangeOf(ctx.doc, about)
        : ctx.model?.scaling?.rawType
          ? rangeFor(ctx.doc, ctx.model.scaling.rawType)
          : keyRangeOf(ctx.doc, child(view?.scope, 'rope_scaling'));
      const tail = `${from}; ${j.why}.`;
      // The headline names the error's class; its text, and why this reader counts, go to the detail.
      const f = finding(REFUSED, j.severity, `${row.label} refuses this file at load${errorClass(row.error)}.`, range, [], `It raises ${error}${tail}`);
      said.set(key, { finding: f, labels: [row.label], tail });
      out.push(f);
    }
    return out;
  },
};
