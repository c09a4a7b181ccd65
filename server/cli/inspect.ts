/**
 * `rope-lens inspect <config> [--target N] [--method M] [--base B] --html out.html | --json`
 * Writes the RoPE Inspector as one standalone HTML file (script, styles and data inlined, strict
 * CSP, no network) that shows the same plots as the VS Code panel; or prints its data as JSON.
 */
import { readFileSync, writeFileSync, existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { CliIO, EXIT_OK, UsageError, parseCliArgs } from './io';
import { buildInspectorData } from '../../shared/inspector/build';
import { inspectorInputFromText } from '../../shared/inspector/fromConfig';
import { parseControls } from '../../shared/inspector/messages';
import { makeNonce, renderInspectorHtml } from '../../shared/inspector/html';
import { isRewriteMethod } from '../../shared/inspector/messages';
import type { InspectorControls } from '../../shared/inspector/types';
import type { BuildOptions, InspectorInput } from '../../shared/inspector/build';
import { defaultControls } from '../../shared/inspector/build';
import { bstar as exactBstar, threshold as exactThreshold } from '../../shared/bstar/index';
import { cliService } from './service';
import { HUB_OPTION, hubContext, modelArg } from './hub';
import { nodeFileReader } from '../../shared/node/resolveNode';

/** Longest target for which the export computes the exact b* (a few seconds at 128k on one core). */
export const EXACT_BSTAR_MAX_LENGTH = 262144;

/** Exact b* and threshold from the b* engine for the validity plot, or a note saying why not. */
export function exactBounds(input: InspectorInput, controls: Partial<InspectorControls>): BuildOptions['exact'] {
  const L = controls.targetLength ?? defaultControls(input).targetLength;
  const d = input.spec.rotaryDim;
  if (L > EXACT_BSTAR_MAX_LENGTH) {
    return {
      note: `Exact b* is not computed for lengths above ${EXACT_BSTAR_MAX_LENGTH} in the export (rope-lens bound --length ${L} --head-dim ${d} computes it); markers are grid estimates.`,
    };
  }
  const b = exactBstar(L, d);
  const t = exactThreshold(L, d, { bstar: b.bstar });
  return { bstar: b.bstar, threshold: t.threshold, note: `b* is exact (certified float64 sweep); the threshold is the b* engine's ${t.guarantee}` };
}

const USAGE =
  'usage: rope-lens inspect <config.json | model folder | hub id[@revision]> [--target N] [--method M] [--base B] [--variant v4|v5] [--hub] (--html out.html | --json)';

/** dist/media next to dist/cli.js, or the repo's dist/media when run from source. */
export function findMediaDir(): string {
  const candidates = [join(__dirname, 'media'), join(__dirname, '..', '..', 'dist', 'media'), join(__dirname, '..', 'dist', 'media')];
  for (const c of candidates) if (existsSync(join(c, 'inspector.js'))) return c;
  throw new UsageError('the Inspector page bundle (dist/media/inspector.js) is missing: run `npm run build` first');
}

function intOption(v: string | undefined, what: string): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v.replace(/_/g, ''));
  if (!Number.isFinite(n)) throw new UsageError(`${what} must be a number, got '${v}'`);
  return n;
}

/** The standalone page for one config: same bundle as the webview, everything inlined. */
export function standaloneHtml(
  configPath: string,
  controls: Partial<InspectorControls>,
  mediaDir = findMediaDir(),
  service = cliService(),
  given?: string,
): string {
  const text = given ?? readFileSync(configPath, 'utf8');
  const input = inspectorInputFromText(text, configPath, undefined, service, controls.targetLength);
  const data = buildInspectorData(input, controls, { exact: exactBounds(input, controls) });
  return renderInspectorHtml(
    {
      script: { inline: readFileSync(join(mediaDir, 'inspector.js'), 'utf8').replace(/\n\/\/# sourceMappingURL=.*$/m, '') },
      style: { inline: readFileSync(join(mediaDir, 'inspector.css'), 'utf8').replace(/\/\*# sourceMappingURL=.*\*\//, '') },
    },
    { nonce: makeNonce(), title: `RoPE Inspector · ${input.label}`, data, input, standalone: true },
  );
}

export async function run(argv: string[], io: CliIO): Promise<number> {
  const parsed = parseCliArgs(
    {
      args: argv,
      allowPositionals: true,
      options: {
        target: { type: 'string' },
        method: { type: 'string' },
        base: { type: 'string' },
        html: { type: 'string' },
        json: { type: 'boolean' },
        variant: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
        ...HUB_OPTION,
      },
    },
    USAGE,
  );
  const { values, positionals } = parsed;
  if (values.help) {
    io.out(USAGE);
    return EXIT_OK;
  }
  if (positionals.length !== 1) throw new UsageError(`expected one config file\n${USAGE}`);
  if (!values.html && !values.json) throw new UsageError(`give --html out.html or --json\n${USAGE}`);
  // A model id resolves to its config.json (HF cache, catalog, or with --hub the Hub); a path is read as it is.
  const arg = await modelArg(positionals[0], hubContext(values.hub, io), nodeFileReader.readText);
  // What serve and plan take: a config file, a model folder (its config.json), or a model id.
  let configPath = arg.kind === 'model' ? (arg.path ?? resolve(`${arg.ref}/config.json`)) : resolve(arg.path);
  const given = arg.kind === 'model' ? arg.text : undefined;
  if (given === undefined && !existsSync(configPath)) throw new UsageError(`${positionals[0]}: no such file`);
  if (given === undefined && statSync(configPath).isDirectory()) {
    configPath = join(configPath, 'config.json');
    if (!existsSync(configPath)) throw new UsageError(`${positionals[0]}: a folder without a config.json`);
  }

  const variant = values.variant ?? 'v5';
  if (variant !== 'v4' && variant !== 'v5') throw new UsageError(`--variant must be v4 or v5, got '${variant}'`);
  const service = cliService(variant);
  const text = given ?? readFileSync(configPath, 'utf8');
  const target = intOption(values.target, '--target');
  const input = inspectorInputFromText(text, configPath, undefined, service, target);
  const partial: Partial<InspectorControls> = {};
  if (values.method !== undefined && !isRewriteMethod(values.method)) {
    throw new UsageError(`--method must be one of configured, pi, ntk, ntk-by-parts, yarn, llama3, dynamic, longrope, gradient; got '${values.method}'`);
  }
  const base = intOption(values.base, '--base');
  if (target !== undefined || values.method !== undefined || base !== undefined) {
    const data0 = buildInspectorData(input, undefined, { validity: false, fbBuckets: 8 });
    const c = parseControls({
      method: values.method ?? data0.controls.method,
      targetLength: target ?? data0.controls.targetLength,
      ...(base !== undefined ? { base } : {}),
    });
    if (!c.ok) throw new UsageError(c.reason);
    Object.assign(partial, c.value);
  }

  if (values.json) {
    io.out(JSON.stringify(buildInspectorData(input, partial, { exact: exactBounds(input, partial) }), null, 2));
  }
  if (values.html) {
    const html = standaloneHtml(configPath, partial, findMediaDir(), service, given);
    writeFileSync(values.html, html);
    if (!values.json) io.out(`wrote ${values.html} (${(html.length / 1024).toFixed(0)} KB): open it in any browser, it works offline`);
  }
  return EXIT_OK;
}
