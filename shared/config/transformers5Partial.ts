/**
 * transformers 5.x model types whose default RoPE reads `partial_rotary_factor` (the rotary class's own
 * `compute_default_rope_parameters` takes `int(head_dim * partial_rotary_factor)`). Every other class's default RoPE
 * rotates the whole head whatever the file says (5.18 builds Llama's 64 pairs for a top-level factor 0.25, where 4.x
 * builds 16); every scaled type reads the factor, since modeling_rope_utils's functions do.
 *
 * Listed by transformers 5.18.0 itself (`transformers_oracle.py --partial-factor-classes`); the real-transformers
 * tier (test/integration/realTransformers.test.ts) checks this list against the installed release.
 */
export const PARTIAL_FACTOR_DEFAULT_ROPE_5: ReadonlySet<string> = new Set([
  'bamba',
  'deepseek_v4',
  'diffusion_gemma',
  'diffusion_gemma_text',
  'efficientloftr',
  'glm',
  'glm4',
  'glm4_moe',
  'glm4_moe_lite',
  'glm4v',
  'glm4v_moe',
  'glm4v_moe_text',
  'glm4v_moe_vision',
  'glm4v_text',
  'glm4v_vision',
  'glm_image',
  'glm_image_text',
  'glm_image_vision',
  'glm_image_vqmodel',
  'glm_ocr',
  'glm_ocr_text',
  'glm_ocr_vision',
  'glmasr',
  'glmasr_encoder',
  'gpt_neox',
  'gpt_neox_japanese',
  'laguna',
  'mellum',
  'mimo_v2_flash',
  'minimax_m2',
  'minimax_m3_vl',
  'minimax_m3_vl_text',
  'minimax_m3_vl_vision',
  'moonshine',
  'moonshine_streaming',
  'moonshine_streaming_encoder',
  'musicflamingo',
  'nemotron',
  'neomme',
  'persimmon',
  'phi',
  'phi3',
  'phi4_multimodal',
  'phi4_multimodal_audio',
  'phi4_multimodal_vision',
  'qwen3_5',
  'qwen3_5_moe',
  'qwen3_5_moe_text',
  'qwen3_5_moe_vision',
  'qwen3_5_text',
  'qwen3_5_vision',
  'qwen3_next',
  'qwen4_exp',
  'qwen4_exp_text',
  'qwen4_exp_vision',
  'recurrent_gemma',
  'solar_open',
  'stablelm',
  'step3p5',
  'step3p5_vision',
  'step3p7',
  'zaya',
]);

/**
 * Classes whose 5.18.0 config turns a file's top-level `rotary_dim` into `partial_rotary_factor` (rotary_dim / head_dim)
 * without having a rotary_dim attribute: configuration_minimax_m2.py ("Released MiniMax-M2 checkpoints express partial
 * RoPE through a legacy `rotary_dim` field"). 5.18.0 builds 32 frequencies for MiniMax-M2.5 (rotary_dim 64, head_dim 128).
 */
export const ROTARY_DIM_FROM_FILE_5: ReadonlySet<string> = new Set(['minimax_m2']);
