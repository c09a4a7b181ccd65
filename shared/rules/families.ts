/** Model families the rewrites care about. */

/** Llama-architecture checkpoints, where llama3 band scaling is a native option. */
export function isLlamaFamily(modelType: string | undefined): boolean {
  return modelType === 'llama' || modelType === 'llama4' || modelType === 'llama4_text' || modelType === 'mllama';
}
