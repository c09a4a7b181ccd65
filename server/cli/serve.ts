/**
 * `rope-lens serve <config.json | folder | model.gguf> [--engine vllm|sglang|llama.cpp|tgi|ollama]
 * [--context N] [--json]`: the maximum context each engine derives from the config, and the command
 * (arguments, environment, override JSON) that serves the model at N with the config's scaling.
 * Text output is a shell script: notes as comments, then the command line.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import { CliIO, EXIT_OK, UsageError, parseCliArgs } from './io';
import type { ModelRope } from '../../shared/config/modelRope';
import { hubIdFromCachePath } from '../../shared/config/identity';
import { noRopeSentence } from '../../shared/config/noRopeModel';
import { HUB_OPTION, HubContext, ResolvedModelArg, hubContext, modelArg } from './hub';
import { fetchGgufHeader } from '../../shared/node/hubFetch';
import { parseHubRef } from '../../shared/config/resolve';
import { nodeFileReader } from '../../shared/node/resolveNode';
import { contextKeysOf, vllmLengthWithoutRope } from '../../shared/service/engines';
import { ENGINE_NAMES, EngineName, ServingPlan, servingInput, servingPlan } from '../../shared/service/engines';
import { shellCommand, grouped } from '../../shared/service/engines';
import { modelReach } from '../../shared/config/reach';
import { isGgufFile, readGgufMetadata } from '../../shared/node/readGguf';
import { cliService } from './service';
import { trainingBase, trainingBaseLine } from './trainingBase';
import type { RopeLensService } from '../../shared/service/service';

const USAGE =
  'usage: rope-lens serve <config.json | model folder | model.gguf | training.yaml | hub id[@revision]> [--engine vllm|sglang|llama.cpp|tgi|ollama] [--context N] [--hub] [--json]';

interface ServeArgs {
  path: string;
  engines: EngineName[];
  context?: number;
  json: boolean;
  hub?: boolean;
}

/** 131072, 131_072, 128k (×1024). */
export function parseContext(raw: string): number {
  const s = raw.trim().replace(/_/g, '').toLowerCase();
  const m = /^(\d+)(k?)$/.exec(s);
  const n = m ? Number(m[1]) * (m[2] ? 1024 : 1) : NaN;
  if (!m || !Number.isSafeInteger(n) || n <= 0) throw new UsageError(`--context must be a positive integer (e.g. 131072 or 128k), got '${raw}'`);
  return n;
}

function parse(argv: string[]): ServeArgs | 'help' {
  const { values, positionals } = parseCliArgs(
    {
      args: argv,
      allowPositionals: true,
      options: {
        engine: { type: 'string' },
        context: { type: 'string' },
        json: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
        ...HUB_OPTION,
      },
    },
    USAGE,
    { oneLine: true },
  );
  if (values.help) return 'help';
  if (positionals.length !== 1) throw new UsageError(`expected exactly one config, folder or GGUF file, got ${positionals.length}; ${USAGE}`);
  let engines: EngineName[] = [...ENGINE_NAMES];
  if (values.engine !== undefined) {
    const e = values.engine
      .trim()
      .toLowerCase()
      .replace(/^llamacpp$|^llama-cpp$/, 'llama.cpp') as EngineName;
    if (!ENGINE_NAMES.includes(e)) throw new UsageError(`--engine must be one of ${ENGINE_NAMES.join(', ')}, got '${values.engine}'`);
    engines = [e];
  }
  const args: ServeArgs = { path: positionals[0], engines, json: values.json ?? false, hub: values.hub };
  if (values.context !== undefined) args.context = parseContext(values.context);
  return args;
}

interface Loaded {
  rope: ModelRope;
  model: string;
  gguf?: string;
  ggufHub?: { repo: string; file: string };
  contextKeys: Record<string, number>;
}

/** No RoPE to serve, and the length vLLM derives for such a model (from its length keys, nothing to scale). */
function noRopeToServe(name: string, why: string, doc: Parameters<typeof contextKeysOf>[0] | undefined): string {
  const keys = doc?.root ? contextKeysOf(doc) : {};
  const len = vllmLengthWithoutRope(keys);
  const from = len.key in keys ? ` from ${len.key}` : ` (${len.key})`;
  return `${noRopeSentence(name, why)}: there is no RoPE to serve; vLLM derives max_model_len ${len.value}${from}`;
}

/**
 * The model's RoPE, read by the same service as `check` (identity, trained context, groups). The
 * command names the model as the user did: a local folder or file by its path (a Hugging Face
 * cache snapshot by the hub id its folder names), a hub id as given. Never an identity the
 * fingerprint guessed: that would download and serve another model.
 */
