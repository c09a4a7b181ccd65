/**
 * Loads the shell grammar once: web-tree-sitter's runtime (tree-sitter.wasm) and
 * tree-sitter-bash.wasm. In a bundle both files sit next to the bundle in dist/ (esbuild.mjs
 * copies them); from source they are resolved in node_modules.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { ShellParser } from '../launch/types';

/** The first existing file: next to this bundle (dist/), else the installed package. */
function locate(file: string, pkgPath: string): string {
  const beside = join(__dirname, file);
  if (existsSync(beside)) return beside;
  return require.resolve(pkgPath);
}

let loading: Promise<ShellParser> | undefined;

/** The shell parser, loaded on first call and shared afterwards. */
export function loadShellParser(): Promise<ShellParser> {
  loading ??= (async () => {
    // Required here, not at the top: its Emscripten glue runs when loaded, and a workspace of JSON
    // configs never needs it. require(), not import: bundled as CommonJS, web-tree-sitter's ESM
    // build would need import.meta.url.
    const { Language, Parser } = require('web-tree-sitter') as typeof import('web-tree-sitter');
    const runtime = locate('tree-sitter.wasm', 'web-tree-sitter/tree-sitter.wasm');
    await Parser.init({ locateFile: () => runtime });
    const bash = await Language.load(locate('tree-sitter-bash.wasm', 'tree-sitter-bash/tree-sitter-bash.wasm'));
    const parser = new Parser();
    parser.setLanguage(bash);
    return { parse: (text: string) => parser.parse(text) };
  })();
  // A failed load is retried on the next call rather than cached.
  loading.catch(() => {
    loading = undefined;
  });
  return loading;
}
