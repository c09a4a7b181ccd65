/**
 * Facts about transformers 5.17.0's config classes, compacted from building every one of its 718
 * config classes with no arguments (`CONFIG_MAPPING[model_type]()`, transformers 5.17.0, torch 2.11;
 * generated from that run's class-defaults table, not written by hand). Only what the RoPE readers
 * need: which model types 5.x has a class for, the base a class uses when a file names none, which
 * classes key `rope_parameters` by layer type, which read a top-level `rotary_dim`, and which
 * validate `layer_types` against `num_hidden_layers`.
 */

/** Every model type transformers 5.17 has a config class for (others load only with trust_remote_code). */
export const MODEL_TYPES_5: ReadonlySet<string> = new Set(
  (
    'EvollaModel afmoe aimv2 aimv2_text_model aimv2_vision_model albert align align_text_model align_vision_model ' +
    'altclip altclip_text_model altclip_vision_model apertus arcee aria aria_text audio-spectrogram-transformer ' +
    'audioflamingo3 audioflamingo3_encoder autoformer axk1 axk2 aya_vision bamba bark bart beit bert ' +
    'bert-generation big_bird bigbird_pegasus biogpt bit bitnet blenderbot blenderbot-small blip blip-2 ' +
    'blip_2_qformer blip_2_vision_model blip_text_model blip_vision_model bloom blt blt_global_transformer ' +
    'blt_local_decoder blt_local_encoder blt_patcher bridgetower bridgetower_text_model bridgetower_vision_model ' +
    'bros camembert canary canary_decoder canine chameleon chameleon_vqgan chinese_clip chinese_clip_text_model ' +
    'chinese_clip_vision_model chmv2 clap clap_audio_model clap_text_model clip clip_text_model clip_vision_model ' +
    'clipseg clipseg_text_model clipseg_vision_model clvp clvp_decoder clvp_encoder codegen cohere cohere2 ' +
    'cohere2_moe cohere2_vision cohere_asr cohere_compass cohere_compass_text cohere_compass_vision colmodernvbert ' +
    'colpali colqwen2 conditional_detr convbert convnext convnextv2 cosmos3_edge cosmos3_edge_text ' +
    'cosmos3_edge_vision cosmos3_omni cpmant csm csm_depth_decoder_model ctrl cvt cwm d_fine dab-detr dac ' +
    'data2vec-audio data2vec-text data2vec-vision dbrx deberta deberta-v2 decision_transformer deepseek_ocr2 ' +
    'deepseek_ocr2_encoder deepseek_ocr2_sam_vision_model deepseek_ocr2_text deepseek_ocr2_vision deepseek_v2 ' +
    'deepseek_v3 deepseek_v32 deepseek_v4 deepseek_vl deepseek_vl_hybrid deformable_detr deimv2 deit depth_anything ' +
    'depth_pro detr dia dia_decoder dia_encoder diffllama diffusion_gemma diffusion_gemma_text dinat dinov2 ' +
    'dinov2_with_registers dinov3_convnext dinov3_vit distilbert doge donut-swin dots1 dpr dpt edgetam ' +
    'edgetam_video edgetam_vision_model efficientloftr efficientnet electra emu3 emu3_text_model emu3_vqgan encodec ' +
    'encoder-decoder eomt eomt_dinov3 ernie ernie4_5 ernie4_5_moe ernie4_5_vl_moe ernie4_5_vl_moe_text ' +
    'ernie4_5_vl_moe_vision esm esmc esmfold2 eurobert evolla exaone4 exaone4_5 exaone4_5_vision exaone_moe falcon ' +
    'falcon_h1 falcon_mamba fast_vlm fastspeech2_conformer fastspeech2_conformer_hifigan ' +
    'fastspeech2_conformer_with_hifigan flaubert flava flava_image_model flava_multimodal_model flava_text_model ' +
    'flex_olmo florence2 florence_vision fnet focalnet fsmt fun_asr_nano fun_asr_nano_encoder funnel fuyu gemma ' +
    'gemma2 gemma3 gemma3_text gemma3n gemma3n_audio gemma3n_text gemma3n_vision gemma4 gemma4_assistant ' +
    'gemma4_audio gemma4_text gemma4_unified gemma4_unified_assistant gemma4_unified_audio gemma4_unified_text ' +
    'gemma4_unified_vision gemma4_vision git git_vision_model glm glm4 glm46v glm4_moe glm4_moe_lite glm4v ' +
    'glm4v_moe glm4v_moe_text glm4v_moe_vision glm4v_text glm4v_vision glm5_next glm5_next_text glm5_next_vision ' +
    'glm_image glm_image_text glm_image_vision glm_image_vqmodel glm_moe_dsa glm_ocr glm_ocr_text glm_ocr_vision ' +
    'glmasr glmasr_encoder glmga glpn got_ocr2 gpt-sw3 gpt2 gpt_bigcode gpt_neo gpt_neox gpt_neox_japanese gpt_oss ' +
    'gptj granite granite4_vision granite4_vision_text granite_speech granite_speech5_ctc granite_speech5_encoder ' +
    'granite_speech_encoder granite_speech_plus granite_speech_plus_encoder granite_swa granitemoe granitemoe_swa ' +
    'granitemoehybrid granitemoeshared grounding-dino groupvit groupvit_text_model groupvit_vision_model helium ' +
    'hgnet_v2 hiera higgs_audio_v2 higgs_audio_v2_tokenizer hrm_text hubert hunyuan_v1_dense hunyuan_v1_moe ' +
    'hunyuan_vl hunyuan_vl_text hunyuan_vl_vision hy_v3 hy_v4 hyperclovax ibert idefics idefics2 idefics2_perceiver ' +
    'idefics2_vision idefics3 idefics3_vision idefics_perciever idefics_vision ijepa imagegpt informer ' +
    'inkling_audio inkling_mm_model inkling_text inkling_vision instructblip instructblip_qformer ' +
    'instructblip_vision_model instructblipvideo instructblipvideo_qformer instructblipvideo_vision_model internvl ' +
    'internvl_vision jais2 jamba janus janus_vision_model janus_vqgan jetmoe jina_embeddings_v3 kimi_k25 ' +
    'kimi_k25_vision kimi_linear kosmos-2 kosmos-2.5 kosmos_2_5_text_model kosmos_2_5_vision_model ' +
    'kosmos_2_text_model kosmos_2_vision_model kyutai_speech_to_text laguna lasr_ctc lasr_encoder layoutlm ' +
    'layoutlmv2 layoutlmv3 layoutxlm led levit lfm2 lfm2_moe lfm2_vl lightglue lighton_ocr lilt llama llama4 ' +
    'llama4_text llama4_vision_model llava llava_next llava_next_video llava_onevision longcat_flash longformer ' +
    'longt5 luke lw_detr lw_detr_vit lxmert m2m_100 mamba mamba2 marian markuplm mask2former maskformer ' +
    'maskformer-swin mbart megatron-bert mellum metaclip_2 metaclip_2_text_model metaclip_2_vision_model mgp-str ' +
    'mimi mimo_v2_flash minicpm3 minicpmv4_6 minicpmv4_6_vision minimax minimax_m2 minimax_m3_vl minimax_m3_vl_text ' +
    'minimax_m3_vl_vision ministral ministral3 mistral mistral3 mistral4 mixtral mlcd mlcd_vision_model mllama ' +
    'mllama_text_model mllama_vision_model mm-grounding-dino mobilebert mobilenet_v1 mobilenet_v2 mobilevit ' +
    'mobilevitv2 modernbert modernbert-decoder modernvbert moonshine moonshine_streaming ' +
    'moonshine_streaming_encoder moshi moshi_depth mpnet mpt mra mt5 muse_glimmer muse_glimmer_assistant ' +
    'muse_glimmer_text muse_glimmer_vision musicflamingo musicgen musicgen_decoder musicgen_melody ' +
    'musicgen_melody_decoder mvp nanochat nemotron nemotron3_5_asr nemotron_asr_streaming ' +
    'nemotron_asr_streaming_encoder nemotron_h neomme neucodec nllb-moe nomic_bert nougat nystromformer olmo olmo2 ' +
    'olmo3 olmo_hybrid olmoe omdet-turbo oneformer openai-gpt openai_privacy_filter opt ovis2 owlv2 ' +
    'owlv2_text_model owlv2_vision_model owlvit owlvit_text_model owlvit_vision_model paddleocr_vl ' +
    'paddleocr_vl_text paddleocr_vl_vision paligemma parakeet_ctc parakeet_encoder parakeet_rnnt parakeet_tdt ' +
    'patchtsmixer patchtst pe_audio pe_audio_encoder pe_audio_video pe_audio_video_encoder pe_video ' +
    'pe_video_encoder pegasus pegasus_x perceiver perception_lm persimmon phi phi3 phi4_multimodal ' +
    'phi4_multimodal_audio phi4_multimodal_vision phimoe pi0 pix2struct pix2struct_text_model ' +
    'pix2struct_vision_model pixio pixtral plbart poolformer pop2piano pp_chart2table pp_doclayout_v2 ' +
    'pp_doclayout_v3 pp_formulanet pp_lcnet pp_lcnet_v3 pp_lcnet_v4 pp_ocrv5_mobile_det pp_ocrv5_mobile_rec ' +
    'pp_ocrv5_server_det pp_ocrv5_server_rec pp_ocrv6_medium_det pp_ocrv6_small_det pp_ocrv6_small_rec ' +
    'pp_ocrv6_tiny_rec prompt_depth_anything prophetnet pvt pvt_v2 qianfan_ocr qianfan_ocr_vision qwen2 ' +
    'qwen2_5_omni qwen2_5_omni_audio_encoder qwen2_5_omni_bigvgan qwen2_5_omni_dit qwen2_5_omni_talker ' +
    'qwen2_5_omni_text qwen2_5_omni_thinker qwen2_5_omni_token2wav qwen2_5_omni_vision_encoder qwen2_5_vl ' +
    'qwen2_5_vl_text qwen2_5_vl_vision qwen2_audio qwen2_audio_encoder qwen2_moe qwen2_vl qwen2_vl_text ' +
    'qwen2_vl_vision qwen3 qwen3_5 qwen3_5_moe qwen3_5_moe_text qwen3_5_moe_vision qwen3_5_text qwen3_5_vision ' +
    'qwen3_asr qwen3_asr_encoder qwen3_moe qwen3_next qwen3_omni_moe qwen3_omni_moe_audio_encoder ' +
    'qwen3_omni_moe_talker_code_predictor qwen3_omni_moe_talker_text qwen3_omni_moe_text qwen3_omni_moe_thinker ' +
    'qwen3_omni_moe_vision_encoder qwen3_vl qwen3_vl_moe qwen3_vl_moe_text qwen3_vl_moe_vision qwen3_vl_text ' +
    'qwen3_vl_vision qwen4_exp qwen4_exp_text qwen4_exp_vision radio rag recurrent_gemma reformer regnet rembert ' +
    'resnet rf_detr rf_detr_dinov2 roberta roberta-prelayernorm roc_bert roformer rt_detr rt_detr_resnet rt_detr_v2 ' +
    'rwkv sam sam2 sam2_hiera_det_model sam2_video sam2_vision_model sam3 sam3_detr_decoder sam3_detr_encoder ' +
    'sam3_geometry_encoder sam3_lite_text sam3_lite_text_detr_decoder sam3_lite_text_detr_encoder ' +
    'sam3_lite_text_geometry_encoder sam3_lite_text_mask_decoder sam3_lite_text_text_model sam3_mask_decoder ' +
    'sam3_tracker sam3_tracker_video sam3_video sam3_vision_model sam3_vit_model sam_hq sam_hq_vision_model ' +
    'sam_vision_model sapiens2 sapiens2_head seamless_m4t seamless_m4t_v2 seed_oss segformer seggpt sew sew-d ' +
    'shieldgemma2 siglip siglip2 siglip2_text_model siglip2_vision_model siglip_text_model siglip_vision_model ' +
    'slanet slanext smollm3 smolvlm smolvlm_vision solar_open speech-encoder-decoder speech_to_text speecht5 ' +
    'speecht5_hifigan splinter squeezebert stablelm starcoder2 step3p5 step3p5_vision step3p7 superglue superpoint ' +
    'swiftformer swin swin2sr swinv2 switch_transformers t5 t5_gemma_module t5gemma t5gemma2 t5gemma2_decoder ' +
    't5gemma2_encoder t5gemma2_text table-transformer tapas textnet time_series_transformer timesfm timesfm2_5 ' +
    'timesformer timm_backbone timm_wrapper tipsv2 tipsv2_dpt tipsv2_text_model tipsv2_vision_model trocr tvp udop ' +
    'umt5 unispeech unispeech-sat univnet upernet uvdoc uvdoc_backbone vaultgemma vibevoice ' +
    'vibevoice_acoustic_tokenizer vibevoice_acoustic_tokenizer_decoder vibevoice_acoustic_tokenizer_encoder ' +
    'vibevoice_asr video_llama_3 video_llama_3_vision video_llava videomae videomt videoprism videoprism_text_model ' +
    'videoprism_vision_model vilt vipllava vision-encoder-decoder vision-text-dual-encoder visual_bert vit vit_mae ' +
    'vit_msn vitdet vitmatte vitpose vitpose_backbone vits vivit vjepa2 voxtral voxtral_encoder voxtral_realtime ' +
    'voxtral_realtime_encoder voxtral_realtime_text wav2vec2 wav2vec2-bert wav2vec2-conformer wavlm whisper xclip ' +
    'xclip_text_model xclip_vision_model xcodec xcodec2 xglm xlm xlm-roberta xlm-roberta-xl xlnet xlstm xmod yolos ' +
    'yoso youtu zamba zamba2 zaya zoedepth'
  ).split(' '),
);

