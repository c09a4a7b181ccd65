/**
 * The shell grammar in a browser worker: web-tree-sitter's runtime and tree-sitter-bash, both
 * wasm files shipped beside the worker's bundle (dist/web/, esbuild.mjs copies them) and fetched
 * from the extension's own URI, which the worker's location is.
 */
import { Language, Parser } from 'web-tree-sitter';
import type { ShellParser } from '../../shared/launch/types';

async function bytesOf(url: URL): Promise<Uint8Array> {
  const response = await fetch(url.toString());
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

/** `assetUrl`: where a file shipped beside the bundle is served (browserPlatform.ts). */
export function webShellParserLoader(assetUrl: (name: string) => URL): () => Promise<ShellParser> {
  let loading: Promise<ShellParser> | undefined;
  return () => {
    loading ??= (async () => {
      const runtimeUrl = assetUrl('tree-sitter.wasm');
      // The bytes are fetched here; locateFile only names them (Emscripten asks for a name even then).
      await Parser.init({ wasmBinary: await bytesOf(runtimeUrl), locateFile: () => runtimeUrl.toString() });
      const bash = await Language.load(await bytesOf(assetUrl('tree-sitter-bash.wasm')));
      const parser = new Parser();
      parser.setLanguage(bash);
      return { parse: (text: string) => parser.parse(text) };
    })();
    // A failed load is retried on the next call rather than cached.
    loading.catch(() => {
      loading = undefined;
    });
    return loading;
  };
}
