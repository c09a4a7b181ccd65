/**
 * The launch readers as one loop over the engine registry (engines.ts): each engine module reads
 * its own grammar; this file only tries them in turn. An invocation no engine recognises is not a
 * serving launch.
 */
import type { Invocation, ModelfileLaunch } from '../launch/types';
import type { LaunchRequest } from '../launch/request';
import type { EngineName, ServingInput } from './types';
import type { LaunchEffect } from './launchModel';
import { ENGINES, engineById, engineNamed } from './engines';
import { readOllamaModelfile } from './ollama';

export type { LaunchEffect } from './launchModel';

export const LAUNCH_READERS: Record<EngineName, (inv: Invocation) => LaunchRequest | undefined> = Object.fromEntries(
  ENGINES.map((e) => [e.id, e.readArgv]),
) as Record<EngineName, (inv: Invocation) => LaunchRequest | undefined>;

/**
 * Requests that depend on one another within a file, related after all are read: Ollama's runs
 * are served at the context the script's `ollama serve` was started with.
 */
export function relateServingLaunches(requests: LaunchRequest[], text?: string, fileName = 'this file'): void {
  for (const e of ENGINES) e.relate?.(requests.filter((r) => r.program === e.id));
  if (text === undefined) return;
  // An exact `pip install <engine>==X` in the same file pins the release its launches run.
  for (const pin of exactPipPins(text, fileName)) {
    const e = ENGINES.find((x) => x.id === pin.pkg);
    if (!e?.atRelease) continue;
    for (const r of requests) if (r.program === e.id) e.atRelease(r, pin.version, pin.source);
  }
}

/** `pip install name==1.2.3` (also pip3, `python -m pip`, `uv pip`): exact pins only, a lower bound says no release. */
function exactPipPins(text: string, fileName: string): { pkg: string; version: string; source: string }[] {
  const out: { pkg: string; version: string; source: string }[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    for (const m of raw.matchAll(/\bpip3?\s+install\b([^;&|]*)/g)) {
      for (const word of m[1].trim().split(/\s+/)) {
        const exact = /^["']?([A-Za-z0-9][A-Za-z0-9._-]*)(?:\[[^\]]*\])?===?v?(\d+(?:\.\d+)*)["']?$/.exec(word);
        if (exact) out.push({ pkg: exact[1].toLowerCase(), version: exact[2], source: `${fileName}:${i + 1}` });
      }
    }
  });
  return out;
}

/** The serving request this invocation makes, read by the engine it launches; undefined when none does. */
export function readServingLaunch(inv: Invocation): LaunchRequest | undefined {
  for (const e of ENGINES) {
    const req = e.readArgv(inv);
    if (req) return req;
  }
  return readArgumentsOnly(inv);
}

/**
 * Arguments only (`--model x --max-model-len 65536`) given to an image whose entrypoint is unknown
 * (a custom image built on an engine's): read as the one engine whose own options they hold, as if
 * given to that engine's image, and said so. Options of two engines, or of none: not read (said by
 * the service, see unreadInvocation).
 */
function readArgumentsOnly(inv: Invocation): LaunchRequest | undefined {
  const owner = argumentsOwner(inv);
  if (!owner || !inv.image) return undefined;
  const req = owner.engine.readArgv({ ...inv, image: { ...inv.image, value: owner.engine.argumentsOnly!.image } });
  if (!req) return undefined;
  req.invocation = inv;
  req.notes.push(
    `These are arguments for the image ${inv.image.value}, whose entrypoint is unknown: read as ${owner.engine.label} arguments because ${owner.option} is ${owner.engine.label}'s option alone (the image is assumed to start ${owner.engine.label} with them).`,
  );
  return req;
}

/** The engine whose own options the image's arguments hold, when exactly one engine's. */
export function argumentsOwner(inv: Invocation): { engine: (typeof ENGINES)[number]; option: string } | undefined {
  if (inv.entrypoint !== 'image' || !inv.argv[0]?.value.startsWith('-')) return undefined;
  const written = new Set(inv.argv.map((t) => t.value.split('=')[0]));
  const owners = ENGINES.flatMap((e) => {
    const option = e.argumentsOnly?.options.find((o) => written.has(o));
    return option ? [{ engine: e, option }] : [];
  });
  return owners.length === 1 ? owners[0] : undefined;
}

export { readOllamaModelfile };
export function readModelfileLaunch(mf: ModelfileLaunch): LaunchRequest {
  const reader = ENGINES.find((e) => e.readModelfile);
  return reader!.readModelfile!(mf);
}

/** The engine a request's `program` names, when it is a serving engine. */
export function engineOf(req: LaunchRequest): EngineName | undefined {
  return engineNamed(req.program)?.id;
}

/** What the engine builds and derives for this command, given the resolved model. */
export function launchEffect(engine: EngineName, req: LaunchRequest, input: ServingInput): LaunchEffect {
  return engineById(engine).effect(req, input);
}

/**
 * The hub model an engine's own naming stands for, said as an assumption: Ollama library tags
 * (`qwen2.5:7b` is Qwen/Qwen2.5-7B-Instruct). Undefined when the engine names models by hub id or
 * path, or the name is not one the engine module knows.
 */
export function engineModelIdentity(engine: EngineName, ref: string): { id: string; how: string } | undefined {
  return engineById(engine).modelIdentity?.(ref);
}
