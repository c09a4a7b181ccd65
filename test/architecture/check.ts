/** The layering rules of test/architecture/layers.ts applied to an import graph; returns readable violations. */
import { builtinModules } from 'node:module';
import { LAYERS, NODE_ONLY_FOLDERS, RULE_INDEX_FILES, RULE_ROOT, SERVICE_ONLY_FOLDERS, WEBVIEW_FOLDERS, WEBVIEW_PACKAGES } from './layers';
import type { ImportEdge } from './imports';

const NODE_BUILTINS = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));

export function isNodeBuiltin(spec: string): boolean {
  return NODE_BUILTINS.has(spec) || NODE_BUILTINS.has(spec.split('/')[0]);
}

/** The shared/ folder of a repo-relative path, or undefined outside shared/. */
export function sharedFolder(file: string): string | undefined {
  const m = /^shared\/([^/]+)\//.exec(file);
  return m?.[1];
}

export function rankOf(folder: string): number | undefined {
  const i = LAYERS.findIndex((l) => l.folders.includes(folder));
  return i < 0 ? undefined : i;
}

const describeRow = (folder: string) => {
  const r = rankOf(folder);
  return r === undefined ? `'${folder}' (not in the table)` : `'${folder}' (row ${r}: ${LAYERS[r].role})`;
};

/** Top-level entries of shared/ the table does not know. */
export function unknownFolders(entries: { name: string; isDirectory: boolean }[]): string[] {
  const out: string[] = [];
  for (const e of entries) {
    if (!e.isDirectory) out.push(`shared/${e.name} is a file directly under shared/: move it into the folder of its layer`);
    else if (rankOf(e.name) === undefined)
      out.push(
        `shared/${e.name}/ is not in the layer table: add it to LAYERS in test/architecture/layers.ts, in the row that matches what it imports (rows below it) and who imports it (rows above)`,
      );
  }
  return out;
}

/** Upward and sideways imports between shared/ folders, and Node built-ins outside the Node-only folders. */
export function layerViolations(edges: ImportEdge[]): string[] {
  const out: string[] = [];
  for (const e of edges) {
    const from = sharedFolder(e.from);
    if (!from) continue;
    if (isNodeBuiltin(e.spec) && !NODE_ONLY_FOLDERS.includes(from)) {
      out.push(`${e.from} imports the Node built-in '${e.spec}': Node-only code belongs in shared/${NODE_ONLY_FOLDERS[0]}/`);
    }
    if (/^(vscode|vscode-languageserver|vscode-languageclient)(\/|$)/.test(e.spec)) out.push(`${e.from} imports '${e.spec}': shared/ is editor-free`);
    if (/^vscode-languageserver-protocol|^vscode-jsonrpc/.test(e.spec) && from !== 'protocol')
      out.push(`${e.from} imports '${e.spec}': only shared/protocol speaks LSP`);
    if (!e.target) continue;
    if (!e.target.startsWith('shared/')) {
      out.push(`${e.from} imports ${e.target}: shared/ imports nothing outside shared/`);
      continue;
    }
    const to = sharedFolder(e.target);
    if (!to || to === from) continue;
    const rf = rankOf(from),
      rt = rankOf(to);
    if (rf === undefined || rt === undefined) continue; // reported by unknownFolders
    if (rt > rf) out.push(`${e.from} imports ${e.target}: ${describeRow(from)} may not import upward from ${describeRow(to)}`);
    else if (rt === rf)
      out.push(
        `${e.from} imports ${e.target}: ${describeRow(from)} and ${describeRow(to)} share a row and may not import each other (move what both need to a row below)`,
      );
  }
  return out;
}

/** What a webview bundle reaches must stay in the webview folders and use only browser packages. */
export function webviewViolations(edges: ImportEdge[]): string[] {
  const out: string[] = [];
  for (const e of edges) {
    if (isNodeBuiltin(e.spec)) out.push(`webview bundle: ${e.from} imports the Node built-in '${e.spec}'`);
    else if (!e.spec.startsWith('.') && !WEBVIEW_PACKAGES.includes(e.spec.split('/')[0]))
      out.push(`webview bundle: ${e.from} imports the package '${e.spec}', not one of ${WEBVIEW_PACKAGES.join(', ')}`);
    const f = e.target && sharedFolder(e.target);
    if (e.target?.startsWith('shared/') && f && !WEBVIEW_FOLDERS.includes(f))
      out.push(`webview bundle: ${e.from} reaches ${e.target}, outside the folders a webview may use (${WEBVIEW_FOLDERS.join(', ')})`);
    if (e.target && /^(server|client)\//.test(e.target)) out.push(`webview bundle: ${e.from} reaches ${e.target}`);
  }
  return out;
}

/** The rule folder of a file under shared/rules/ ('' for a top-level rule module), else undefined. */
function ruleFolder(file: string): string | undefined {
  if (!file.startsWith(`${RULE_ROOT}/`)) return undefined;
  const rest = file.slice(RULE_ROOT.length + 1);
  return rest.includes('/') ? rest.slice(0, rest.indexOf('/')) : '';
}

/** A rule module importing another rule folder's module (or a top-level rule importing any folder). */
export function ruleFolderViolations(edges: ImportEdge[]): string[] {
  const out: string[] = [];
  for (const e of edges) {
    const from = ruleFolder(e.from);
    const to = e.target ? ruleFolder(e.target) : undefined;
    if (from === undefined || to === undefined || to === '' || to === from || RULE_INDEX_FILES.includes(e.from)) continue;
    out.push(
      `${e.from} imports ${e.target}: a rule module imports the shared rule helpers (${RULE_ROOT}/*.ts) and its own folder, never another rule folder (${RULE_ROOT}/${to}/); move what both need to ${RULE_ROOT}/`,
    );
  }
  return out;
}

/** server/ (and the CLI) importing a folder it must reach through shared/service/. */
export function serviceOnlyViolations(edges: ImportEdge[]): string[] {
  const out: string[] = [];
  for (const e of edges) {
    if (!e.from.startsWith('server/') || !e.target) continue;
    const to = sharedFolder(e.target);
    if (to && SERVICE_ONLY_FOLDERS.includes(to))
      out.push(`${e.from} imports ${e.target}: server/ reaches shared/${to}/ only through the service (shared/service/); export what it needs there`);
  }
  return out;
}
