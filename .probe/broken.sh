#!/bin/bash
vllm serve Qwen/Qwen2.5-7B-Instruct \
  --tensor-parallel-size 2 \ # two GPUs
  --max-model-len 32768
