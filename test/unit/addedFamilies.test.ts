/**
 * Families added from real configs after issue 40 (test/fixtures/families/README.md names each file's source): a hub
 * id of each resolves offline from its family, `rope-lens serve` judges it past its trained context (the assumption
 * said, the override written), and `rope-lens check` judges the real config where a user meets it, in a Hugging Face
 * cache snapshot of that id: quiet as shipped, a warning once max_position_embeddings is raised without scaling.
 */
import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CliIO } from '../../server/cli/io';
import { run as check } from '../../server/cli/check';
import { run as serve } from '../../server/cli/serve';
import { findCatalogEntry, findListedEntry } from '../../shared/config/catalog';

const FIXTURES = join(__dirname, '..', 'fixtures', 'families');

interface Added {
  /** A real hub id of the family, not itself a catalog entry. */
  id: string;
  /** The real config of a member (test/fixtures/families). */
  fixture: string;
  generation: string;
  trained: number;
  /** What the serve override writes past the trained context (the vendor's recipe where one is documented). */
  override: RegExp;
}

const ADDED: Added[] = [
  {
    id: 'Qwen/Qwen3-Coder-480B-A35B-Instruct',
    fixture: 'qwen3-coder-480b-a35b-instruct.json',
    generation: 'Qwen3-Coder',
    trained: 262144,
    override: /"rope_scaling":\{"rope_type":"yarn","factor":4\.0,"original_max_position_embeddings":262144\}/,
  },
  { id: 'Qwen/Qwen3-VL-32B-Instruct', fixture: 'qwen3-vl-32b-instruct.json', generation: 'Qwen3-VL', trained: 262144, override: /"text_config":\{/ },
  {
    id: 'Qwen/Qwen3-Next-80B-A3B-Instruct',
    fixture: 'qwen3-next-80b-a3b-thinking.json',
    generation: 'Qwen3-Next',
    trained: 262144,
    override: /"original_max_position_embeddings":262144/,
  },
  { id: 'Qwen/Qwen3.6-35B-A3B', fixture: 'qwen3.6-35b-a3b.json', generation: 'Qwen3.6', trained: 262144, override: /"rope_parameters":\{/ },
  {
    id: 'MiniMaxAI/MiniMax-M2.5',
    fixture: 'minimax-m2.5.json',
    generation: 'MiniMax-M2.5',
    trained: 196608,
    override: /"original_max_position_embeddings":196608/,
  },
  {
    id: 'MiniMaxAI/MiniMax-M3',
    fixture: 'minimax-m3.json',
    generation: 'MiniMax-M3',
    trained: 1048576,
    override: /"original_max_position_embeddings":1048576/,
  },
  { id: 'zai-org/GLM-4.5-Air', fixture: 'glm-4.5-air.json', generation: 'GLM-4.5', trained: 131072, override: /"original_max_position_embeddings":131072/ },
  { id: 'zai-org/GLM-5.1', fixture: 'glm-5.1.json', generation: 'GLM-5.1', trained: 202752, override: /"rope_theta":1000000(?:\.0)?,/ },
  { id: 'zai-org/GLM-5.2', fixture: 'glm-5.2.json', generation: 'GLM-5.2', trained: 1048576, override: /"rope_theta":8000000(?:\.0)?,/ },
  {
    id: 'XiaomiMiMo/MiMo-V2-Flash',
    fixture: 'mimo-v2-flash.json',
    generation: 'MiMo-V2-Flash',
    trained: 262144,
    override: /"original_max_position_embeddings":262144/,
  },
  {
    id: 'mistralai/Mixtral-8x22B-Instruct-v0.1',
    fixture: 'mixtral-8x22b-v0.1.json',
    generation: 'Mixtral',
    trained: 65536,
    override: /"original_max_position_embeddings":65536/,
  },
];

async function cli(command: (argv: string[], io: CliIO) => Promise<number>, argv: string[]): Promise<{ code: number; text: string }> {
  let text = '';
  const io: CliIO = { out: (t) => (text += t + '\n'), err: (t) => (text += t + '\n') };
  try {
    return { code: await command(argv, io), text };
  } catch (e) {
    return { code: 2, text: text + String((e as Error).message) };
  }
}

/** Runs `fn` with HF_HOME at an empty folder (no machine cache answers for the catalog), then restores it. */
async function withHome<T>(fn: (home: string) => Promise<T>): Promise<T> {
  const home = mkdtempSync(join(tmpdir(), 'rope-lens-families-'));
  const saved = process.env.HF_HOME;
  process.env.HF_HOME = home;
  try {
    return await fn(home);
  } finally {
    if (saved === undefined) delete process.env.HF_HOME;
    else process.env.HF_HOME = saved;
    rmSync(home, { recursive: true, force: true });
  }
}

/** The real config written where huggingface_hub keeps a snapshot of `id`, with `edit` applied to its language scope. */
function snapshotOf(home: string, id: string, fixture: string, edit?: (scope: Record<string, unknown>) => void): string {
  const [org, name] = id.split('/');
  const dir = join(home, 'hub', `models--${org}--${name}`, 'snapshots', '0123abcd');
  mkdirSync(dir, { recursive: true });
  const config = JSON.parse(readFileSync(join(FIXTURES, fixture), 'utf8')) as Record<string, unknown>;
  const scope = (typeof config.text_config === 'object' && config.text_config !== null ? config.text_config : config) as Record<string, unknown>;
  edit?.(scope);
  const file = join(dir, 'config.json');
  writeFileSync(file, JSON.stringify(config, null, 2) + '\n');
  return file;
}

interface CheckedFile {
  rope: { trainedContext: { value: number } | null; identity: { family?: string } | null } | null;
  diagnostics: { code: string; severity: string; message: string }[];
}

describe('families added from real configs: resolved offline, judged by serve and check', () => {
  it('each id resolves from its family (no catalog entry of its own), with the trained context of the real config', () => {
    for (const a of ADDED) {
      assert.equal(findListedEntry(a.id), undefined, `${a.id} is a catalog entry: pick an id only the family knows`);
      const e = findCatalogEntry(a.id);
      assert.equal(e?.assumedFrom?.generation, a.generation, a.id);
      assert.equal(e.trainedContext.value, a.trained, a.id);
    }
  });

  it('serve past the trained context: the family said, an override that covers the length written', async () => {
    await withHome(async () => {
      for (const a of ADDED) {
        const r = await cli(serve, [a.id, '--engine', 'vllm', '--context', String(a.trained * 2)]);
        assert.equal(r.code, 0, `${a.id}: ${r.text}`);
        assert.match(
          r.text,
          new RegExp(`assumed from the ${a.generation.replace('.', '\\.')} family \\(trained at ${a.trained.toLocaleString('en-US')}`),
          a.id,
        );
        const line = r.text.split('\n').find((l) => l.startsWith(`vllm serve ${a.id} `)) ?? '';
        assert.match(line, new RegExp(`--max-model-len ${a.trained * 2} --hf-overrides`), `${a.id}: ${r.text}`);
        assert.match(line, a.override, `${a.id}: ${line}`);
      }
    });
  });

  it('serve at the trained context needs no override', async () => {
    await withHome(async () => {
      for (const a of ADDED) {
        const r = await cli(serve, [a.id, '--engine', 'vllm', '--context', String(a.trained)]);
        const line = r.text.split('\n').find((l) => l.startsWith(`vllm serve ${a.id} `)) ?? '';
        assert.equal(line, `vllm serve ${a.id} --max-model-len ${a.trained}`, `${a.id}: ${r.text}`);
      }
    });
  });

  it('check on the real config in a cache snapshot: quiet as shipped, a warning when max_position_embeddings is doubled', async () => {
    await withHome(async (home) => {
      for (const a of ADDED) {
        const stock = await cli(check, [snapshotOf(home, a.id, a.fixture), '--json']);
        const s = JSON.parse(stock.text.slice(stock.text.indexOf('{'))).files[0] as CheckedFile;
        assert.equal(s.rope?.identity?.family, a.generation, a.id);
        assert.equal(s.rope?.trainedContext?.value, a.trained, a.id);
        assert.deepEqual(
          s.diagnostics.filter((d) => d.severity === 'warning' || d.severity === 'error'),
          [],
          a.id,
        );
        rmSync(join(home, 'hub'), { recursive: true, force: true });
        const doubled = snapshotOf(home, a.id, a.fixture, (scope) => {
          scope.max_position_embeddings = a.trained * 2;
        });
        const raised = await cli(check, [doubled, '--json']);
        const w = (JSON.parse(raised.text.slice(raised.text.indexOf('{'))).files[0] as CheckedFile).diagnostics.find((d) => d.code === 'rope/context-extended');
        assert.ok(w, `${a.id}: ${raised.text.slice(0, 400)}`);
        assert.equal(w.severity, 'warning');
        assert.match(w.message, new RegExp(`past ${a.trained.toLocaleString('en-US')} tokens`), a.id);
        rmSync(join(home, 'hub'), { recursive: true, force: true });
      }
    });
  });

  it('Kimi-K2.5 keeps its YaRN ×64 over 4,096: a context past its reach warns', async () => {
    await withHome(async (home) => {
      const e = findCatalogEntry('moonshotai/Kimi-K2.6')!;
      assert.equal(e.assumedFrom?.generation, 'Kimi-K2.5');
      const file = snapshotOf(home, 'moonshotai/Kimi-K2.5', 'kimi-k2.5.json', (scope) => {
        scope.max_position_embeddings = 524288;
      });
      const r = await cli(check, [file, '--json']);
      const d = (JSON.parse(r.text.slice(r.text.indexOf('{'))).files[0] as CheckedFile).diagnostics;
      const w = d.find((x) => x.severity === 'warning');
      assert.ok(w, JSON.stringify(d));
      assert.match(w.message, /covers 262,144 tokens, but max_position_embeddings is 524,288/);
    });
  });

  it('Nemotron-3 (Mamba-2/attention hybrid, no position encoding): served by id as no-RoPE; its real config in a snapshot gets no base finding', async () => {
    await withHome(async (home) => {
      const id = 'nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16';
      assert.equal(findListedEntry(id), undefined);
      const r = await cli(serve, [id, '--engine', 'vllm']);
      assert.doesNotMatch(r.text, /not found offline/);
      assert.match(r.text, /assumed from the Nemotron-3 family \(trained at 262,144, no rotary embedding\)/);
      assert.match(r.text, /has no rotary position embedding/);
      assert.match(r.text, /vLLM derives max_model_len 262144 from max_position_embeddings/);
      const stock = await cli(check, [snapshotOf(home, id, 'nemotron-3-nano-30b-a3b.json'), '--json']);
      const s = JSON.parse(stock.text.slice(stock.text.indexOf('{'))).files[0] as CheckedFile;
      assert.equal(s.rope, null, stock.text.slice(0, 300));
      assert.deepEqual(s.diagnostics, []);
    });
  });

  it('Kimi-K3 (MLA without RoPE): serve by id says there is no RoPE and the length vLLM derives from its text config', async () => {
    await withHome(async () => {
      const r = await cli(serve, ['moonshotai/Kimi-K3', '--engine', 'vllm']);
      assert.doesNotMatch(r.text, /not found offline/);
      assert.match(r.text, /assumed from the Kimi-K3 family \(trained at 1,048,576, no rotary embedding\)/);
      assert.match(r.text, /moonshotai\/Kimi-K3 has no rotary position embedding \(mla_use_nope: true/);
      assert.match(r.text, /vLLM derives max_model_len 1048576 from max_position_embeddings/);
    });
  });
});
