/**
 * Recall, second pass: launches that were read but neither judged nor said. A model the catalog knows
 * to have no RoPE is said as `serve` says it (not "not found offline"); a training launch that names no
 * model says where its model is (or that there is none); torchtune's built-in config names are read as
 * the model each one downloads. Fixtures: test/fixtures/launch/recall/README.md and RECALL.md.
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ShellParser } from '../../shared/launch/types';
import { createRopeLensService, type RopeLensService } from '../../shared/service/service';
import { createSyncOracle } from '../../shared/service/syncOracle';
import { noRopeModelOf, noRopeSentence } from '../../shared/config/noRopeModel';
import { recordingResolver, catalogResolver } from '../../shared/config/resolve';
import { torchtuneBuilderHubId, torchtuneConfigHubId } from '../../shared/config/trainers/torchtune';
import { findCatalogEntry } from '../../shared/config/catalog';
import { parseYamlDocument } from '../../shared/document/parseYaml';
import { readTrainingConfig } from '../../shared/config/training';
import { launchService } from './helpers/launch';

const FIXTURES = join(__dirname, '..', 'fixtures');
const LAUNCH = join(FIXTURES, 'launch');

describe('recall, second pass: no RoPE and no model are said, torchtune built-in configs are read', function () {
  this.timeout(60_000);
  let shell: ShellParser;
  let service: RopeLensService;
  before(async () => {
    ({ service, shell } = await launchService());
  });
  const analyze = (rel: string, text = readFileSync(join(LAUNCH, rel), 'utf8')) => service.analyze(text, { fileName: join(LAUNCH, rel) });

  describe('a model without RoPE is said as `serve` says it, not "not found offline"', () => {
    it('the bge-reranker-v2-m3 folder in a compose file is read as the catalog reranker: no RoPE to judge', () => {
      const a = analyze('readers/constructed/merge-key.compose.yaml');
      const l = a.launches!.find((x) => x.model === '/models/AI-ModelScope/bge-reranker-v2-m3')!;
      assert.ok(l, JSON.stringify(a.launches?.map((x) => x.model)));
      const hit = noRopeModelOf(['BAAI/bge-reranker-v2-m3'])!;
      assert.ok(hit, 'BAAI/bge-reranker-v2-m3 is a catalog model without RoPE');
      assert.ok(
        l.unjudged?.includes(noRopeSentence("'/models/AI-ModelScope/bge-reranker-v2-m3' (read as BAAI/bge-reranker-v2-m3, built-in catalog)", hit.why)),
        l.unjudged,
      );
      assert.doesNotMatch(l.unjudged!, /not found offline/);
      assert.equal(l.notFoundOffline, undefined);
      // The chat service beside it is judged as before.
      assert.deepEqual(
        a.diagnostics.map((d) => d.code),
        ['vllm/max-model-len-exceeds'],
      );
    });

    it("tt-xla's `vllm serve BAAI/bge-m3` (real) is said, quiet, and no Hub lookup is asked for", () => {
      const rel = 'recall/tenstorrent__tt-xla__BGE-M3-service.sh';
      const resolver = recordingResolver(catalogResolver);
      const own = createRopeLensService({ oracle: createSyncOracle(), shellParser: () => shell, resolver });
      const a = own.analyze(readFileSync(join(LAUNCH, rel), 'utf8'), { fileName: join(LAUNCH, rel) });
      assert.equal(a.launches?.length, 1);
      const l = a.launches![0];
      assert.equal(l.resolvedFrom, null);
      assert.match(l.unjudged ?? '', /^BAAI\/bge-m3 has no rotary position embedding \(.*absolute.*\): there is no RoPE to judge\.$/);
      assert.deepEqual(a.diagnostics, []);
      assert.deepEqual([...resolver.misses], [], 'a no-RoPE catalog model is no Hub miss');
    });

    it("the catalog's no-RoPE family ids (Nemotron-H, Nemotron-3, Kimi-K3) are said the same way", () => {
      const a = analyze('x.sh', 'vllm serve nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16 --max-model-len 131072\nvllm serve moonshotai/Kimi-K3\n');
      assert.equal(a.launches?.length, 2);
      for (const l of a.launches!) {
        assert.match(l.unjudged ?? '', /^\S+ has no rotary position embedding \(.+\): there is no RoPE to judge\.$/, l.unjudged);
        assert.equal(l.notFoundOffline, undefined);
      }
    });

    it('a model the catalog does not know is still "not found offline", marked so for the --hub summary', () => {
      const a = analyze('x.sh', 'vllm serve acme/never-published-7b --max-model-len 8192\n');
      assert.match(a.launches![0].unjudged ?? '', /was not found offline/);
      assert.equal(a.launches![0].notFoundOffline, true);
    });

    it('a training launch on a no-RoPE base says so too', () => {
      const a = analyze('x.sh', 'swift sft --model BAAI/bge-m3 --max_length 4096\n');
      assert.match(a.launches![0].unjudged ?? '', /^Base model "BAAI\/bge-m3" has no rotary position embedding/);
      assert.equal(a.launches![0].notFoundOffline, undefined);
    });
  });

  describe('a training launch that names no model says where its model is, or that there is none', () => {
    it('axolotl with its YAML (real): the model comes from train.yaml, judged when opened', () => {
      const l = analyze('corpus/axolotl-ai-cloud__axolotl/run.sh').launches!.find((x) => x.program === 'axolotl')!;
      assert.match(l.unjudged ?? '', /its model comes from train\.yaml, not from this line/);
    });

    it('torchtune with a config file (real): named in the reason', () => {
      const l = analyze('corpus/hmosousa__tradutor/llama3_fft.sh').launches![0];
      assert.equal(l.program, 'torchtune');
      assert.match(l.unjudged ?? '', /its model comes from configs\/fft\/llama3\.yaml/);
    });

    it('a generic training script with no model option: said, naming the script', () => {
      const l = analyze('x.sh', 'accelerate launch train.py --max_seq_length 8192 --learning_rate 2e-5\n').launches![0];
      assert.equal(l.model, null);
      assert.match(l.unjudged ?? '', /^train\.py is read as a training launch, but it names no model/);
    });

    it('a torchtune built-in config whose name is not mapped is said as such', () => {
      const l = analyze('x.sh', 'tune run lora_finetune_single_device --config gemma2/9B_lora_single_device\n').launches![0];
      assert.match(l.unjudged ?? '', /built-in config gemma2\/9B_lora_single_device, whose model RoPE Lens does not know by name/);
    });

    it('a Megatron launch that defines its own architecture stays judged (no reason added)', () => {
      const l = analyze('recall/constructed/megatron-llama3.1-use-rope-scaling.sh').launches![0];
      assert.equal(l.unjudged, undefined, l.unjudged);
    });
  });

  describe("torchtune's built-in config names", () => {
    it('`tune run … --config llama3_1/8B_lora_single_device` (real) is judged as Llama-3.1-8B-Instruct, quiet', () => {
      const a = analyze('corpus/pytorch__torchtune/train_8b_lora_single.sh');
      const l = a.launches![0];
      assert.equal(l.unjudged, undefined, l.unjudged);
      assert.equal(l.resolvedFrom, `catalog:${findCatalogEntry('meta-llama/Llama-3.1-8B-Instruct')!.id}`);
      assert.ok(
        l.notes.some((n) => /built-in config for meta-llama\/Llama-3\.1-8B-Instruct/.test(n)),
        l.notes.join(' | '),
      );
      assert.deepEqual(a.diagnostics, []);
    });

    it('the name names the same catalog model as the built-in config itself (its builder, read from the real YAML)', () => {
      for (const [file, name] of [
        ['torchtune-llama3_1-8B_lora_single_device.yaml', 'llama3_1/8B_lora_single_device'],
        ['torchtune-qwen2_5-7B_lora_single_device.yaml', 'qwen2_5/7B_lora_single_device'],
      ]) {
        const t = readTrainingConfig(parseYamlDocument(readFileSync(join(FIXTURES, 'corpus/training', file), 'utf8')))!;
        const fromBuilder = t.baseModelCandidates.find((c) => findCatalogEntry(c));
        assert.ok(fromBuilder, `${file}: ${t.baseModelCandidates.join(', ')}`);
        assert.equal(findCatalogEntry(torchtuneConfigHubId(name)!)?.id, findCatalogEntry(fromBuilder)?.id, name);
      }
      assert.equal(torchtuneBuilderHubId('torchtune.models.llama3_2.lora_llama3_2_3b'), 'meta-llama/Llama-3.2-3B');
    });

    it('sizes, the older 0_5B spelling, and what is not a built-in name', () => {
      assert.equal(torchtuneConfigHubId('qwen2_5/0.5B_full'), 'Qwen/Qwen2.5-0.5B-Instruct');
      assert.equal(torchtuneConfigHubId('qwen2_5/0_5B_lora_single_device'), 'Qwen/Qwen2.5-0.5B-Instruct');
      assert.equal(torchtuneConfigHubId('llama3_2/3B_lora_single_device'), 'meta-llama/Llama-3.2-3B-Instruct');
      assert.equal(torchtuneConfigHubId('llama3_1/405B_qlora'), 'meta-llama/Llama-3.1-405B-Instruct');
      assert.equal(torchtuneConfigHubId('llama3_2/8B_to_1B_KD_lora_single_device'), undefined, 'two models');
      assert.equal(torchtuneConfigHubId('llama3_2/9B_full'), undefined, 'no such size');
      assert.equal(torchtuneConfigHubId('configs/llama3_1/8B_lora.yaml'), undefined, 'a file');
      for (const name of ['qwen2_5/7B_full', 'llama3_2/1B_full', 'llama3_1/70B_lora']) assert.ok(findCatalogEntry(torchtuneConfigHubId(name)!), name);
    });

    it('a checkpoint_dir override keeps the model the built-in builder fixes; a length override is judged against it', () => {
      const a = analyze(
        'x.sh',
        'tune run full_finetune_single_device --config llama3_2/1B_full_single_device checkpointer.checkpoint_dir=/data/ckpt tokenizer.max_seq_len=8192\n',
      );
      const l = a.launches![0];
      assert.equal(l.unjudged, undefined, l.unjudged);
      assert.match(l.resolvedFrom ?? '', /^catalog:meta-llama\/Llama-3\.2-1B/);
      assert.equal(l.requestedLength, 8192);
    });
  });
});
