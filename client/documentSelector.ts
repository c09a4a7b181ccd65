/**
 * Which documents the language server sees: model configs, training and serving YAML, launch files.
 * One list, whatever the scheme; the desktop's `file:` selector and the web's any-scheme one are
 * derived from it, so the two cannot drift apart.
 */

/** A language, or a file name pattern (a selector's filter without its scheme). */
type Filter = { language: string } | { pattern: string };

type SeenDocuments = Filter & {
  /** Also an unsaved editor (`untitled:`) of this language: someone pasting a config or a command line. */
  untitled?: true;
};

const SEEN: SeenDocuments[] = [
  { language: 'json', untitled: true },
  { language: 'jsonc' },
  { language: 'yaml', untitled: true },
  // Launch files: the commands that start engines and trainers (the server sniffs for a known
  // program before parsing, so an ordinary build script costs nothing).
  { language: 'shellscript', untitled: true },
  { language: 'dockerfile' },
  { language: 'ollama-modelfile' },
  { language: 'dockercompose' },
  // Launch files by name whatever language VS Code gives them (`x-Dockerfile`, `Dockerfile-gpu`,
  // `Modelfile.qwen`, `run.zsh`): the server decides by their text (shared/launch/format.ts).
  { pattern: '**/*{Dockerfile,dockerfile,Containerfile,containerfile}*' },
  { pattern: '**/{Modelfile,modelfile}*' },
  { pattern: '**/*.{sh,bash,zsh}' },
];

const filterOf = (d: SeenDocuments): Filter => ('language' in d ? { language: d.language } : { pattern: d.pattern });

/** On the desktop: files on disk, and unsaved editors of the languages marked `untitled`. */
export const DOCUMENT_SELECTOR = [
  ...SEEN.map((d) => ({ scheme: 'file', ...filterOf(d) })),
  ...SEEN.filter((d) => d.untitled).map((d) => ({ scheme: 'untitled', ...filterOf(d) })),
];

/**
 * The same documents on any file system: VS Code for the web opens files as vscode-vfs: (github.dev),
 * vscode-remote: (code-server) or a browser folder's scheme, never only file:.
 */
export const DOCUMENT_SELECTOR_ANY_SCHEME = SEEN.map(filterOf);
