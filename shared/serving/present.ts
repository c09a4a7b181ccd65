/**
 * The serving model as editors show it: a hover section (per engine: derived maximum, served
 * context, the command) and the files a `source` code action writes (a vLLM `--config` YAML, an
 * SGLang launch script). Pure builders; the server decides where they go.
 */
import type { ServingInput, ServingPlan } from './types';
import { ENGINE_NAMES } from './types';
import { servingPlan } from './index';
import { ENGINES } from './engines';
import { shellCommand } from './shell';
import { FLOAT_KEYS, grouped } from './common';
import { modelReach } from '../config/reach';

/** The engine's label, looked up when asked (an engine registered later has one too). */
const labelOf = (id: string): string | undefined => ENGINES.find((e) => e.id === id)?.label;

/** "; the model reaches 32,768" where the model's reach differs from its trained context. */
function reachText(input: ServingInput): string {
  const reach = modelReach(input.rope, input.trainedContext).value;
  return reach !== input.trainedContext ? `; the model reaches ${grouped(reach)}` : '';
}

/** Markdown for a hover: one table row per engine, then each engine's command in a shell block. */
export function servingHoverSection(input: ServingInput): string {
  const plans = ENGINE_NAMES.map((e) => servingPlan(e, input));
  const rows = plans.map(
    (p) =>
      `| ${labelOf(p.engine)} | ${grouped(p.derivedMaxLen)} | ${grouped(p.context)}${Object.keys(p.env).length ? ` (needs ${Object.keys(p.env).join(', ')})` : ''} |`,
  );
  return [
    '**Serving** (trained context ' + grouped(input.trainedContext) + reachText(input) + ')',
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
  if (typeof v === 'string')
    return /^[A-Za-z0-9_./-]+$/.test(v) && !/^(true|false|null|yes|no|on|off|~)$/i.test(v) && !/^[\d.]/.test(v) ? v : JSON.stringify(v);
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
    '#!/bin/sh',
    `# ${labelOf(plan.engine)} launch command written by RoPE Lens from ${source}`,
    ...plan.notes.map((n) => `# ${n}`),
    ...Object.entries(plan.env).map(([k, v]) => `export ${shellCommand({ env: {}, args: [`${k}=${v}`] })}`),
    `exec ${shellCommand({ env: {}, args: plan.args })}`,
    '',
  ].join('\n');
}

// ==== Launch hover (h-engines) =============================================================

/** What a hover on a launch command says: the engine's view of this one command. */
export interface LaunchHoverFacts {
  engine: string;
  /** The model as written, and where its config was found (or null). */
  model: string | null;
  resolvedFrom: string | null;
  /** "assumed from the file name …" when the identity came from a GGUF or folder name. */
  assumed?: string;
  requested: number | null;
  lengthOption: string | null;
  derived: number | null;
  derivedBasis?: string;
  trained: number | null;
  /** The scaling in effect, in words ("YaRN factor 4 over 32,768"), and whether the command set it. */
  scaling: string | null;
  scalingFromCommand: boolean;
  notes: string[];
}

/** Markdown for a hover on a launch command: what the engine will derive and do for it. */
export function launchHoverMarkdown(f: LaunchHoverFacts): string {
  const label = labelOf(f.engine) ?? f.engine;
  const lines = [`**${label} launch**${f.model ? ` of \`${f.model}\`` : ''}`, ''];
  if (f.model && !f.resolvedFrom)
    lines.push(
      `The model was not found offline: ${label}'s derived length and the trained context are unknown, so this launch is not judged (\`rope-lens check --hub\`, or \`ropeLens.hub.allowNetwork\`, fetches its config).`,
      '',
    );
  const rows: [string, string][] = [];
  if (f.resolvedFrom) rows.push(['model config', `${f.resolvedFrom}${f.assumed ? ` (${f.assumed})` : ''}`]);
  if (f.requested !== null) rows.push(['requested', `${grouped(f.requested)}${f.lengthOption ? ` (${f.lengthOption})` : ''}`]);
  if (f.derived !== null) rows.push([`${label} derives`, `${grouped(f.derived)}${f.derivedBasis ? ` — ${f.derivedBasis}` : ''}`]);
  if (f.trained !== null) rows.push(['trained context', grouped(f.trained)]);
  if (f.scaling) rows.push(['scaling in effect', `${f.scaling}${f.scalingFromCommand ? ' (set by this command)' : ''}`]);
  if (rows.length) lines.push('| | |', '|---|---|', ...rows.map(([k, v]) => `| ${k} | ${v} |`));
  if (f.requested !== null && f.derived !== null && f.requested > f.derived) {
    lines.push(
      '',
      f.engine === 'vllm' || f.engine === 'sglang'
        ? `${grouped(f.requested)} is above what ${label} derives: it refuses to start unless told to allow longer lengths.`
        : `${grouped(f.requested)} is above what ${label} derives: it ${f.engine === 'tgi' ? 'does not check, and positions past it are extrapolated' : 'caps the context there'}.`,
    );
  }
  for (const n of f.notes) lines.push('', n);
  return lines.join('\n');
}
// ==== end of launch hover (h-engines) ======================================================
