/**
 * The launch-file contract: what the document adapters (shell, Dockerfile, compose, Kubernetes,
 * Modelfile) hand to the engine modules. Adapters know no engine; engine modules know no file
 * format. Every value keeps the exact source span of the token it came from, so findings land on
 * the user's own token and fixes edit it in place (quoting and layout kept).
 */
import type { Range } from '../core/range';

/** How a token was written: fixes re-quote a new value the same way. */
export type QuoteStyle = 'none' | 'single' | 'double' | 'ansi-c' | 'mixed';

/** A variable a token's value passed through (`$MODEL` assigned on line 3, a `${LEN:-4096}` default). */
export interface VariableTrace {
  name: string;
  /**
   * Where the value was assigned: the span of the assigned value (`8192` in `LEN=8192`), which is
   * what a fix edits. Absent when it came from a default or the environment.
   */
  assignedAt?: Range;
  /** `${VAR:-default}` with VAR unset in the file: the default was used (said so in findings). */
  defaulted?: boolean;
  /** With `defaulted`: the span of the default word inside `${VAR:-…}` (a fix may edit it there). */
  defaultAt?: Range;
  /**
   * Assigned inside an `if`/`case` branch or a loop: the value is the last one the file writes in
   * reading order, but a run may take another branch (say so rather than assert the value).
   */
  conditional?: boolean;
  /** Assigned in another file (a sourced one): `assignedAt` is not given, since it is not in this document. */
  from?: string;
}

export interface Token {
  /** The value the program receives (quotes removed, variables and `$(( ))` expanded where known). */
  value: string;
  /** The source text of the token, exactly as written. */
  raw: string;
  /** Span of the token in the document (offset/length into the document text, and LSP range). */
  offset: number;
  length: number;
  range: Range;
  quote: QuoteStyle;
  /**
   * A span inside a quoted word (the value of `"--flag=value"`): a replacement is written bare,
   * escaped for these enclosing quotes, never quoted again.
   */
  enclosed?: 'single' | 'double';
  /** False when part of the value is not known statically (a command substitution, an unset variable). */
  known: boolean;
  /** Variables the value came through, outermost first. */
  via?: VariableTrace[];
  /**
   * Not written in this document as this value: a function body in a sourced script (the file's
   * name as the script wrote it), or a word an operator supplies (KubeAI's controller adds
   * `--model <repo>` from `spec.url`). The span is where the value enters this document (the
   * call's command name, the resource field), `raw` that span's text; fixes never edit it.
   */
  from?: string;
  /**
   * An environment value: where its variable's name is written in this document (`OLLAMA_MAX_CTX`
   * in `OLLAMA_MAX_CTX=32768`, a compose key, a Kubernetes `name:`), for findings about the name.
   */
  nameAt?: { offset: number; length: number; range: Range };
  /**
   * A value read from a shell variable (`"$CMD"`) that was assembled from strings written in this
   * document (`CMD="vllm serve …"; CMD+=" --max-model-len 65536"`): value offset `at` ↔ document
   * `offset`, for `length` characters. A shell that reads the value again (`eval`, `bash -c`)
   * places its words on the user's own characters.
   */
  runs?: { at: number; offset: number; length: number }[];
}

/**
 * The file formats launches are read from: scripts, container files, and task files whose commands
 * are shell (SkyPilot `run:`, dstack `commands:`) or built by a chart (production-stack values).
 */
export type LaunchFormat = 'shell' | 'dockerfile' | 'compose' | 'kubernetes' | 'modelfile' | 'skypilot' | 'dstack' | 'helm-values';

