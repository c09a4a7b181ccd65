#!/bin/bash
vllm serve openai/gpt-oss-20b \
  --max-model-len 131072 \
  --hf-overrides '{"rope-scaling": {"rope_type": "yarn", "factor": 32.0, "original_max_position_embeddings": 4096}}'