export function knownTo5x(modelType: string | undefined): boolean {
  return MODEL_TYPES_5.has(modelType ?? '');
}

/**
 * The base a 5.17 config class uses when the file names none (its default `rope_parameters`'
 * rope_theta, else its `default_theta`; the full-attention value for classes keyed by layer type).
 * Only classes whose base is not 10,000.
 */
export const DEFAULT_THETA_5: Readonly<Record<string, number>> = {
  EvollaModel: 500000,
  apertus: 12000000,
  bitnet: 500000,
  blt: 500000,
  blt_global_transformer: 500000,
  blt_local_decoder: 500000,
  blt_local_encoder: 500000,
  cohere: 500000,
  cosmos3_edge_text: 100000000,
  csm: 500000,
  csm_depth_decoder_model: 500000,
  cwm: 1000000,
  diffusion_gemma_text: 1000000,
  dinov3_vit: 100,
  emu3_text_model: 1000000,
  eomt_dinov3: 100,
  ernie4_5: 500000,
  ernie4_5_moe: 500000,
  ernie4_5_vl_moe_text: 500000,
  evolla: 500000,
  flex_olmo: 500000,
  fuyu: 25000,
  gemma3_text: 1000000,
  gemma3n_text: 1000000,
  gemma4_text: 1000000,
  gemma4_unified_text: 1000000,
  gemma4_vision: 100,
  gpt_oss: 150000,
  helium: 100000,
  higgs_audio_v2: 500000,
  hy_v3: 11158840,
  jina_embeddings_v3: 20000,
  laguna: 500000,
  lfm2: 1000000,
  lfm2_moe: 1000000,
  llama4_text: 500000,
  longcat_flash: 10000000,
  mellum: 500000,
  mimo_v2_flash: 5000000,
  minimax: 1000000,
  minimax_m2: 5000000,
  minimax_m3_vl_text: 5000000,
  ministral3: 1000000,
  mixtral: 1000000,
  mllama_text_model: 500000,
  modernbert: 160000,
  'modernbert-decoder': 160000,
  muse_glimmer_assistant: 500000,
  musicflamingo: 1200,
  neomme: 1000000,
  nomic_bert: 1000,
  olmo3: 500000,
  openai_privacy_filter: 150000,
  paddleocr_vl_text: 500000,
  pe_audio_encoder: 20000,
  pe_audio_video_encoder: 20000,
  pe_video_encoder: 20000,
  phimoe: 1000000,
  qwen2_5_omni_talker: 1000000,
  qwen2_5_omni_text: 1000000,
  qwen2_5_vl_text: 1000000,
  qwen2_vl_text: 1000000,
  qwen3_omni_moe_text: 1000000,
  qwen3_vl_moe_text: 500000,
  qwen3_vl_text: 500000,
  sapiens2: 100,
  smollm3: 2000000,
  solar_open: 1000000,
  t5gemma2_decoder: 1000000,
  t5gemma2_text: 1000000,
};

