/**
 * consumer/refused: a consumer raises at load on this file (transformers ≤ 4.42 on `rope_type`
 * llama3/yarn/…: "`rope_scaling` must be a dictionary with two fields, `type` and `factor`").
 * Error when the workspace says that consumer is used (a pin in its release range); warning when
 * the refusing consumer is the current transformers release line (5.x validation: a `layer_types`
 * list of the wrong length, Phi-3's `"type": "su"`), or when the file's own `transformers_version`
 * falls in that range (the file was saved by a release that cannot read its keys); information when the file names no version; nothing when the file was
 * saved by a release past the range (it declares a newer reader), or for a vendor's file as shipped
 * with no pin.
 */
import type { Finding, Severity } from '../core/findings';
import type { ConsumerReading } from '../serving/consumer';
import { configView, inRange } from '../serving/consumer';
import { child } from '../document/configNode';
import type { ModelRope } from '../config/modelRope';
import { familyDefaultBase } from '../config/families';
import { Rule, finding, keyRangeOf, rangeFor } from './context';
import { pinFor } from './consumerPins';

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

function judge(
  row: ConsumerReading,
  version: string | undefined,
  pins: Parameters<typeof pinFor>[1],
  stock: boolean,
): { severity: Severity; why: string } | undefined {
  const pin = pinFor(row, pins);
  if (pin) return { severity: 'error', why: `the workspace uses ${pin.pkg}${pin.version ? ` ${pin.version}` : ''} (${pin.source})` };
  // The current release line (transformers 5.x) is what a fresh install gets: its refusal matters
  // even for a vendor's file as shipped (Phi-3's first revision).
  if (row.pkg === 'transformers' && !row.range?.before) return { severity: 'warning', why: 'it is the current release line, the one a fresh install gets' };
  if (stock) return undefined;
  if (version === undefined) return { severity: 'information', why: 'the file does not say which transformers release saved it' };
  if (row.pkg === 'transformers' && inRange(version, row.range))
    return { severity: 'warning', why: `the file says it was saved by transformers ${version}, a release in that range` };
  return undefined;
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
    for (const row of ctx.consumers) {
      if (row.status !== 'refuses') continue;
      const j = judge(row, view?.transformersVersion, ctx.pins, asShipped(ctx.model));
      if (!j) continue;
      const from = row.range?.before ? ` (these keys are read from ${row.pkg} ${row.range.before} on)` : '';
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
      out.push(
        finding(
          REFUSED,
          j.severity,
          `${row.label} refuses this file at load${errorClass(row.error)}.`,
          range,
          [],
          `It raises ${row.error?.replace(/\s*\n\s*/g, ' ') ?? 'an error'}${from}; ${j.why}.`,
        ),
      );
    }
    return out;
  },
};
