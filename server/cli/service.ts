/**
 * The CLI's analysis service: a synchronous bound oracle, the file-system resolver (local folders, the
 * HF cache, the catalog) and the project file (`.rope-lens.yaml`) found upward from each file.
 */
import { createRopeLensService, type RopeLensService } from '../../shared/service/service';
import { createSyncOracle } from '../../shared/service/syncOracle';
import { type NeighbourhoodProver, parallelProver, proofMaxLengthFromEnv } from '../../shared/node/parallelProof';
import { proofLine } from './proofLine';
import { type CliIO, processIO } from './io';
import { createNodeResolver } from '../../shared/node/resolveNode';
import { nodeWorkspaceFacts } from '../../shared/node/consumerPins';
import { nodeProjectConfig } from '../../shared/node/projectConfig';
import { nodeSourcedFiles } from '../../shared/node/sourcedFiles';
import type { TransformersVariant } from '../../shared/rope/spec';
import type { BaseModelResolver } from '../../shared/config/resolve';
import type { ShellParser } from '../../shared/launch/types';

/** The CLI's prover: every core, with a live line on a terminal's stderr while a proof runs (minutes at 1M tokens). */
export function cliProver(status: CliIO['status'] = processIO.status): NeighbourhoodProver {
  const line = proofLine(status);
  return line.around(parallelProver({ onWait: line.tick }));
}

/** `shell`: the loaded shell grammar, for commands that read launch scripts (check). */
export function cliService(
  variant: TransformersVariant = 'v5',
  log?: (line: string) => void,
  resolver: BaseModelResolver = createNodeResolver(),
  shell?: ShellParser,
): RopeLensService {
  return createRopeLensService({
    oracle: createSyncOracle({ prove: cliProver(), maxProofLength: proofMaxLengthFromEnv() }),
    resolver,
    variant,
    log,
    shellParser: () => shell,
    workspace: nodeWorkspaceFacts(),
    sourcedFiles: nodeSourcedFiles(),
    project: nodeProjectConfig(),
  });
}
