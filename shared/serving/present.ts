/**
 * The serving model as editors show it: a hover section (per engine: derived maximum, served
 * context, the command) and the files a `source` code action writes (a vLLM `--config` YAML, an
 * SGLang launch script). Pure builders; the server decides where they go.
 */
import type { ServingInput, ServingPlan } from './types';
import { ENGINE_NAMES } from './types';
import { servingPlan } from './index';
import { shellCommand } from './shell';
import { FLOAT_KEYS, grouped } from './common';

const ENGINE_LABEL: Record<string, string> = { vllm: 'vLLM', sglang: 'SGLang', 'llama.cpp': 'llama.cpp', tgi: 'TGI', ollama: 'Ollama' };

/** Markdown for a hover: one table row per engine, then each engine's command in a shell block. */
export function servingHoverSection(input: ServingInput): string {
  const plans = ENGINE_NAMES.map((e) => servingPlan(e, input));
  const rows = plans.map((p) => `| ${ENGINE_LABEL[p.engine]} | ${grouped(p.derivedMaxLen)} | ${grouped(p.context)}${Object.keys(p.env).length ? ` (needs ${Object.keys(p.env).join(', ')})` : ''} |`);
  return [
    '**Serving** (trained context ' + grouped(input.trainedContext) + ')',
    '',
    '| engine | derives from the config | serves |',
    '|---|---|---|',
    ...rows,
    '',
    '```sh',
    ...plans.map((p) => shellCommand(p)),
    '```',
  ].join('\n');
}

function yamlScalar(key: string, v: unknown): string {
  if (typeof v === 'number') return Number.isInteger(v) && FLOAT_KEYS.has(key) ? v.toFixed(1) : String(v);
  if (typeof v === 'string') return /^[A-Za-z0-9_./-]+$/.test(v) && !/^(true|false|null|yes|no|on|off|~)$/i.test(v) && !/^[\d.]/.test(v) ? v : JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map((x) => yamlScalar('', x)).join(', ')}]`;
  return JSON.stringify(v);
}

function yamlBlock(obj: Record<string, unknown>, indent: string): string[] {
  const out: string[] = [];
  for (const [k, v] of Object.entries(obj)) {
    if (v && typeof v === 'object' && !Array.isArray(v)) out.push(`${indent}${k}:`, ...yamlBlock(v as Record<string, unknown>, indent + '  '));
    else out.push(`${indent}${k}: ${yamlScalar(k, v)}`);
  }
  return out;
}

/** A vLLM `--config` YAML for the plan (vLLM reads option names without the dashes). */
export function vllmConfigYaml(plan: ServingPlan, source: string): string {
  const lines = [`# vllm serve --config <this file>   (written by RoPE Lens from ${source})`];
  for (const [k, v] of Object.entries(plan.env)) lines.push(`# needs ${k}=${v} in the environment`);
  for (const n of plan.notes) lines.push(`# ${n}`);
  const model = plan.args[2];
  lines.push(`model: ${yamlScalar('model', model)}`, `max-model-len: ${plan.context}`);
  if (plan.overrides) lines.push('hf-overrides:', ...yamlBlock(plan.overrides, '  '));
  return lines.join('\n') + '\n';
}

/** A launch script for the plan (SGLang's override and environment variable included). */
export function launchScript(plan: ServingPlan, source: string): string {
  return [
    '#!/bin/sh', `# ${ENGINE_LABEL[plan.engine]} launch command written by RoPE Lens from ${source}`, ...plan.notes.map((n) => `# ${n}`),
    ...Object.entries(plan.env).map(([k, v]) => `export ${shellCommand({ env: {}, args: [`${k}=${v}`] })}`),
    `exec ${shellCommand({ env: {}, args: plan.args })}`, '',
  ].join('\n');
}
