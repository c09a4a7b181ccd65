/**
 * consumer/silent-misread: a consumer loads the file without complaint but runs it with a
 * different base or scaling than the file means (transformers 5's reading): a transformers-5 file
 * with only `rope_parameters` runs on 4.x, and on engines that read the legacy keys, with the class
 * default rope_theta and no scaling. Warning when a reader that counts misreads it (a current
 * release, or one the workspace pins or launches: readersThatCount.ts); a hint when only an older
 * generation nobody pins does (the file's transformers_version is never taken for its reader).
 * The fix back-fills the legacy keys beside a flat `rope_parameters`, so every reader gets the
 * same values; per-layer-type parameters have no legacy spelling: no fix.
 */
import type { Finding, Fix } from '../core/findings';
import type { ConsumerReading } from '../serving/consumer';
import { configView, scalingTypeOf } from '../serving/consumer';
import { intendedReading, misreadOf } from '../serving/consumers';
import { child, type ConfigNode } from '../document/configNode';
import { float, type PlainObject, type PlainValue } from '../fixes/render';
import { Rule, finding, fmt, keyRangeOf } from './context';
import type { RuleContext } from './context';
import { standingOf } from './readersThatCount';

export const SILENT_MISREAD = 'consumer/silent-misread';

/** "the default rope_theta 10,000", "rope_theta 500,000". */
function baseText(r: ConsumerReading): string {
  return r.baseFrom.startsWith('default') ? `the default rope_theta ${fmt(r.base!)}` : `rope_theta ${fmt(r.base!)}`;
}

/** "no scaling", "llama3 scaling (factor 8)". */
function scalingText(r: ConsumerReading): string {
  const t = r.scalingType ?? 'none';
  return t === 'none' ? 'no scaling' : `${t} scaling${r.factor !== null ? ` (factor ${fmt(r.factor)})` : ''}`;
}

/** What the file means, in one phrase. */
function describe(r: ConsumerReading): string {
  return `${baseText(r)} ${r.scalingType === 'none' || r.scalingType === null ? 'and no scaling' : `with ${scalingText(r)}`}`;
}

function groupBy(rows: ConsumerReading[], key: (r: ConsumerReading) => string): Map<string, ConsumerReading[]> {
  const out = new Map<string, ConsumerReading[]>();
  for (const r of rows) out.set(key(r), [...(out.get(key(r)) ?? []), r]);
  return out;
}

/** Consumer names; both 4.x ranges together read "transformers 4.x". */
function names(rs: ConsumerReading[]): string {
  const both = rs.some((r) => r.consumer === 'transformers-4.42') && rs.some((r) => r.consumer === 'transformers-4');
  return rs
    .filter((r) => !(both && r.consumer === 'transformers-4.42'))
    .map((r) => (both && r.consumer === 'transformers-4' ? 'transformers 4.x' : r.label))
    .join(', ');
}

/** A scalar as the file writes it: `8.0` stays a float (Python reads factors as floats). */
function plainOf(node: ConfigNode, text: string): PlainValue | undefined {
  switch (node.kind) {
    case 'number':
      return /[.eE]/.test(node.raw ?? text.slice(node.offset, node.offset + node.length)) ? float(node.value as number) : (node.value as number);
    case 'string':
    case 'boolean':
      return node.value as string | boolean;
    case 'null':
      return null;
    default:
      return undefined; // lists (longrope factors, mrope sections) and objects: not copied
  }
}

/** The legacy keys that make a flat rope_parameters read the same everywhere, or why none can. */
function backfill(ctx: RuleContext): { entries: PlainObject; path: string[] } | string {
  const view = configView(ctx.doc);
  const rp = child(view?.scope, 'rope_parameters');
  if (!view || !view.ropeParameters || !rp) return 'the file has no rope_parameters to copy from';
  if (view.perLayerType)
    return 'per-layer-type rope_parameters have no legacy spelling that 4.x readers take per layer type, so no back-fill can make them read alike';
  if (view.ropeScaling)
    return 'the file already has a rope_scaling, which readers choose differently from rope_parameters; keep the one that is meant and delete the other';
  const entries: PlainObject = {};
  const scaling: PlainObject = {};
  for (const c of rp.children ?? []) {
    const v = plainOf(c, ctx.doc.text);
    if (v === undefined) return `rope_parameters.${c.key} is a ${c.kind}, which a text back-fill does not copy; copy it into rope_scaling by hand`;
    if (c.key === 'rope_theta') {
      if (view.ropeTheta !== c.value) entries['rope_theta'] = v;
    } else if (c.key === 'partial_rotary_factor') {
      if (child(view.scope, 'partial_rotary_factor') === undefined) entries['partial_rotary_factor'] = v;
    } else scaling[c.key!] = v;
  }
  const extra = Object.keys(scaling).some((k) => k !== 'rope_type' && k !== 'type');
  if (scalingTypeOf(view.ropeParameters) !== 'none' || extra) entries['rope_scaling'] = scaling;
  if (!Object.keys(entries).length) return 'nothing to copy';
  return { entries, path: view.scopePath };
}

