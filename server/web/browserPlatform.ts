/**
 * The language server's platform in a browser web worker (vscode.dev, github.dev, code-server's
 * web worker extension host): workspace files through the client (`vscode.workspace.fs`, so
 * virtual file systems work), no Hugging Face cache on disk (local folders, the catalog and, when
 * allowed, the Hub through `fetch` into memory resolve base models), the shell grammar and the b* worker fetched from beside this bundle, rule pages from
 * the repository.
 */
import { createResolver } from '../../shared/config/resolve';
import { projectConfigFrom, sourcedFilesFrom, workspaceFactsFrom } from '../../shared/files/fileSources';
import { REPOSITORY_PAGES } from '../diagnostics';
import type { ServerPlatform } from '../platform';
import { webBoundComputer } from './boundComputer';
import { HUB_MEMORY_CACHE, MemoryHubCache, browserHub, hubOverlay } from './browserHub';
import { ClientFiles } from './clientFiles';
import { webShellParserLoader } from './shellParser';

/** The b* worker's URL, or undefined (bounds then run in the server's worker) when it has none. */
function workerUrl(assetUrl: (name: string) => URL, log: (line: string) => void): string | undefined {
  try {
    return assetUrl('bstarWorker.js').toString();
  } catch (e) {
    log(`bounds: ${(e as Error).message}; computing in the server's worker`);
    return undefined;
  }
}

export interface BrowserPlatform extends ServerPlatform {
  files: ClientFiles;
}

/**
 * `assetUrl`: where a file shipped beside this bundle (the wasm files, the b* worker) is served:
 * relative to the worker's location, unless the client named each one (browserServer.ts).
 */
export function browserPlatform(assetUrl: (name: string) => URL, log: (line: string) => void = () => undefined): BrowserPlatform {
  const files = new ClientFiles(log);
  // Models fetched from the Hub (browserHub.ts) sit in memory in the HF cache's layout, read as the desktop reads its cache.
  const hubCache = new MemoryHubCache();
  const resolver = createResolver({ reader: hubOverlay(files, hubCache), hubCache: HUB_MEMORY_CACHE });
  const project = projectConfigFrom(files);
  return {
    files,
    resolver,
    workspace: workspaceFactsFrom(files),
    sourcedFiles: sourcedFilesFrom(files),
    project: {
      configFor: project,
      // The project file changed: read every file again (it may name other pins and ignores too).
      invalidate: () => files.invalidate(),
    },
    loadShellParser: webShellParserLoader(assetUrl),
    boundComputer: (backend) => webBoundComputer(workerUrl(assetUrl, log), log, backend),
    docsBase: () => REPOSITORY_PAGES,
    hub: browserHub(hubCache),
    attach(connection, changed) {
      files.attach(connection, () => {
        // Answers the resolver remembered as "not found" may have been files still on their way.
        resolver.reset?.();
        changed();
      });
    },
  };
}