async function load(path: string, service: RopeLensService, resolved?: ResolvedModelArg): Promise<Loaded> {
  if (resolved) {
    // A model id: the launch command names the id itself, as the engine would download it.
    const described = service.describe(resolved.text, { fileName: resolved.path ?? `${resolved.ref}/config.json`, asModelConfig: true });
    if (described.noRope) throw new UsageError(noRopeToServe(resolved.ref, described.noRope, described.document));
    if (!described.rope || !described.document?.root) throw new UsageError(`${resolved.ref}: its config.json does not look like a model config`);
    return { rope: described.rope, model: parseHubRef(resolved.ref)?.id ?? resolved.ref, contextKeys: contextKeysOf(described.document) };
  }
  let st;
  try {
    st = statSync(path);
  } catch (e) {
    throw new UsageError(`cannot read '${path}' (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  const file = st.isDirectory() ? join(path, 'config.json') : path;
  if (!st.isDirectory() && (path.toLowerCase().endsWith('.gguf') || isGgufFile(path))) {
    let metadata;
    try {
      metadata = await readGgufMetadata(path);
    } catch (e) {
      throw new UsageError(`'${path}': ${(e as Error).message}`);
    }
    const a = service.analyzeGguf(metadata, undefined, path);
    if (!a.rope || !a.config) throw new UsageError(`'${path}' is a GGUF without a model architecture (general.architecture)`);
    const ctx = a.config['max_position_embeddings'];
    // general.name says which model the file is (its trained context); the file is what is served.
    return { rope: a.rope, model: path, gguf: path, contextKeys: typeof ctx === 'number' ? { max_position_embeddings: ctx } : {} };
  }
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new UsageError(`cannot read '${file}' (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  const abs = resolve(file);
  const described = service.describe(text, { fileName: abs, asModelConfig: true });
  const doc = described.document;
  if (!doc?.root || doc.problems.length > 0) throw new UsageError(`'${file}' is not valid ${(doc?.format ?? 'json').toUpperCase()}`);
  if (described.noRope) throw new UsageError(noRopeToServe(`'${file}'`, described.noRope, doc));
  const rope = described.rope;
  if (!rope) throw new UsageError(`'${file}' does not look like a model config (no model_type, attention or RoPE keys)`);
  const folder = st.isDirectory() ? path : dirname(path);
  const model = hubIdFromCachePath(abs) ?? (folder === '.' ? `.${sep}` : folder);
  return { rope, model, contextKeys: contextKeysOf(doc) };
}

/** The RoPE of a Hub GGUF repository, from one file's header read over the network (--hub only). */
async function loadHubGguf(ref: string, service: RopeLensService, hub: HubContext): Promise<Loaded> {
  const r = await fetchGgufHeader(ref, hub.settings, (line) => hub.io.err(`rope-lens: hub: ${line}`));
  if (!r.ok) throw new UsageError(r.message);
  hub.io.err(`rope-lens: ${ref}: no config.json; read the GGUF header of ${r.file} (Hub revision ${r.revision}, commit ${r.commit.slice(0, 12)})`);
  const a = service.analyzeGguf(r.metadata);
  if (!a.rope || !a.config) throw new UsageError(`${ref}: ${r.file} is a GGUF without a model architecture (general.architecture)`);
  const ctx = a.config['max_position_embeddings'];
  return { rope: a.rope, model: r.id, ggufHub: { repo: r.id, file: r.file }, contextKeys: typeof ctx === 'number' ? { max_position_embeddings: ctx } : {} };
}

/** The first line quotes the engine's derived length as what it accepts, beside what the model reaches. */
function text(plan: ServingPlan, reach: number): string {
  const model = reach !== plan.derivedMaxLen ? ` (what it accepts; the model reaches ${grouped(reach)})` : '';
  const lines = [`# ${plan.engine}: derives ${grouped(plan.derivedMaxLen)} without overrides${model}; serves ${grouped(plan.context)}`];
  for (const n of plan.notes) lines.push(`# ${n}`);
  lines.push(shellCommand(plan));
  return lines.join('\n');
}

export async function run(argv: string[], io: CliIO): Promise<number> {
  const args = parse(argv);
  if (args === 'help') {
    io.out(USAGE);
    return EXIT_OK;
  }
  const hub = hubContext(args.hub, io);
  const service = cliService();
  let loaded: Loaded;
  try {
    let arg = await modelArg(args.path, hub, nodeFileReader.readText);
    // A training YAML: the model it fine-tunes is what an engine would load (not the YAML's folder).
    if (arg.kind === 'path') {
      const yamlText = /\.ya?ml$/i.test(arg.path) ? nodeFileReader.readText(arg.path) : undefined;
      const base = yamlText !== undefined ? await trainingBase(arg.path, yamlText, hub, 'serve') : undefined;
      if (base) {
        io.err(trainingBaseLine(arg.path, base, 'serve'));
        arg = base.model;
      }
    }
    loaded = await load(arg.kind === 'path' ? arg.path : arg.ref, service, arg.kind === 'model' ? arg : undefined);
  } catch (e) {
    // A GGUF repository has no config.json: its header says what the engines need.
    if (!hub.enabled || !parseHubRef(args.path.trim()) || existsSync(args.path)) throw e;
    loaded = await loadHubGguf(args.path.trim(), service, hub);
  }
  const input = servingInput(loaded.rope, {
    model: loaded.model,
    gguf: loaded.gguf,
    ggufHub: loaded.ggufHub,
    contextKeys: loaded.contextKeys,
    context: args.context,
  });
  const plans = args.engines.map((e) => servingPlan(e, input));
  if (args.json) io.out(JSON.stringify(plans.length === 1 ? plans[0] : plans, null, 2));
  else {
    const reach = modelReach(input.rope, input.trainedContext).value;
    io.out(plans.map((p) => text(p, reach)).join('\n\n'));
  }
  return EXIT_OK;
}
