/**
 * `rope-lens consumers <config.json | folder> [--json]`: how each consumer (transformers by release
 * range, vLLM, SGLang, llama.cpp, TGI, Ollama) reads the model config: accepted or refused, base,
 * scaling, factor, attention factor, derived maximum length, windows; cells that differ from the
 * file's meaning (transformers 5's reading) are marked.
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { CliIO, EXIT_OK, UsageError, parseCliArgs } from './io';
import { cliService } from './service';
import { consumersText, consumerCells } from '../../shared/service/engines';

const USAGE = 'usage: rope-lens consumers <config.json | model folder> [--json]';

function configPath(path: string): string {
  let st;
  try { st = statSync(path); } catch { throw new UsageError(`cannot read '${path}'`); }
  return st.isDirectory() ? join(path, 'config.json') : path;
}

export async function run(argv: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCliArgs({
    args: argv, allowPositionals: true,
    options: { json: { type: 'boolean', default: false }, help: { type: 'boolean', short: 'h', default: false } },
  }, USAGE, { oneLine: true });
  if (values.help) { io.out(USAGE); return EXIT_OK; }
  if (positionals.length !== 1) throw new UsageError(`expected exactly one config or folder, got ${positionals.length}; ${USAGE}`);
  const file = configPath(positionals[0]);
  let text: string;
  try { text = readFileSync(file, 'utf8'); } catch { throw new UsageError(`cannot read '${file}'`); }
  const analysis = cliService().describe(text, { fileName: file, asModelConfig: true });
  if (!analysis.rope) throw new UsageError(`'${file}' is not a model config with rotary position embeddings${analysis.noRope ? ` (${analysis.noRope})` : ''}`);
  const rows = analysis.consumers ?? [];
  if (values.json) {
    const cells = consumerCells(rows);
    io.out(JSON.stringify({ path: file, consumers: rows.map((r, i) => ({ ...r, differs: cells[i].differs.map((c) => ['consumer', 'accepts', 'base', 'scaling', 'factor', 'attentionFactor', 'derivedMaxLen', 'windows', 'rotaryDim'][c]) })) }, null, 2));
  } else {
    io.out(`${file}\n\n${consumersText(rows)}`);
  }
  return EXIT_OK;
}
