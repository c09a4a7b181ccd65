#!/usr/bin/env bash
# Two ways to serve Qwen2.5-7B-Instruct (trained at 32,768 tokens) at 128k.
set -euo pipefail

MODEL=${MODEL:-Qwen/Qwen2.5-7B-Instruct}
CTX=$(( 128 * 1024 ))

# vLLM with Qwen's documented YaRN override: read, and right.
vllm serve "$MODEL" \
    --max-model-len "$CTX" \
    --hf-overrides '{"rope_scaling": {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 32768}}'

# llama.cpp with --rope-scale alone: linear interpolation, not the YaRN Qwen documents.
llama-server -m models/qwen2.5-7b-instruct-q4_k_m.gguf -c "$CTX" --rope-scale 4 --port 8081
