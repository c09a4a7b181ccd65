/**
 * `rope-lens freqs <config.json> [--seq-len N] [--variant v4|v5] [--json]`: the inv_freq, attention
 * factor and wavelengths transformers will use for a model config, as a table or one JSON object.
 */
import { readFileSync } from 'node:fs';
import { CliIO, EXIT_OK, UsageError, parseCliArgs } from './io';
import { formatOf, parseDocumentText } from '../../shared/document/parse';
import { precise } from '../../shared/core/format';
import { cliService } from './service';
import { HUB_OPTION, hubContext, modelArg, withHub } from './hub';
import { nodeFileReader } from '../../shared/node/resolveNode';
import type { BaseModelResolver } from '../../shared/config/resolve';
import type { JsonRopeCore } from '../../shared/service/jsonReport';
import { toRopeSpec, transformers5RotaryDim } from '../../shared/config/modelConfig';
import { groupScaling, ropeGroups } from '../../shared/config/attentionGroups';
import { ModelRope } from '../../shared/config/modelRope';
import { computeFrequencies, DEFAULT_VARIANT } from '../../shared/rope/invFreq';
import { rotationsWithin, wavelengths } from '../../shared/rope/analysis';
import { RopeFrequencies, RopeSpec, TransformersVariant } from '../../shared/rope/spec';

const USAGE = 'usage: rope-lens freqs <config.json | hub id[@revision]> [--seq-len N] [--variant v4|v5] [--hub] [--json]';

/**
 * `freqs --json`: the spec's numbers, the frequencies as transformers computes them (typed arrays as
 * plain arrays) and the context keys as `check --json` prints them — derived, not copied.
 */
export type FreqsReport = Pick<RopeSpec, 'ropeType' | 'rotaryDim' | 'base'> & {
  [K in 'invFreq' | 'attentionFactor']: RopeFrequencies[K] extends Float64Array ? number[] : RopeFrequencies[K];
} & { wavelengths: number[] } & { contextLength: number; originalContextLength: JsonRopeCore['originalContextLength'] } & { groups: FreqsGroup[] };

/** Every attention group with RoPE, its frequencies as transformers computes them for those layers. */
export interface FreqsGroup {
  layerType: string;
  /** The library's rotary table these layers read, where it is not named by the layer type (DeepSeek-V4: main, compress). */
  table?: string;
  layers: number | null;
  ropeType: string;
  base: number;
  rotaryDim: number;
  window: number | null;
  reach: number;
  invFreq: number[];
  attentionFactor: number;
}

interface FreqsArgs {
  path: string;
  seqLen?: number;
  variant: TransformersVariant;
  json: boolean;
  hub?: boolean;
}

function parse(argv: string[]): FreqsArgs | 'help' {
  const parsed = parseCliArgs(
    {
      args: argv,
      allowPositionals: true,
      options: {
        'seq-len': { type: 'string' },
        variant: { type: 'string' },
        json: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
        ...HUB_OPTION,
      },
    },
    USAGE,
    { oneLine: true },
  );
  const { values, positionals } = parsed;
  if (values.help) return 'help';
  if (positionals.length !== 1) throw new UsageError(`expected exactly one config file, got ${positionals.length}; ${USAGE}`);
  let seqLen: number | undefined;
  if (values['seq-len'] !== undefined) {
    const raw = values['seq-len'].replace(/_/g, '');
    seqLen = Number(raw);
    if (!/^\d+$/.test(raw) || !Number.isSafeInteger(seqLen) || seqLen <= 0) {
      throw new UsageError(`--seq-len must be a positive integer, got '${values['seq-len']}'`);
    }
  }
  const variant = values.variant ?? DEFAULT_VARIANT;
  if (variant !== 'v4' && variant !== 'v5') throw new UsageError(`--variant must be v4 or v5, got '${variant}'`);
  return { path: positionals[0], seqLen, variant, json: values.json ?? false, hub: values.hub };
}

