/**
 * Hover on a RoPE key (rope_theta, rope_scaling and its parameters, max_position_embeddings,
 * head_dim, partial_rotary_factor…): the numbers behind the findings and a link that opens the
 * RoPE Inspector on this document.
 */
import { Hover, MarkupKind } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { Position } from '../shared/document/positions';
import type { ConfigNode } from '../shared/document/configNode';
import type { ModelRope, Located } from '../shared/config/modelRope';
import type { BoundOracle, FileAnalysis } from '../shared/service/types';
import type { TransformersVariant } from '../shared/rope/spec';
import { ropeFacts } from '../shared/service/ropeFacts';
import { sci, grouped } from '../shared/core/format';
import { servingHover } from './servingActions';
import { consumersMarkdown } from '../shared/service/engines';
import { groupSummaries } from '../shared/config/groupSummary';

import { COMMANDS } from '../shared/protocol/commands';

export const OPEN_INSPECTOR_COMMAND = COMMANDS.openInspector;

interface Target {
  node: ConfigNode;
  label: string;
}

/** Every positioned value of the RoPE description, with what it means. */
function targets(rope: ModelRope): Target[] {
  const out: Target[] = [];
  const add = (l: Located<unknown> | undefined, label: string) => {
    if (l?.node) out.push({ node: l.node, label });
  };
  add(rope.base, 'RoPE base (θ)');
  add(rope.headDim, 'head dimension');
  add(rope.rotaryDim, 'rotary dimensions');
  add(rope.partialRotaryFactor, 'partial rotary factor');
  add(rope.contextLength, 'context length');
  add(rope.originalContextLength, 'original (pre-scaling) context length');
  add(rope.slidingWindow, 'sliding window');
  if (rope.scaling?.node) out.push({ node: rope.scaling.node, label: 'RoPE scaling' });
  for (const [key, p] of Object.entries(rope.scaling?.params ?? {})) add(p, `scaling parameter \`${key}\``);
  for (const v of rope.layerVariants ?? []) add(v.base, `RoPE base for ${v.layerType} layers`);
  return out;
}

/** The serving section, on the scaling block and the context length (where a user decides how to serve). */
function servingSectionFor(doc: TextDocument, analysis: FileAnalysis, rope: ModelRope, node: ConfigNode): string {
  if (node !== rope.scaling?.node && node !== rope.contextLength.node) return '';
  const section = servingHover(doc, analysis);
  return section ? `\n\n---\n\n${section}` : '';
}

/** The consumer table, on the base and the scaling keys (where consumers read the file differently). */
function consumerSectionFor(analysis: FileAnalysis, rope: ModelRope, node: ConfigNode): string {
  const onRopeKey = node === rope.base.node || node === rope.scaling?.node || Object.values(rope.scaling?.params ?? {}).some((p) => p.node === node);
  const section = onRopeKey ? consumersMarkdown(analysis.consumers ?? [], { savedWith: analysis.savedWith }) : '';
  return section ? `\n\n---\n\n${section}` : '';
}

function contains(node: ConfigNode, offset: number): 'key' | 'value' | undefined {
  if (node.keyOffset !== undefined && offset >= node.keyOffset && offset <= node.keyOffset + (node.keyLength ?? 0)) return 'key';
  // Containers only count on their key, so hovering inside rope_scaling finds the parameter instead.
  if (node.kind !== 'object' && node.kind !== 'array' && offset >= node.offset && offset <= node.offset + node.length) return 'value';
  return undefined;
}

/** Inside a launch command: what the engine or trainer will derive and do for it. */
function launchHoverAt(analysis: FileAnalysis, position: Position): Hover | null {
  const before = (a: Position, b: Position) => a.line < b.line || (a.line === b.line && a.character <= b.character);
  const hit = (analysis.launchHovers ?? []).find((h) => before(h.range.start, position) && before(position, h.range.end));
  return hit ? { contents: { kind: MarkupKind.Markdown, value: hit.markdown }, range: hit.range } : null;
}

export function hoverAt(doc: TextDocument, analysis: FileAnalysis, position: Position, oracle: BoundOracle, variant: TransformersVariant): Hover | null {
  if (analysis.kind === 'launch') return launchHoverAt(analysis, position);
  const rope = analysis.rope;
  if (!rope) return null;
  const offset = doc.offsetAt(position);
  const hit = targets(rope).find((t) => contains(t.node, offset));
  if (!hit) return null;
  const f = ropeFacts(rope, oracle, variant);
  const pending = '_computing…_';
  const rows: [string, string][] = [
    ['base θ', sci(f.base) + (rope.base.node ? '' : ` (default${rope.base.note ? ': ' + rope.base.note : ''})`)],
    ['rotary dims d', `${f.rotaryDim}` + (rope.partialRotaryFactor.value !== 1 ? ` (head_dim ${rope.headDim.value} × ${rope.partialRotaryFactor.value})` : '')],
    ['context L', `${grouped(f.contextLength)}` + (rope.contextLength.key ? ` (\`${rope.contextLength.key}\`)` : '')],
    [
      'b*(L, d)',
      f.bstarShown === undefined
        ? pending
        : `${f.bstarShown} (rounded up, valid as shown) — smallest base whose f stays ≥ 0 for all m < L; larger bases can fail again`,
    ],
    ['all bases valid above', f.threshold === undefined ? pending : sci(f.threshold)],
    [
      'L_max(θ)',
      f.lmax === undefined
        ? pending
        : f.lmax === null
          ? `≥ ${grouped(f.contextLength)} (valid for the whole context)`
          : `${grouped(f.lmax)} — f first turns negative here`,
    ],
  ];
  if (f.criticalDim !== undefined) rows.push(['critical dimension', `${f.criticalDim} of ${f.rotaryDim} dims see a full period within L`]);
  rows.push(['rope type', `\`${f.ropeType}\``]);
  // Each attention group (full and sliding layers, DeepSeek-V4's main and compress tables): its own base and reach.
  for (const line of groupSummaries(rope)) {
    const [who, what] = line.split(/: (.*)/s);
    rows.push([`layers ${who}`, what]);
  }
  rows.push([
    'attention factor',
    f.attentionFactor !== undefined
      ? `${Number(f.attentionFactor.toPrecision(6))} (transformers ${variant})`
      : `n/a${f.frequencyError ? ' — ' + f.frequencyError : ''}`,
  ]);

  const args = encodeURIComponent(JSON.stringify([doc.uri]));
  const value =
    [
      `**RoPE Lens** · ${hit.label}`,
      '',
      '| | |',
      '|---|---|',
      ...rows.map(([k, v]) => `| ${k} | ${v.replace(/\|/g, '\\|')} |`),
      '',
      `[Open RoPE Inspector](command:${OPEN_INSPECTOR_COMMAND}?${args}) · [Plan context extension…](command:${COMMANDS.planContextExtension}?${args})`,
    ].join('\n') +
    consumerSectionFor(analysis, rope, hit.node) +
    servingSectionFor(doc, analysis, rope, hit.node);
  const node = hit.node;
  const start = contains(node, offset) === 'key' && node.keyOffset !== undefined ? node.keyOffset : node.offset;
  const length = contains(node, offset) === 'key' ? (node.keyLength ?? 0) : node.length;
  return {
    contents: { kind: MarkupKind.Markdown, value },
    range: { start: doc.positionAt(start), end: doc.positionAt(start + length) },
  };
}
