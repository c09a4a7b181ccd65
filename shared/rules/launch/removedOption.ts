/**
 * vllm/removed-option (error): `rope-scaling` / `rope-theta` in a vLLM request (command or --config YAML). vLLM removed both
 * options (PR #28006, v0.11.1); a config file carrying them fails with "unrecognized arguments".
 * Fix: the same values under `hf-overrides` (`rope_scaling` in the modern spelling, `rope_theta`).
 */
export const REMOVED_OPTION = 'vllm/removed-option';

/** One message for the YAML key and the command-line flag (grammar.ts): same finding, same words. */
export function removedOptionMessage(name: string): { message: string; detail: string } {
  const target = /scaling/.test(name) ? 'rope_scaling' : 'rope_theta';
  return {
    message: `vLLM stops with "unrecognized arguments": it removed the ${name} option in v0.11.1.`,
    detail: `The option went in PR #28006. Pass the value through hf-overrides.${target} instead.`,
  };
}
