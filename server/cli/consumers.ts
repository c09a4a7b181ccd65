/**
 * `rope-lens consumers <config.json | folder | training.yaml | hub id[@revision]> [--hub] [--json]`:
 * how each consumer (transformers by release range, vLLM, SGLang, llama.cpp, TGI, Ollama) reads
 * the model config: accepted or refused, base, scaling, factor, attention factor, derived maximum
 * length, windows; cells that differ from the file's meaning (transformers 5's reading) are
 * marked. A training YAML is read as its base model; a hub id as `freqs`, `serve` and `plan` take it.
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { CliIO, EXIT_OK, UsageError, parseCliArgs } from './io';
import { cliService } from './service';
import { HUB_OPTION, hubContext, modelArg } from './hub';
import { trainingBase, trainingBaseLine } from './trainingBase';
import { nodeFileReader } from '../../shared/node/resolveNode';
import { consumersText, consumerCells } from '../../shared/service/engines';

const USAGE = 'usage: rope-lens consumers <config.json | model folder | training.yaml | hub id[@revision]> [--hub] [--json]';

function configPath(path: string): string {
  let st;
  try {
    st = statSync(path);
  } catch {
    throw new UsageError(`cannot read '${path}'`);
  }
  return st.isDirectory() ? join(path, 'config.json') : path;
}

export async function run(argv: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCliArgs(
    {
      args: argv,
      allowPositionals: true,
      options: { json: { type: 'boolean', default: false }, help: { type: 'boolean', short: 'h', default: false }, ...HUB_OPTION },
    },
    USAGE,
    { oneLine: true },
  );
  if (values.help) {
    io.out(USAGE);
    return EXIT_OK;
  }
  if (positionals.length !== 1) throw new UsageError(`expected exactly one config, folder, training YAML or model id, got ${positionals.length}; ${USAGE}`);
  const hub = hubContext(values.hub, io);
  // A model id: the HF cache, the catalog, or (with --hub) the Hub, as the other commands read it.
  const arg = await modelArg(positionals[0], hub, nodeFileReader.readText);
  let file: string;
  let text: string;
  if (arg.kind === 'model') {
    file = arg.path ?? `${arg.ref}/config.json`;
    text = arg.text;
  } else {
    file = configPath(arg.path);
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      throw new UsageError(`cannot read '${file}'`);
    }
    // A training YAML: the consumers load its base model's config, so that is the one tabled.
    const base = await trainingBase(file, text, hub, 'consumers');
    if (base) {
      io.err(trainingBaseLine(file, base, 'consumers'));
      file = base.model.path ?? `${base.model.ref}/config.json`;
      text = base.model.text;
    }
  }
  const analysis = cliService().describe(text, { fileName: file, asModelConfig: true });
  if (!analysis.rope) throw new UsageError(`'${file}' is not a model config with rotary position embeddings${analysis.noRope ? ` (${analysis.noRope})` : ''}`);
  const rows = analysis.consumers ?? [];
  if (values.json) {
    const cells = consumerCells(rows);
    io.out(
      JSON.stringify(
        {
          path: file,
          ...(analysis.savedWith ? { savedWith: analysis.savedWith } : {}),
          consumers: rows.map((r, i) => ({
            ...r,
            differs: cells[i].differs.map(
              (c) => ['consumer', 'accepts', 'base', 'scaling', 'factor', 'attentionFactor', 'derivedMaxLen', 'windows', 'rotaryDim'][c],
            ),
          })),
        },
        null,
        2,
      ),
    );
  } else {
    io.out(`${file}\n\n${consumersText(rows, { savedWith: analysis.savedWith })}`);
  }
  return EXIT_OK;
}
