/**
 * Ollama: it serves GGUF files and has no RoPE scaling options; `num_ctx` (Modelfile
 * `PARAMETER num_ctx`, API `options.num_ctx`, or `OLLAMA_CONTEXT_LENGTH` for the server's default)
 * only sizes the context.
 *
 * Rule read from ollama/ollama `llm/server.go`: a num_ctx above the GGUF's `<arch>.context_length`
 * is clamped to it ("requested context size too large for model", num_ctx, n_ctx_train). Scaling is
 * whatever rope.scaling.* the GGUF carries from conversion (see llamacpp.ts).
 */
import type { ServingInput, ServingPlan } from './types';
import { grouped, scalingFacts, targetContext } from './common';
import { llamaCppReading, llamaCppTrainContext } from './llamacpp';
import type { ConsumerInput, ConsumerReading } from './consumer';

export const OLLAMA_CONTEXT_ENV = 'OLLAMA_CONTEXT_LENGTH';

/**
 * How Ollama reads a config (the consumer table): it runs the GGUF that llama.cpp's conversion
 * writes, so base and scaling are llama.cpp's; num_ctx above the GGUF context_length is clamped
 * (`llm/server.go`).
 */
export function ollamaReading(input: ConsumerInput): ConsumerReading {
  const cpp = llamaCppReading(input);
  return { ...cpp, consumer: 'ollama', label: 'Ollama (GGUF from llama.cpp)', pkg: 'ollama', source: 'llm/server.go (num_ctx clamp); GGUF from convert_hf_to_gguf.py' };
}

export function ollamaPlan(input: ServingInput): ServingPlan {
  const facts = scalingFacts(input.rope);
  const context = targetContext(input, facts);
  const derivedMaxLen = llamaCppTrainContext(input);
  const served = Math.min(context, derivedMaxLen);
  const notes: string[] = [`Per model instead of server-wide: a Modelfile line \`PARAMETER num_ctx ${served}\`, or options.num_ctx in the API request.`];
  switch (facts.type) {
    case 'yarn':
    case 'linear':
      notes.push(`Ollama has no RoPE scaling option: the ${facts.type} scaling applies only if the GGUF carries rope.scaling.type ${facts.type} from conversion (convert this config, with its rope_scaling, to GGUF).`);
      break;
    case 'dynamic':
      notes.push('Ollama has no dynamic NTK scaling and GGUF conversion drops it: the model runs unscaled.');
      break;
    case 'llama3':
    case 'longrope':
      notes.push(`${facts.type} scaling comes from tensors the GGUF conversion writes; Ollama has nothing to set.`);
      break;
    case 'none':
      if (context > input.trainedContext) notes.push(`The config has no RoPE scaling and ${grouped(context)} is beyond its trained context of ${grouped(input.trainedContext)}: Ollama gives no scaling at all, so convert from a config with rope_scaling yarn {factor ${context / input.trainedContext}, original ${input.trainedContext}} or serve with llama.cpp's flags.`);
      break;
    default:
      notes.push(`RoPE type '${facts.rawType}' is not one GGUF conversion writes.`);
  }
  if (context > derivedMaxLen) {
    notes.push(`Ollama clamps num_ctx to the GGUF's context_length (${grouped(derivedMaxLen)}) with "requested context size too large for model": ${grouped(context)} needs a GGUF converted from a config whose max_position_embeddings is ${context}. The command asks for ${grouped(served)}.`);
  }
  return { engine: 'ollama', derivedMaxLen, context, args: ['ollama', 'serve'], env: { [OLLAMA_CONTEXT_ENV]: String(served) }, overrides: null, notes };
}
