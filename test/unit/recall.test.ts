/**
 * The recall pass over the repo's own fixtures (follow-up of issue 40): launches that were read but not
 * judged, and launch files read as "other", reviewed one by one (test/fixtures/RECALL.md holds the table).
 * Each fix here is on the fixture that showed the gap: a model named the way its engine or its
 * converter names it now resolves offline, and a server RoPE Lens recognises but does not read is said.
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ShellParser } from '../../shared/launch/types';
import { createRopeLensService } from '../../shared/service/service';
import { createSyncOracle } from '../../shared/service/syncOracle';
import { identityCandidates } from '../../shared/service/analyzeLaunch';
import { ollamaLibraryModel } from '../../shared/serving/ollama';
import { shellParser } from './helpers/launch';

const LAUNCH = join(__dirname, '..', 'fixtures', 'launch');

describe('recall pass: fixtures read but not judged, now judged or said', function () {
  this.timeout(60_000);
  let shell: ShellParser;
  let service: ReturnType<typeof createRopeLensService>;
  before(async () => {
    shell = await shellParser();
    service = createRopeLensService({ oracle: createSyncOracle(), shellParser: () => shell });
  });
  const analyze = (rel: string) => service.analyze(readFileSync(join(LAUNCH, rel), 'utf8'), { fileName: join(LAUNCH, rel) });
  const onlyLaunch = (rel: string) => {
    const a = analyze(rel);
    assert.equal(a.launches?.length, 1, `${rel}: ${JSON.stringify(a.launches?.map((l) => l.program))}`);
    return { a, l: a.launches![0] };
  };

  it("KubeAI's ollama://gemma3:27b is the Ollama library's Gemma 3 27B (instruction-tuned), judged", () => {
    const { a, l } = onlyLaunch('wild/substratusai__kubeai/gemma-3-27b-ollama-l4.yaml');
    assert.equal(l.unjudged, undefined, l.unjudged);
    assert.equal(l.resolvedFrom, 'catalog:google/gemma-3-27b-it');
    assert.ok(
      l.notes.some((n) => /Ollama library tag gemma3:27b/.test(n)),
      l.notes.join(' | '),
    );
    assert.deepEqual(
      a.diagnostics.map((d) => d.code),
      [],
    );
  });

  it('Ollama gemma2/gemma3 tags: sizes, -it/-qat and quantisation words keep the model; a base (text) tag is not guessed', () => {
    assert.equal(ollamaLibraryModel('gemma3')?.id, 'google/gemma-3-4b-it');
    assert.equal(ollamaLibraryModel('gemma3:12b-it-qat')?.id, 'google/gemma-3-12b-it');
    assert.equal(ollamaLibraryModel('gemma3:1b-it-q4_K_M')?.id, 'google/gemma-3-1b-it');
    assert.equal(ollamaLibraryModel('gemma2:27b')?.id, 'google/gemma-2-27b-it');
    assert.equal(ollamaLibraryModel('gemma2:9b-text-q4_0'), undefined);
    assert.equal(ollamaLibraryModel('gemma3:7b'), undefined, 'no such size');
  });

  it("a GGML .bin named as TheBloke named them (llama-2-13b-chat.ggmlv3.q4_0.bin) is Llama-2-13B's: -c 2048 judged, quiet", () => {
    assert.ok(identityCandidates('./models/llama-2-13b-chat.ggmlv3.q4_0.bin').includes('llama-2-13b-chat-hf'));
    const { a, l } = onlyLaunch('corpus/AlienKevin__llama2/run-13b.sh');
    assert.equal(l.unjudged, undefined, l.unjudged);
    assert.equal(l.resolvedFrom, 'catalog:meta-llama/Llama-2-13b-hf');
    assert.equal(l.trainedContext, 4096);
    assert.equal(l.requestedLength, 2048);
    assert.ok(
      l.notes.some((n) => /assumed, not read/.test(n)),
      'the identity is said as assumed',
    );
    assert.deepEqual(
      a.diagnostics.filter((d) => d.severity === 'error' || d.severity === 'warning'),
      [],
    );
  });

  it("llama.cpp's converter default name (…/Llama-2-7b-hf/ggml-model-f16.gguf) is named by its folder", () => {
    assert.equal(identityCandidates('/storage/llm/llama2/Llama-2-7b-hf/ggml-model-f16.gguf')[0], 'Llama-2-7b-hf');
    const { l } = onlyLaunch('corpus/paolo-gajo__llm-dit/llama2-7.sh');
    assert.equal(l.resolvedFrom, 'catalog:meta-llama/Llama-2-7b-hf');
    assert.equal(l.derivedMaxLen, 4096);
    // A private file name stays unknown: no folder or -hf repo makes it a model.
    assert.equal(
      identityCandidates('/models/my-private-finetune.gguf').some((c) => /llama|qwen/i.test(c)),
      false,
    );
  });

  it('a LocalAI compose service is said (launch/not-read, where its context lives), no longer read as "other"', () => {
    const a = analyze('corpus/mudler__LocalAI/docker-compose.yml');
    assert.equal(a.kind, 'launch');
    assert.deepEqual(
      a.diagnostics.map((d) => [d.code, d.severity]),
      [['launch/not-read', 'information']],
    );
    assert.match(a.diagnostics[0].detail ?? '', /context_size/);
    assert.equal(a.launches?.[0].unread, true);
  });

  it('ordinary compose files stay "other" and quiet (awesome-compose, kubernetes nginx)', () => {
    for (const rel of ['corpus/docker__awesome-compose/nginx-flask-mysql/compose.yaml', 'corpus/kubernetes__website/nginx-deployment.yaml']) {
      const a = analyze(rel);
      assert.equal(a.kind, 'other', rel);
      assert.deepEqual(a.diagnostics, [], rel);
    }
  });
});
