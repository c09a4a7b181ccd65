import { strict as assert } from 'node:assert';
import { checkInvariants } from '../fuzz/harness';
import { serviceProperties } from '../fuzz/properties';

describe('robustness: property tests over mutated real configs (fast run)', () => {
  // A fixed seed keeps npm test deterministic; `npm run fuzz` explores random seeds (FUZZ_SEED to replay).
  serviceProperties(300, Number(process.env.FUZZ_SEED ?? 20261124));
});

describe('robustness: counterexamples found by npm run fuzz', () => {
  it('a model config turned training config with an unknown base model: no NaN in longrope checks', () => {
    const text = JSON.stringify({
      architectures: ['Phi3ForCausalLM'], model_type: 'phi3', hidden_size: 3072, num_attention_heads: 32,
      max_position_embeddings: 131072, original_max_position_embeddings: 4096, rope_theta: 10000,
      rope_scaling: { type: 'su', short_factor: Array(48).fill(1.05), long_factor: Array(48).fill(2) },
      model_name_or_path: 'longrope',
    }, null, 2);
    checkInvariants(text, 'config.json');
  });

  it('vLLM serving YAML: a model written "NaN" and an unreadable rope_type are described, not echoed', () => {
    checkInvariants('model: "NaN"\nmax-model-len: 131072\nhf-overrides:\n  rope_scaling\\~?: &a \n    rope_type: yarn\n    factor: 4.0\n\nzz: *a', 'train.yaml');
    checkInvariants('model: Qwen/Qwen2.5-7B-Instruct\nmax-model-len: 131072\nhf-overrides:\n  rope_scaling:\n    rope_type: ya_max_position_embeddings: 32768\n', 'train.yaml');
  });

  it('LLaMA-Factory rope_scaling outside its enum is refused with a message, not echoed', () => {
    const a = checkInvariants('model_name_or_path: Qwen/Qwen2.5-7B-Instruct\nrope_scaling: "NaN"\nstage: sft\ncutoff_len: 65536\n', 'train.yaml');
    assert.ok(a.diagnostics.some((d) => d.code === 'rope/unknown-type' && d.severity === 'error'));
  });
});
