/**
 * gcloud deployments read as launches (shared/launch/shell/gcloud.ts): Vertex AI's `gcloud ai models
 * upload` / `gcloud ai model-garden models deploy` (`--container-image-uri`, `--container-command`,
 * `--container-args`, `--container-env-vars`) and Cloud Run's `gcloud run deploy` (`--image`,
 * `--command`, `--args`), whose values are gcloud lists (commas, or the delimiter a leading `^D^` names).
 * The real example is Google's DeepSeek-V3 multi-host upload on the Vertex AI vLLM image
 * (test/fixtures/launch/wild/README.md has the source).
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyzeText } from '../../shared/service/analyze';
import { createSyncOracle } from '../../shared/service/syncOracle';
import { readLaunchFile } from '../../shared/launch/index';
import { gcloudListItems } from '../../shared/launch/shell/gcloud';
import { LineMap } from '../../shared/launch/text';
import { loadShellParser } from '../../shared/node/shellParser';
import type { ShellParser, Token } from '../../shared/launch/types';

const WILD = join(__dirname, '..', 'fixtures', 'launch', 'wild', 'constructed');
const oracle = createSyncOracle();
const IMAGE = 'us-docker.pkg.dev/vertex-ai/vertex-vision-model-garden-dockers/pytorch-vllm-serve:20250312_0916_RC01';

describe('gcloud deployments of the Vertex AI vLLM image', function () {
  this.timeout(60_000);
  let shell: ShellParser;
  before(async () => {
    shell = await loadShellParser();
  });
  const read = (text: string) => readLaunchFile(text, 'deploy.sh', { shell });
  const analyze = (text: string) => analyzeText(text, { fileName: 'deploy.sh', oracle, shellParser: shell });
  const at = (text: string, t: Token) => text.slice(t.offset, t.offset + t.length);

  it('gcloud lists: commas, a ^;^ delimiter, spans inside quotes; fixes never edit the items', () => {
    const text = `--container-args='^;^python;-m;vllm.entrypoints.api_server;--max-model-len=163840'`;
    const map = new LineMap(text);
    const value = text.slice(text.indexOf("'") + 1, -1);
    const tok: Token = {
      value,
      raw: text.slice(text.indexOf("'")),
      offset: text.indexOf("'"),
      length: value.length + 2,
      range: map.range(0, 0),
      quote: 'single',
      known: true,
    };
    const items = gcloudListItems(tok, map, '--container-args');
    assert.deepEqual(
      items.map((t) => t.value),
      ['python', '-m', 'vllm.entrypoints.api_server', '--max-model-len=163840'],
    );
    for (const t of items) {
      assert.equal(at(text, t), t.value, 'each item keeps its own span');
      assert.equal(t.from, 'the --container-args list');
    }
    const plain = 'a,b,,c';
    const p = gcloudListItems(
      { value: plain, raw: plain, offset: 0, length: plain.length, range: map.range(0, 0), quote: 'none', known: true },
      new LineMap(plain),
      '--args',
    );
    assert.deepEqual(
      p.map((t) => [t.value, t.offset]),
      [
        ['a', 0],
        ['b', 2],
        ['', 4],
        ['c', 5],
      ],
    );
  });

  it("Google's DeepSeek-V3 upload: ray_launcher.sh runs python -m vllm.entrypoints.api_server; read as vLLM at 163,840, no finding", () => {
    const text = readFileSync(join(WILD, 'vertex-deepseek-v3-multihost.sh'), 'utf8');
    const inv = read(text)!.invocations;
    assert.equal(inv.length, 1);
    assert.equal(inv[0].entrypoint, 'program');
    assert.deepEqual(
      inv[0].argv.slice(0, 3).map((t) => t.value),
      ['python', '-m', 'vllm.entrypoints.api_server'],
    );
    assert.equal(inv[0].image?.value, IMAGE);
    assert.equal(inv[0].env['MODEL_ID']?.value, 'deepseek-ai/DeepSeek-V3');
    assert.equal(inv[0].append, undefined, 'nothing is appended after a gcloud command');
    const a = analyze(text);
    assert.equal(a.kind, 'launch');
    assert.deepEqual(
      a.launches!.map((l) => [l.program, l.model, l.requestedLength]),
      [['vllm', 'deepseek-ai/DeepSeek-V3', 163840]],
    );
    assert.deepEqual(
      a.diagnostics.filter((d) => d.severity !== 'hint').map((d) => d.code),
      [],
    );
  });

  it('--container-command then --container-args: a length vLLM refuses is an error on the list item, with no fix written into the list', () => {
    const text = readFileSync(join(WILD, 'vertex-vllm-upload.sh'), 'utf8');
    const a = analyze(text);
    const d = a.diagnostics.find((x) => x.code === 'vllm/max-model-len-exceeds');
    assert.ok(d, a.diagnostics.map((x) => x.code).join());
    assert.equal(d.severity, 'error');
    const line = text.split('\n')[d.range.start.line];
    assert.equal(line.slice(d.range.start.character, d.range.end.character), '65536');
    assert.deepEqual(d.fixes, []);
    assert.match(a.launches![0].notes.join(' '), /gcloud ai models upload: the container runs --container-command, then --container-args/);
  });

  it('a Dockerfile FROM the Vertex image whose CMD runs vllm.entrypoints.api_server is the same launch', () => {
    const text = `FROM ${IMAGE}\nCMD ["python", "-m", "vllm.entrypoints.api_server", "--host=0.0.0.0", "--port=7080", "--model=Qwen/Qwen2.5-7B-Instruct", "--max-model-len=65536"]\n`;
    const a = analyzeText(text, { fileName: 'Dockerfile', oracle, shellParser: shell });
    assert.deepEqual(
      a.launches!.map((l) => [l.program, l.model, l.requestedLength]),
      [['vllm', 'Qwen/Qwen2.5-7B-Instruct', 65536]],
    );
    const d = a.diagnostics.find((x) => x.code === 'vllm/max-model-len-exceeds')!;
    assert.equal(text.split('\n')[d.range.start.line].slice(d.range.start.character, d.range.end.character), '65536');
    // Here the exec-form list is the user's own: the fixes are written into it.
    assert.ok(d.fixes.some((f) => f.preferred));
  });

  it('Cloud Run (gcloud beta run deploy --command/--args) and model-garden deploy are read; other gcloud commands are not', () => {
    const run = analyze(readFileSync(join(WILD, 'cloud-run-vllm.sh'), 'utf8'));
    assert.deepEqual(
      run.launches!.map((l) => [l.program, l.model, l.requestedLength]),
      [['vllm', 'meta-llama/Meta-Llama-3-8B-Instruct', 8192]],
    );
    const mg = analyze(
      `gcloud ai model-garden models deploy --model=google/gemma3@gemma-3-1b-it \\\n  --container-image-uri=${IMAGE} \\\n  --container-args "python,-m,vllm.entrypoints.api_server,--model=Qwen/Qwen2.5-7B-Instruct,--max-model-len=131072"\n`,
    );
    assert.deepEqual(
      mg.diagnostics.map((d) => `${d.code}:${d.severity}`),
      ['vllm/max-model-len-exceeds:error'],
    );
    // Listing models, or an upload of another server (Triton) with flags for its own entrypoint: no launch.
    assert.equal(read('gcloud ai models list --region=us-central1 --filter=display_name=vllm\n'), undefined);
    const triton = read(
      "gcloud ai models upload --region=us-central1 --display-name=t --container-image-uri=us-central1-docker.pkg.dev/p/r/vertex-triton-inference --container-args='--strict-model-config=false'\n",
    );
    assert.ok(!triton || triton.invocations.length === 0);
  });
});