/**
 * Classes whose default `rope_parameters` are keyed by layer type (`full_attention`,
 * `sliding_attention`, …): their rotary module builds one table per layer type, and a legacy flat
 * `rope_scaling` reaches the full-attention layers only (Olmo3RotaryEmbedding, Gemma3RotaryEmbedding).
 */
export const PER_LAYER_TYPE_5: ReadonlySet<string> = new Set([
  'deepseek_v4',
  'diffusion_gemma_text',
  'gemma3_text',
  'gemma3n_text',
  'gemma4_text',
  'gemma4_unified_text',
  'laguna',
  'mellum',
  'mimo_v2_flash',
  'modernbert',
  'modernbert-decoder',
  'neomme',
  'olmo3',
  'step3p5',
  't5gemma2_decoder',
  't5gemma2_text',
  'zaya',
]);

/** Classes that have a `rotary_dim` attribute; every other 5.x class ignores a top-level `rotary_dim`. */
export const ROTARY_DIM_CLASSES_5: ReadonlySet<string> = new Set(['codegen', 'gptj', 'minimax_m3_vl_text']);

/** Classes with a per-layer `layer_types` list of attention kinds (validated against num_hidden_layers when built). */
export const LAYER_TYPES_CLASSES_5: ReadonlySet<string> = new Set(
  (
    'afmoe axk2 bamba cohere2 cohere2_moe cohere_compass_text cwm deepseek_ocr2_encoder deepseek_v32 deepseek_v4 ' +
    'dots1 exaone4 exaone_moe falcon_mamba gemma2 gemma3_text gemma3n_text glm5_next_text glm_moe_dsa gpt_oss ' +
    'granite_swa granitemoe_swa granitemoehybrid hy_v4 jamba kimi_linear laguna lfm2 llama4_text mamba mamba2 ' +
    'mellum mimo_v2_flash minimax minimax_m3_vl_text ministral modernbert modernbert-decoder muse_glimmer_assistant ' +
    'muse_glimmer_text muse_glimmer_vision nemotron_h olmo3 olmo_hybrid qwen2 qwen2_5_omni_talker qwen2_5_omni_text ' +
    'qwen2_5_vl_text qwen2_moe qwen2_vl_text qwen3 qwen3_5_moe_text qwen3_5_text qwen3_next ' +
    'qwen3_omni_moe_talker_code_predictor qwen4_exp_text smollm3 step3p5 t5_gemma_module t5gemma2_decoder ' +
    't5gemma2_text vaultgemma zamba zamba2'
  ).split(' '),
);

/**
 * The default `rope_parameters` of the 5.17 config classes that use them whatever the file says when it has
 * none (their `convert_rope_params_to_dict` takes no legacy `rope_theta` / `rope_scaling`): the Gemma-4 line.
 * Keyed by layer type, as the class keys its rotary tables.
 */
export const DEFAULT_LAYER_TYPE_ROPE_5: Readonly<Record<string, Readonly<Record<string, Readonly<Record<string, string | number>>>>>> = {
  diffusion_gemma_text: {
    sliding_attention: { rope_type: 'default', rope_theta: 10000 },
    full_attention: { rope_type: 'proportional', partial_rotary_factor: 0.25, rope_theta: 1000000 },
  },
  gemma4_text: {
    sliding_attention: { rope_type: 'default', rope_theta: 10000 },
    full_attention: { rope_type: 'proportional', partial_rotary_factor: 0.25, rope_theta: 1000000 },
  },
  gemma4_unified_text: {
    sliding_attention: { rope_type: 'default', rope_theta: 10000 },
    full_attention: { rope_type: 'proportional', partial_rotary_factor: 0.25, rope_theta: 1000000 },
  },
};