/** One start of a program: argv with positions, and the environment it runs with. */
export interface Invocation {
  /**
   * argv[0] is the program as the engine modules match it, after wrappers are peeled
   * (`env A=1 vllm`, `exec`, `nohup`, `CUDA_VISIBLE_DEVICES=0 python -m …`, `docker run … <image> args`,
   * a shell function that wraps the binary). Later entries are the arguments, one token each.
   */
  argv: Token[];
  /**
   * `program`: argv[0] is the program. `image`: argv holds only the arguments given to the
   * entrypoint of `image` (`docker run IMAGE args…`, compose `command:` under `image:`, a Dockerfile
   * `CMD` under `FROM IMAGE` with no `ENTRYPOINT`, Kubernetes `args:` without `command:`); the engine
   * modules know which entrypoint each image has.
   */
  entrypoint: 'program' | 'image';
  /**
   * Environment in effect for this command, by name: prefix assignments, `export`s earlier in the
   * script, Dockerfile `ENV`, compose `environment:`, Kubernetes `env:`, `docker run -e`.
   */
  env: Record<string, Token>;
  /** Where the invocation was found. */
  source: LaunchFormat;
  /** Span of the whole command (first to last token), for hovers and for inserting new flags. */
  range: Range;
  offset: number;
  length: number;
  /**
   * How new arguments are appended so the command keeps its layout: the text to insert at
   * `appendAt` before a new `--flag value` (e.g. ` ` on one line, ` \\\n    ` in a continued
   * command, `, ` inside an exec-form JSON array). Absent when no safe place exists.
   */
  append?: { offset: number; range: Range; separator: string; form: 'shell' | 'json-array' | 'yaml-list' };
  /** The container image that runs it (`docker run IMAGE`, compose `image:`, k8s `image:`, Dockerfile `FROM`). */
  image?: Token;
  /** Facts the adapter wants said alongside findings: "through function serve()", "default of ${LEN:-…}". */
  notes: string[];
  /**
   * The command is a shell (`CMD ["sh", "-c", "…"]`, a shell-form CMD, compose `command: sh -c …`)
   * handed as arguments to the image's own entrypoint, which the file keeps: the container runs
   * `<entrypoint> sh -c …`. argv is the launch inside, the one the user meant; whether the image's
   * entrypoint swallows the shell is the engine modules' call (Engine.imageEntrypoint), judged by
   * launch/cmd-after-entrypoint. `fix`: the edit that clears the entrypoint, where the format has one.
   */
  shellAfterEntrypoint?: { shell: string; at: Range; kind: 'CMD' | 'command' | 'args'; fix?: { title: string; range: Range; newText: string } };
}

/** An Ollama Modelfile: no argv, but the same questions (which model, what context). */
export interface ModelfileLaunch {
  source: 'modelfile';
  /** `FROM <model or path or gguf>` */
  from?: Token;
  /** `PARAMETER <name> <value>` by name (last wins, as Ollama does). */
  parameters: Record<string, { name: Token; value: Token }>;
  /** Span of the whole file's instructions, for hovers. */
  range: Range;
  /** Where a new `PARAMETER` line goes (after the last PARAMETER, else after FROM). */
  appendAt?: { offset: number; range: Range };
}

/** Everything one file launches, in document order. */
export interface LaunchFile {
  format: LaunchFormat;
  invocations: Invocation[];
  modelfile?: ModelfileLaunch;
  /**
   * Problems the adapter met and survived (an unterminated quote, a file too large to parse whole).
   * `partial`: part of the file was not read at all (size limits), so launches there may be missed.
   */
  problems: { message: string; range: Range; partial?: boolean }[];
  /**
   * Lines that look like a launch but are not one RoPE Lens judges, and why (`RUN vllm serve …`
   * runs at build time): said in the CLI summary, `--verbose`, `--json` and the hover, never silent.
   */
  unread?: { program: string; message: string; range: Range }[];
}

/** A file a script sources (`source ../setup.sh`), as the front-end found it. */
export interface SourcedFile {
  /** Where it was found (for notes), e.g. `../setup_llama_server.sh` resolved beside the script. */
  path: string;
  text: string;
}
/**
 * Reads the file a script sources, by the name written in the script (already expanded): the
 * front-end looks beside the script and in its workspace; undefined when it is not there.
 */
export type SourceReader = (name: string) => SourcedFile | undefined;

/**
 * The shell grammar, injected: shared/ stays pure and synchronous, the Node layer loads the
 * tree-sitter-bash WASM once (shared/node/shellParser.ts) and hands the parser to the service.
 */
export interface ShellParser {
  /** A tree-sitter tree of `text` (web-tree-sitter's Parser.parse). */
  parse(text: string): import('web-tree-sitter').Tree | null;
}
