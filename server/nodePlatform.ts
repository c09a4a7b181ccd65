/**
 * The language server's platform in a Node process (VS Code's IPC, `rope-lens lsp`, the tests):
 * files through `fs`, the HF cache on disk, bounds on the b* engine's worker thread, the Hub
 * through shared/node/hubFetch.ts.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { RULE_PAGES_DIR } from '../shared/protocol/messages';
import { createNodeResolver, nodeFileReader } from '../shared/node/resolveNode';
import { nodeAsyncFiles } from '../shared/node/asyncFiles';
import { PinsParser } from '../shared/node/pinsParser';
import { type AsyncFiles, WorkspaceScans } from '../shared/files/workspaceScans';
import { loadShellParser } from '../shared/node/shellParser';
import { describeResult, fetchModels, hubSettings } from '../shared/node/hubFetch';
import { createBoundComputer } from './boundComputer';
import { REPOSITORY_PAGES } from './diagnostics';
import type { ServerPlatform } from './platform';
import { NATIVE_LOG_ENV } from '../shared/node/adapterProbe';

/**
 * Where `codeDescription` points: the rule pages shipped next to the bundle (the .vsix carries
 * docs/rules/, so the link opens offline), else the repository's copy. Each code's page is
 * `<base>/<code>.md`.
 */
export function rulesDocBase(bundleDir: string = __dirname): string {
  for (const candidate of [join(bundleDir, '..', RULE_PAGES_DIR), join(bundleDir, '..', '..', RULE_PAGES_DIR)]) {
    if (existsSync(candidate)) return pathToFileURL(candidate).toString();
  }
  return REPOSITORY_PAGES;
}

/**
 * `scanFiles`: the file system workspace scans read (tests inject a slow or stuck one). The CLI
 * keeps the synchronous sources (shared/node/consumerPins.ts and its siblings): it prints complete findings once.
 */
export function nodePlatform(options: { scanFiles?: AsyncFiles } = {}): ServerPlatform {
  const scans = new WorkspaceScans({ files: options.scanFiles ?? nodeAsyncFiles, parsePins: new PinsParser().parse });
  return {
    files: nodeFileReader,
    resolver: createNodeResolver(),
    workspace: scans.workspace,
    sourcedFiles: scans.sourcedFiles,
    project: scans.project,
    scans,
    loadShellParser,
    boundComputer: createBoundComputer,
    docsBase: () => rulesDocBase(),
    hub: { settings: () => hubSettings(), fetchModels, describe: describeResult },
    traceVerbose: () => {
      process.env[NATIVE_LOG_ENV] ??= '1';
    },
  };
}