export const consumerMisreadRule: Rule = {
  codes: [SILENT_MISREAD],
  check(ctx) {
    if (ctx.fileKind !== 'model-config' || !ctx.consumers?.length) return [];
    // type and rope_type both set and different: rope/type-conflict owns that file.
    const s = ctx.model?.scaling;
    if (
      s?.legacyType &&
      s.rawType &&
      s.legacyType.value.trim().toLowerCase() !==
        String(s.params['rope_type']?.value ?? '')
          .trim()
          .toLowerCase()
    )
      return [];
    const intended = intendedReading(ctx.consumers);
    if (!intended) return [];
    const wrong = ctx.consumers.filter((r) => r !== intended && misreadOf(r, intended).length > 0);
    if (!wrong.length) return [];
    const view = configView(ctx.doc);
    // One clause per distinct base, one per distinct scaling, naming the consumers that share it.
    const ignores = (r: ConsumerReading) => !!view?.ropeParameters && r.notes.some((n) => /rope_parameters is (never|not) read/.test(n));
    const clauses: string[] = [];
    for (const [what, rs] of groupBy(
      wrong.filter((r) => misreadOf(r, intended).includes('base')),
      baseText,
    )) {
      clauses.push(
        rs.every(ignores) ? `${names(rs)} ignore rope_parameters: this model would run there with ${what}` : `${names(rs)} would run this model with ${what}`,
      );
    }
    for (const [what, rs] of groupBy(
      wrong.filter((r) => misreadOf(r, intended).some((x) => x !== 'base')),
      scalingText,
    )) {
      clauses.push(`${names(rs)} would apply ${what}`);
    }
    const readings = clauses.join('; ');
    const standings = wrong.map((r) => standingOf(r, ctx.pins));
    const pinned = standings.map((s) => s.pin).filter((p) => p !== undefined);
    const counted = standings.some((s) => s.counts);
    const severity = counted ? 'warning' : 'hint';
    const fill = backfill(ctx);
    const fixes: Fix[] = [];
    let tail: string;
    if (typeof fill === 'string') tail = ` No fix: ${fill}.`;
    else {
      tail = ` Writing ${Object.keys(fill.entries).join(' and ')} beside rope_parameters makes every reader use the same values.`;
      fixes.push({
        title: `Back-fill ${Object.keys(fill.entries).join(' and ')} from rope_parameters (read alike by transformers 4.x, 5.x and the engines)`,
        kind: 'other',
        preferred: true,
        edits: ctx.editor.mergeObject(fill.path, fill.entries, []),
      });
    }
    const pinNote = pinned.length
      ? ` The workspace uses ${pinned.map((p) => `${p!.pkg}${p!.version ? ` ${p!.version}` : ''} (${p!.source})`).join(', ')}.`
      : '';
    const node = child(view?.scope, 'rope_parameters') ?? child(view?.scope, 'rope_scaling') ?? child(view?.scope, 'rope_theta');
    // An older generation's misread: say that current releases read it right, and what would make it count.
    const olderNote = counted ? '' : ' Current releases read it as meant; this matters only where the workspace pins one of these older releases.';
    // The headline: the one misreading when it is short, else who misreads; the readings in full go to the detail.
    const who = `${names(wrong)} would run this model with other RoPE values than the file means.`;
    const message =
      clauses.length === 1 && clauses[0].length < 118
        ? `${clauses[0]}.`
        : who.length <= 120
          ? who
          : `${wrong.length} readers would run this model with other RoPE values than the file means.`;
    const detail = `${readings}. The file means ${describe(intended)}, as transformers 5 reads it.${pinNote}${olderNote}${tail}`;
    const out: Finding[] = [finding(SILENT_MISREAD, severity, message, keyRangeOf(ctx.doc, node), fixes, detail)];
    return out;
  },
};
