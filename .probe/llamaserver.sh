#!/bin/sh
llama-server -m Meta-Llama-3-8B-Instruct-Q4_K_M.gguf -c 32768 --rope-freq-base 2000000
