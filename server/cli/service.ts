/**
 * The CLI's analysis service: a synchronous bound oracle, the file-system resolver (local folders, the
 * HF cache, the catalog) and the project file (`.rope-lens.yaml`) found upward from each file.
 */
import { createRopeLensService, type RopeLensService } from '../../shared/service/service';
import { createSyncOracle } from '../../shared/service/syncOracle';
import { createNodeResolver } from '../../shared/node/resolveNode';
import { nodeWorkspaceFacts } from '../../shared/node/consumerPins';
import { nodeProjectConfig } from '../../shared/node/projectConfig';
import { nodeSourcedFiles } from '../../shared/node/sourcedFiles';
import type { TransformersVariant } from '../../shared/rope/spec';
import type { BaseModelResolver } from '../../shared/config/resolve';
import type { ShellParser } from '../../shared/launch/types';

/** `shell`: the loaded shell grammar, for commands that read launch scripts (check). */
export function cliService(
  variant: TransformersVariant = 'v5',
  log?: (line: string) => void,
  resolver: BaseModelResolver = createNodeResolver(),
  shell?: ShellParser,
): RopeLensService {
  return createRopeLensService({
    oracle: createSyncOracle(),
    resolver,
    variant,
    log,
    shellParser: () => shell,
    workspace: nodeWorkspaceFacts(),
    sourcedFiles: nodeSourcedFiles(),
    project: nodeProjectConfig(),
  });
}
