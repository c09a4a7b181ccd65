/**
 * The persistent proof cache: one JSON file per user, $XDG_CACHE_HOME/rope-lens/proofs.json
 * (~/.cache/… without it), shared by the CLI, the pre-commit hook and the language server, so a proof
 * at 262,144 tokens (seconds) is paid once per machine. ROPE_LENS_PROOF_CACHE relocates it (a file
 * path) or turns it off ('off'). Keys carry the proof code's version (bstar/proofCache.ts), so a newer
 * RoPE Lens never trusts an older one's answers.
 *
 * It is only a cache: a missing, unreadable or corrupt file reads as empty, a failed write is dropped.
 * Writes merge with what another process wrote meanwhile and replace the file atomically (a
 * temporary file renamed over it), so concurrent runs never leave half a file.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import type { ProofStore } from '../bstar/proofCache';

/** Proofs shorter than this take milliseconds: not worth a file write. */
export const STORE_MIN_LENGTH = 8192;
/** Entries kept (oldest dropped first): each is ~60 bytes. */
export const STORE_CAPACITY = 20000;
const FORMAT = 1;

/** Where the cache lives, or undefined when ROPE_LENS_PROOF_CACHE turns it off. */
export function proofCachePath(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const set = env.ROPE_LENS_PROOF_CACHE?.trim();
  if (set && ['off', '0', 'false', 'none'].includes(set.toLowerCase())) return undefined;
  if (set) return set;
  const root = env.XDG_CACHE_HOME?.trim() || join(homedir(), '.cache');
  return join(root, 'rope-lens', 'proofs.json');
}

function readEntries(path: string): Map<string, number | null> {
  const out = new Map<string, number | null>();
  try {
    const parsed: unknown = JSON.parse(readFileSync(path, 'utf8'));
    const proofs = (parsed as { format?: unknown; proofs?: unknown } | null)?.proofs;
    if ((parsed as { format?: unknown }).format !== FORMAT || !proofs || typeof proofs !== 'object') return out;
    for (const [k, v] of Object.entries(proofs as Record<string, unknown>)) {
      if (v === null || (typeof v === 'number' && Number.isFinite(v))) out.set(k, v);
    }
  } catch {
    // absent, unreadable or corrupt: an empty cache
  }
  return out;
}

/** The key's length (keys are version/length/dim/candidate). */
function lengthOf(key: string): number {
  return Number(key.split('/')[1]);
}

export function fileProofStore(path: string): ProofStore {
  let entries: Map<string, number | null> | undefined;
  const loaded = () => (entries ??= readEntries(path));
  return {
    get: (key) => loaded().get(key),
    set(key, answer) {
      const mine = loaded();
      mine.set(key, answer);
      if (!(lengthOf(key) >= STORE_MIN_LENGTH)) return;
      try {
        // Another process may have added proofs since this one read the file: keep them.
        const merged = readEntries(path);
        for (const [k, v] of mine) if (lengthOf(k) >= STORE_MIN_LENGTH) merged.set(k, v);
        while (merged.size > STORE_CAPACITY) merged.delete(merged.keys().next().value as string);
        mkdirSync(dirname(path), { recursive: true });
        const tmp = `${path}.${process.pid}.${Date.now()}.tmp`;
        writeFileSync(tmp, JSON.stringify({ format: FORMAT, proofs: Object.fromEntries(merged) }));
        renameSync(tmp, path);
      } catch {
        // a read-only or full disk: the answer stays in memory for this run
      }
    },
  };
}

/** The store at proofCachePath(env), or undefined when turned off. */
export function userProofStore(env: NodeJS.ProcessEnv = process.env): ProofStore | undefined {
  const path = proofCachePath(env);
  return path === undefined ? undefined : fileProofStore(path);
}
