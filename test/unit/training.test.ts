import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseDocumentText } from '../../shared/document/parse';
import { valueRange } from '../../shared/document/configNode';
import { readTrainingConfig } from '../../shared/config/training';
import { torchtuneBuilderHubId } from '../../shared/config/trainers/torchtune';

const dir = join(__dirname, '../fixtures/training');
const read = (name: string) => {
  const text = readFileSync(join(dir, name), 'utf8');
  const doc = parseDocumentText(text, 'yaml');
  return { doc, t: readTrainingConfig(doc) };
};

describe('training configs', () => {
  it('axolotl: base_model, sequence_len with its position', () => {
    const { doc, t } = read('axolotl-llama2-16k-no-scaling.yaml');
    assert.equal(t?.tool, 'axolotl');
    assert.equal(t!.baseModel!.value, 'NousResearch/Llama-2-7b-hf');
    assert.equal(t!.sequenceLength!.value, 16384);
    // `sequence_len: 16384  # 4x…` is line 12 (0-based 11), value at column 14.
    assert.deepEqual(valueRange(doc, t!.sequenceLength!.node!), { start: { line: 11, character: 14 }, end: { line: 11, character: 19 } });
    assert.deepEqual(t!.baseKeyPath, ['overrides_of_model_config', 'rope_theta']);
  });

  it('axolotl: overrides_of_model_config rope_theta written 500_000 in a CRLF file', () => {
    const { t } = read('axolotl-llama3-theta-override.crlf.yaml');
    assert.equal(t!.overrides.base!.value, 500000);
    assert.equal(t!.overrides.base!.key, 'overrides_of_model_config.rope_theta');
    assert.equal(t!.sequenceLength!.value, 32768);
  });

  it('axolotl: the deprecated top-level rope_scaling (flow map with trailing comma)', () => {
    const { t } = read('axolotl-deprecated-rope-scaling.yaml');
    assert.equal(t!.deprecatedScaling?.kind, 'object');
    assert.equal(t!.overrides.scaling, undefined);
  });

  it('LLaMA-Factory: rope_scaling by name, and as a dict', () => {
    const byName = read('llamafactory-dynamic.yaml').t!;
    assert.equal(byName.tool, 'llama-factory');
    assert.equal(byName.scalingByName!.value, 'dynamic');
    assert.equal(byName.sequenceLength!.value, 65536);
    assert.equal(byName.trains, true);
    const dict = read('llamafactory-qwen2_5-yarn-dict.yaml').t!;
    assert.equal(dict.overrides.scaling!.type, 'yarn');
    assert.equal(dict.overrides.scaling!.params['original_max_position_embeddings'].value, 32768);
    assert.equal(dict.sequenceLength!.value, 131072);
  });

  it('torchtune: builder → hub id, checkpoint dir, tokenizer max_seq_len', () => {
    const { t } = read('torchtune-qwen2_5-7B-lora.yaml');
    assert.equal(t!.tool, 'torchtune');
    assert.equal(t!.sequenceLength!.value, 65536);
    assert.deepEqual(t!.baseModelCandidates, ['/tmp/Qwen2.5-7B-Instruct', 'Qwen/Qwen2.5-7B-Instruct']);
    assert.equal(torchtuneBuilderHubId('torchtune.models.llama3_1.lora_llama3_1_8b'), 'meta-llama/Llama-3.1-8B');
    assert.equal(torchtuneBuilderHubId('torchtune.models.llama2.llama2_7b'), 'meta-llama/Llama-2-7b-hf');
  });

  it('LitGPT: checkpoint_dir and train.max_seq_length', () => {
    const { t } = read('litgpt-llama-3.1-8b-lora.yaml');
    assert.equal(t!.tool, 'litgpt');
    assert.equal(t!.sequenceLength!.value, 512);
    assert.deepEqual(t!.baseModelCandidates, ['meta-llama/Meta-Llama-3.1-8B']);
  });

  it('GPT-NeoX: the model defined in a JSON-like flow map with comments (rotary_pct 0.25 of 128)', () => {
    const { t } = read('gptneox-pythia-1-4B.yml');
    assert.equal(t!.tool, 'gpt-neox');
    const m = t!.ownModel!;
    assert.equal(m.headDim.value, 128); // 2048 / 16
    assert.equal(m.rotaryDim.value, 32); // 128 × 0.25
    assert.equal(m.base.value, 10000); // rotary_emb_base absent
    assert.equal(m.contextLength.value, 2048);
  });

  it('GPT-NeoX: dashed keys (seq-length, max-position-embeddings)', () => {
    const { t } = read('gptneox-long-seq.yml');
    assert.equal(t!.sequenceLength!.value, 8192);
    assert.equal(t!.ownModel!.contextLength.value, 4096);
  });

  it('nanotron, MaxText and OLMo trainer configs', () => {
    const nano = readTrainingConfig(
      parseDocumentText(
        'general:\n  project: x\nmodel:\n  model_config:\n    hidden_size: 2048\n    num_attention_heads: 32\n    max_position_embeddings: 4096\n    rope_theta: 500000.0\ntokens:\n  sequence_length: 4096\n',
        'yaml',
      ),
    )!;
    assert.equal(nano.tool, 'nanotron');
    assert.equal(nano.ownModel!.rotaryDim.value, 64);
    assert.equal(nano.ownModel!.base.value, 500000);
    const maxtext = readTrainingConfig(
      parseDocumentText('base_emb_dim: 4096\nbase_num_query_heads: 32\nhead_dim: 128\nrope_max_timescale: 500_000\nmax_target_length: 8192\n', 'yaml'),
    )!;
    assert.equal(maxtext.tool, 'maxtext');
    assert.equal(maxtext.ownModel!.base.value, 500000);
    assert.equal(maxtext.sequenceLength!.value, 8192);
    const olmo = readTrainingConfig(
      parseDocumentText('run_name: x\nmodel:\n  d_model: 4096\n  n_heads: 32\n  rope: true\n  rope_theta: 500000\n  max_sequence_length: 4096\n', 'yaml'),
    )!;
    assert.equal(olmo.tool, 'olmo');
    assert.equal(olmo.ownModel!.headDim.value, 128);
  });

  it('LLaMA-Factory keys nested under train:, LitGPT pretrain `model:` block', () => {
    const lf = readTrainingConfig(
      parseDocumentText(
        'train:\n  stage: sft\n  model_name_or_path: Qwen/Qwen2.5-7B\n  rope_scaling:\n    rope_type: yarn\n    factor: 8.0\n    original_max_position_embeddings: 4096\n  cutoff_len: 8192\n',
        'yaml',
      ),
    )!;
    assert.equal(lf.tool, 'llama-factory');
    assert.equal(lf.sequenceLength!.value, 8192);
    assert.deepEqual(lf.scalingKeyPath, ['train', 'rope_scaling']);
    assert.equal(lf.overrides.scaling!.type, 'yarn');
    const lit = readTrainingConfig(
      parseDocumentText(
        'model:\n  name: tiny-llama-1.1b\n  block_size: 4096\n  n_head: 32\n  head_size: 128\n  n_embd: 4096\n  rotary_percentage: 0.25\n  rope_base: 10000\nout_dir: out/pretrain\ntrain:\n  max_seq_length:\n',
        'yaml',
      ),
    )!;
    assert.equal(lit.tool, 'litgpt');
    assert.equal(lit.sequenceLength!.value, 4096); // max_seq_length null → block_size
    assert.equal(lit.ownModel!.rotaryDim.value, 32); // 128 × 0.25
  });

  it('is not fooled by CI YAML or model configs', () => {
    assert.equal(read('.github/workflows/ci.yml').t, undefined);
    const json = parseDocumentText('{"model_type": "gpt_neox", "num_layers": 2, "num_attention_heads": 2, "seq_length": 2, "rotary_pct": 0.25}', 'json');
    assert.equal(readTrainingConfig(json), undefined);
  });
});
