/**
 * The CLI's analysis service: a synchronous bound oracle, the file-system resolver (local folders, the
 * HF cache, the catalog) and the project file (`.rope-lens.yaml`) found upward from each file.
 */
import { enUS } from '../../shared/core/format';
import { createRopeLensService, type RopeLensService } from '../../shared/service/service';
import { createSyncOracle } from '../../shared/service/syncOracle';
import { type NeighbourhoodProver, parallelProver, proofMaxLengthFromEnv } from '../../shared/node/parallelProof';
import { createNodeResolver } from '../../shared/node/resolveNode';
import { nodeWorkspaceFacts } from '../../shared/node/consumerPins';
import { nodeProjectConfig } from '../../shared/node/projectConfig';
import { nodeSourcedFiles } from '../../shared/node/sourcedFiles';
import type { TransformersVariant } from '../../shared/rope/spec';
import type { BaseModelResolver } from '../../shared/config/resolve';
import type { ShellParser } from '../../shared/launch/types';

/** Proofs at and above this length take seconds to a minute: a terminal is told what it waits for. */
const ANNOUNCE_FROM = 262144;

/** Says once per (L, d), on a terminal's stderr, that a long proof is running (the CLI is otherwise silent while it works). */
function announced(prove: NeighbourhoodProver): NeighbourhoodProver {
  const said = new Set<string>();
  return (candidate, headDim, length) => {
    const key = `${length}/${headDim}`;
    if (length >= ANNOUNCE_FROM && process.stderr.isTTY && !said.has(key)) {
      said.add(key);
      process.stderr.write(
        `rope-lens: proving a robust base for ${enUS(length)} tokens (rotary dim ${headDim}): every base within ±10% of each candidate, about a minute at 1M tokens on 2 cores\n`,
      );
    }
    return prove(candidate, headDim, length);
  };
}

/** `shell`: the loaded shell grammar, for commands that read launch scripts (check). */
export function cliService(
  variant: TransformersVariant = 'v5',
  log?: (line: string) => void,
  resolver: BaseModelResolver = createNodeResolver(),
  shell?: ShellParser,
): RopeLensService {
  return createRopeLensService({
    oracle: createSyncOracle({ prove: announced(parallelProver()), maxProofLength: proofMaxLengthFromEnv() }),
    resolver,
    variant,
    log,
    shellParser: () => shell,
    workspace: nodeWorkspaceFacts(),
    sourcedFiles: nodeSourcedFiles(),
    project: nodeProjectConfig(),
  });
}
