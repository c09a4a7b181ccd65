/**
 * The layering of shared/, as data: each row is a layer, bottom first; a module may import from its
 * own folder and from folders in rows below, never from a row above or a sibling in its own row.
 * A new top-level folder under shared/ must be added here (the test says so), in the row that
 * matches what it imports. `npm test` checks every import (test/architecture/layers.test.ts).
 */
export interface Layer {
  folders: string[];
  /** What the row holds (printed in violations). */
  role: string;
}

export const LAYERS: Layer[] = [
  { folders: ['core'], role: 'findings and fix types, number formatting, errors' },
  { folders: ['document', 'rope'], role: 'positioned parse trees; RoPE math (inv_freq, f_b primitives)' },
  {
    folders: ['bstar', 'gpu', 'launch'],
    role: 'exact bounds on the CPU; gpu.js kernels; launch files → invocations (shell, Dockerfile, compose, Kubernetes, Modelfile; no engine knowledge)',
  },
  { folders: ['config'], role: 'model and training config readers, resolver, catalog, wire shapes' },
  { folders: ['advice'], role: 'the one recommended rewrite for a model and a target length (candidates, verdicts, vendor recipes)' },
  { folders: ['gguf', 'serving'], role: 'GGUF metadata → the config model; what each inference engine derives and the flags it needs' },
  { folders: ['fixes'], role: 'text edits for rewrites (never imports rules)' },
  { folders: ['rules'], role: 'one module per finding' },
  { folders: ['planner'], role: 'context-extension plans above rules and fixes' },
  { folders: ['service'], role: 'the analysis service: pipeline, oracle, facts' },
  { folders: ['files'], role: "workspace files (project file, pins, sourced scripts) through a platform's reader (the browser's)" },
  { folders: ['inspector', 'kernelBench'], role: 'webview data and page protocols' },
  { folders: ['protocol'], role: 'LSP messages, commands and settings shared by client and server (Node/LSP only)' },
  { folders: ['node'], role: 'Node-only: worker threads, file system, GPU probe (never bundled for a webview)' },
];

/**
 * Rules inside folders. Under `shared/rules/`, each subfolder is one rule set (`launch/`: serving
 * requests from commands and engine config files); its modules import the shared rule helpers
 * (`rules/*.ts`) and their own folder, never another rule folder. A top-level rule module imports
 * no rule folder (only `rules/index.ts`, which lists them all, may).
 */
export const RULE_ROOT = 'shared/rules';
export const RULE_INDEX_FILES = ['shared/rules/index.ts'];

/**
 * Folders the front-ends (server/, the CLI in server/cli/) never import directly: they reach them
 * only through the service (`shared/service/`), so what an engine derives has one entry point.
 */
export const SERVICE_ONLY_FOLDERS = ['serving'];

/** Only these shared/ folders may import Node built-ins. */
export const NODE_ONLY_FOLDERS = ['node'];

/** Folders a webview bundle (media/src) may reach; everything they import must stay inside them. */
export const WEBVIEW_FOLDERS = ['core', 'document', 'rope', 'bstar', 'gpu', 'config', 'inspector', 'kernelBench'];

/** Packages the webview bundles may import. */
export const WEBVIEW_PACKAGES = ['uplot', 'gpu.js', 'jsonc-parser', 'yaml'];
