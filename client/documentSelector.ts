/** Which documents the language server sees: model configs, training and serving YAML, launch files. */

export const DOCUMENT_SELECTOR = [
  { scheme: 'file', language: 'json' },
  { scheme: 'file', language: 'jsonc' },
  { scheme: 'file', language: 'yaml' },
  { scheme: 'untitled', language: 'json' },
  { scheme: 'untitled', language: 'yaml' },
  // Launch files: the commands that start engines and trainers (the server sniffs for a known
  // program before parsing, so an ordinary build script costs nothing).
  { scheme: 'file', language: 'shellscript' },
  { scheme: 'file', language: 'dockerfile' },
  { scheme: 'file', language: 'ollama-modelfile' },
  { scheme: 'file', language: 'dockercompose' },
  { scheme: 'untitled', language: 'shellscript' },
  // Launch files by name whatever language VS Code gives them (`x-Dockerfile`, `Dockerfile-gpu`,
  // `Modelfile.qwen`, `run.zsh`): the server decides by their text (shared/launch/format.ts).
  { scheme: 'file', pattern: '**/*{Dockerfile,dockerfile,Containerfile,containerfile}*' },
  { scheme: 'file', pattern: '**/{Modelfile,modelfile}*' },
  { scheme: 'file', pattern: '**/*.{sh,bash,zsh}' },
];

/**
 * The same documents on any file system: VS Code for the web opens files as vscode-vfs: (github.dev),
 * vscode-remote: (code-server) or a browser folder's scheme, never only file:.
 */
export const DOCUMENT_SELECTOR_ANY_SCHEME = DOCUMENT_SELECTOR.filter((f) => f.scheme !== 'untitled').map(({ scheme: _scheme, ...rest }) => rest);