/** Reads and parses the file (or the text a model id resolved to); every failure is one UsageError line. */
function readRope(path: string, variant: TransformersVariant, resolver?: BaseModelResolver, given?: string): ModelRope | { noRope: string } {
  let text: string;
  try {
    text = given ?? readFileSync(path, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new UsageError(`cannot read '${path}'${code ? ` (${code})` : ''}`);
  }
  const doc = parseDocumentText(text, formatOf(path) ?? 'json');
  if (!doc.root || doc.problems.length > 0) {
    const p = doc.problems[0];
    const where = p ? doc.lines.positionAt(p.offset) : undefined;
    throw new UsageError(
      `'${path}' is not valid ${doc.format.toUpperCase()}${p && where ? ` (line ${where.line + 1}, column ${where.character + 1}: ${p.message})` : ''}`,
    );
  }
  // Through the CLI's service, as `check` and `inspect` read it (a training YAML: its base model).
  const described = cliService(variant, undefined, resolver).describe(text, { fileName: path, asModelConfig: true });
  if (described.noRope) return { noRope: described.noRope };
  const rope = described.rope;
  if (!rope) throw new UsageError(`'${path}' does not look like a model config (no model_type, attention or RoPE keys)`);
  return rope;
}

/** The JSON report for a model config (exported for the tests and other front-ends). */
export function freqsReport(rope: ModelRope, spec: RopeSpec, f: RopeFrequencies, opts: { seqLen?: number; variant?: TransformersVariant } = {}): FreqsReport {
  const v5 = (opts.variant ?? DEFAULT_VARIANT) === 'v5';
  return {
    groups: ropeGroups(rope).map((g) => {
      // v5: the rotary dimensions 5.x's class reads (transformers5RotaryDim); v4 groups as before.
      const gs = toRopeSpec({ ...rope, base: g.base, rotaryDim: g.rotaryDim, scaling: groupScaling(rope, g) }, v5 ? { variant: 'v5' } : {});
      const gf = computeFrequencies(gs, opts);
      return {
        layerType: g.layerType,
        ...(g.table ? { table: g.table } : {}),
        layers: g.layers,
        ropeType: gs.ropeType,
        base: gs.base,
        rotaryDim: gs.rotaryDim,
        window: g.window?.value ?? null,
        reach: g.reach,
        invFreq: Array.from(gf.invFreq),
        attentionFactor: gf.attentionFactor,
      };
    }),
    ropeType: spec.ropeType,
    rotaryDim: spec.rotaryDim,
    base: spec.base,
    invFreq: Array.from(f.invFreq),
    attentionFactor: f.attentionFactor,
    wavelengths: Array.from(wavelengths(f.invFreq)),
    contextLength: rope.contextLength.value,
    originalContextLength: rope.originalContextLength?.value ?? f.effectiveOriginalContext ?? null,
  };
}

const fmt = (x: number): string => precise(x, 7);

function table(rope: ModelRope, r: FreqsReport, f: RopeFrequencies, a: FreqsArgs): string {
  const src = (l: { key?: string; note?: string }) => (l.key ? ` (${l.key})` : l.note ? ` (${l.note})` : '');
  const lines = [
    `rope type:        ${r.ropeType}${rope.scaling?.rawType && rope.scaling.rawType.value !== r.ropeType ? ` (written '${rope.scaling.rawType.value}')` : ''}`,
    `rotary dim:       ${r.rotaryDim}${r.rotaryDim === rope.rotaryDim.value ? src(rope.rotaryDim) : src(transformers5RotaryDim(rope, rope.rotaryDim))}`,
    `base:             ${r.base}${src(rope.base)}`,
    `context:          ${r.contextLength}${src(rope.contextLength)}`,
    `original context: ${r.originalContextLength ?? '-'}`,
    `attention factor: ${r.attentionFactor}`,
    `semantics:        transformers ${a.variant}${a.seqLen !== undefined ? `, at sequence length ${a.seqLen}` : ''}`,
  ];
  if (f.effectiveFactor !== undefined) lines.push(`factor used:      ${f.effectiveFactor}`);
  if (f.effectiveBase !== undefined) lines.push(`dynamic base:     ${f.effectiveBase}`);
  if (f.correctionRange) lines.push(`yarn ramp:        dims ${f.correctionRange[0]} … ${f.correctionRange[1]}`);
  if (f.usedLongFactor !== undefined) lines.push(`longrope factors: ${f.usedLongFactor ? 'long_factor' : 'short_factor'}`);
  const turns = rotationsWithin(f.invFreq, r.originalContextLength ?? r.contextLength);
  lines.push('', '   i  inv_freq        wavelength      turns in context');
  r.invFreq.forEach((theta, i) => {
    lines.push(`${String(i).padStart(4)}  ${fmt(theta).padEnd(14)}  ${fmt(r.wavelengths[i]).padEnd(14)}  ${fmt(turns[i])}`);
  });
  return lines.join('\n');
}

export async function run(argv: string[], io: CliIO): Promise<number> {
  const args = parse(argv);
  if (args === 'help') {
    io.out(USAGE);
    return EXIT_OK;
  }
  // A model id: the HF cache, the catalog, or (with --hub) the Hub; a training YAML's base model likewise.
  const hub = hubContext(args.hub, io);
  const arg = await modelArg(args.path, hub, nodeFileReader.readText);
  const rope =
    arg.kind === 'model'
      ? readRope(arg.path ?? `${arg.ref}/config.json`, args.variant, undefined, arg.text)
      : await withHub(hub, (resolver) => readRope(arg.path, args.variant, resolver));
  if ('noRope' in rope) {
    // Not an error: the model simply has no rotary embedding (check says the same).
    io.out(args.json ? JSON.stringify({ noRope: rope.noRope }) : `no rotary position embedding: ${rope.noRope}`);
    return EXIT_OK;
  }
  const spec = toRopeSpec(rope, { variant: args.variant });
  const f = computeFrequencies(spec, { seqLen: args.seqLen, variant: args.variant });
  const report = freqsReport(rope, spec, f, { seqLen: args.seqLen, variant: args.variant });
  io.out(args.json ? JSON.stringify(report) : table(rope, report, f, args));
  return EXIT_OK;
}
