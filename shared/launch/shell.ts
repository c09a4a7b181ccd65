/**
 * Shell scripts → invocations, through tree-sitter-bash (injected as ShellParser). The walk keeps
 * variables statement by statement, records functions and expands them where they are called,
 * peels wrappers (`exec`, `env`, `docker run …`) and reports the commands that launch a known
 * program. Heredoc bodies and comments are never commands.
 */
import type { Node } from 'web-tree-sitter';
import { LAUNCH_ENV_PREFIXES, isLaunchInvocation, mentionsLaunchWord } from './sniff';
import { LineMap } from './text';
import type { Invocation, LaunchFile, ShellParser, SourceReader, Token } from './types';
import { peelWrappers } from './shell/peel';
import { prepareShell, SHELL_LIMITS } from './shell/prepare';
import { Scope, type Binding } from './shell/scope';
import { ParseSource } from './shell/source';
import { WordEvaluator } from './shell/words';
import { embeddedScript, joinedMap } from './shell/embedded';
import { pathAfterVariables } from './vars';

export interface ShellReadOptions {
  /** Report every command, not only those that launch a known program (tests, tools). */
  keepAll?: boolean;
  /** Variables already exported when the script starts (a Dockerfile's `ENV` for its shell-form CMD). */
  env?: Record<string, Token>;
  /** Variables set but not exported when the script starts (the outer script's, for a `bash -c "…$X…"`). */
  vars?: Record<string, Token>;
  /** What the invocations say they came from (a Dockerfile's shell form says 'dockerfile'). */
  source?: Invocation['source'];
  limits?: typeof SHELL_LIMITS;
  /** How many `sh -c` scripts deep this text is (nested scripts stop at MAX_SHELL_C_DEPTH). */
  depth?: number;
  /**
   * Reads a file the script sources (`source ../setup.sh`, `. ./env.sh`); the front-end looks
   * beside the script and in the workspace. Without it, or when it finds nothing, launches after
   * the `source` say that its functions and variables are unknown.
   */
  readSourced?: SourceReader;
}

export interface ShellResult {
  invocations: Invocation[];
  problems: LaunchFile['problems'];
}

const MAX_DEPTH = 400;
const MAX_CALL_DEPTH = 8;
const MAX_ERRORS_REPORTED = 3;
const MAX_SHELL_C_DEPTH = 3;
/** `source` inside a sourced file inside …: how deep files are followed. */
const MAX_SOURCE_DEPTH = 4;
/** A sourced file larger than this is not read (it is a library, not a setup script). */
const MAX_SOURCED_CHARS = 1_000_000;

const named = (n: Node): Node[] => n.namedChildren.filter((c): c is Node => !!c);

/** A whole shell script. */
export function readShellScript(text: string, parser: ShellParser, opts: ShellReadOptions = {}): ShellResult {
  const doc = new LineMap(text);
  const prep = prepareShell(doc, opts.limits);
  const problems = prep.problems.map((p) => ({ message: p.message, range: doc.range(p.offset, p.length), partial: true }));
  const r = readShellSource(prep.source, parser, opts);
  return { invocations: r.invocations, problems: [...problems, ...r.problems] };
}

/** Shell text embedded in another document (a Dockerfile's shell-form CMD): only these spans are parsed. */
export function readShellSpans(doc: LineMap, spans: { offset: number; length: number }[], parser: ShellParser, opts: ShellReadOptions = {}): ShellResult {
  return readShellSource(ParseSource.pieces(doc, spans), parser, opts);
}

/** Shell text taken out of another format (a YAML scalar, a JSON string), mapped back to the document. */
export function readShellValue(
  doc: LineMap,
  value: string,
  pieces: { valueStart: number; docStart: number }[],
  parser: ShellParser,
  opts: ShellReadOptions = {},
): ShellResult {
  return readShellSource(ParseSource.mapped(doc, value, pieces), parser, opts);
}

function readShellSource(src: ParseSource, parser: ShellParser, opts: ShellReadOptions): ShellResult {
  let tree;
  try {
    tree = parser.parse(src.parsed);
  } catch (e) {
    return { invocations: [], problems: [{ message: `the shell parser failed: ${(e as Error)?.message ?? e}`, range: src.range(0, 0) }] };
  }
  if (!tree) return { invocations: [], problems: [{ message: 'the shell parser returned no tree', range: src.range(0, 0) }] };
  const shared = newShared();
  try {
    const w = new ShellWalker(src, parser, opts, shared);
    const top = new Scope();
    for (const [name, token] of Object.entries(opts.vars ?? {})) {
      top.set(name, { value: token.value, known: token.known, token, assignedAt: token.range, exported: false, via: token.via, runs: token.runs });
    }
    for (const [name, token] of Object.entries(opts.env ?? {})) {
      top.set(name, { value: token.value, known: token.known, token, assignedAt: token.range, exported: true, via: token.via, runs: token.runs });
    }
    w.walk(tree.rootNode, top, 0);
    if (tree.rootNode.hasError) w.reportErrors(tree.rootNode);
    return { invocations: shared.invocations, problems: shared.problems };
  } finally {
    tree.delete();
    // Sourced files' trees live until the end: their functions may be called anywhere after.
    for (const t of shared.trees) t.delete();
  }
}

/** A command's node and where it really starts (after stray assignments tree-sitter attached to it). */
interface CommandAt {
  node: Node;
  start: number;
}

interface CallFrame {
  name: string;
  call: CommandAt;
  /** The call's command name (parsed offsets in `src`): where values written in a sourced file enter this one. */
  nameAt: { start: number; end: number };
  /** The text the call is in. */
  src: ParseSource;
  defined: Node;
  /** The walker of the file the function is defined in. */
  owner: ShellWalker;
  /** A local script the command runs (`./serve.sh "$@"`), rather than a shell function. */
  script?: true;
}

/** What the script and the files it sources share: one function table, one call stack, one output. */
interface Shared {
  invocations: Invocation[];
  problems: LaunchFile['problems'];
  functions: Map<string, { body: Node; owner: ShellWalker }>;
  calls: CallFrame[];
  /** Sourced files' trees, deleted when the whole read ends. */
  trees: { delete(): void }[];
  /** Files being sourced now (a file that sources itself is not followed round). */
  visiting: Set<string>;
}

const newShared = (): Shared => ({ invocations: [], problems: [], functions: new Map(), calls: [], trees: [], visiting: new Set() });

class ShellWalker {
  private readonly words: WordEvaluator;
  private deepWarned = false;
  /** The if/elif/else/case-item/loop branches the walk is in, outermost first, each with its own id. */
  private readonly branch: number[] = [];
  private nextBranch = 0;
  /** Sourced files that were not found (`source .env`, `. ./config.sh`), in order. */
  private readonly sourced: string[] = [];
  /** The text exports an engine's variable (`export LLAMA_ARG_CTX_SIZE=…`): commands after it may launch through it. */
  private readonly exportsLaunchEnv: boolean;

  constructor(
    private readonly src: ParseSource,
    private readonly parser: ShellParser,
    private readonly opts: ShellReadOptions,
    private readonly shared: Shared,
    /** How many `source`s deep this file is (0: the document itself). */
    private readonly sourceDepth = 0,
  ) {
    this.words = new WordEvaluator(src, () => this.branch);
    this.exportsLaunchEnv = LAUNCH_ENV_PREFIXES.some((p) => src.parsed.includes(p)) && /\bexport\b|\bdeclare\s+-\w*x/.test(src.parsed);
  }

  get invocations(): Invocation[] {
    return this.shared.invocations;
  }
  get problems(): LaunchFile['problems'] {
    return this.shared.problems;
  }
  private get functions() {
    return this.shared.functions;
  }
  private get calls() {
    return this.shared.calls;
  }

  walk(n: Node, scope: Scope, depth: number): void {
    if (depth > MAX_DEPTH) {
      if (!this.deepWarned)
        this.problems.push({ message: `nesting deeper than ${MAX_DEPTH} levels was not read`, range: this.src.range(n.startIndex, n.startIndex) });
      this.deepWarned = true;
      return;
    }
    switch (n.type) {
      case 'comment':
      case 'heredoc_body':
      case 'heredoc_redirect':
      case 'herestring_redirect':
      case 'file_redirect':
        return;
      case 'function_definition': {
        const name = n.childForFieldName('name')?.text;
        const body = n.childForFieldName('body');
        if (name && body) this.functions.set(name, { body, owner: this });
        return;
      }
      case 'variable_assignment':
        this.assign(n, scope, false);
        this.walkSubstitutions(n, scope, depth);
        return;
      case 'declaration_command':
        this.declare(n, scope);
        this.walkSubstitutions(n, scope, depth);
        return;
      case 'unset_command':
        for (const c of named(n)) if (c.type === 'variable_name' || c.type === 'word') scope.unset(c.text);
        return;
      case 'command':
        this.command(n, scope, depth);
        return;
      case 'subshell':
      case 'command_substitution':
      case 'process_substitution': {
        const inner = new Scope(scope, scope.args());
        for (const c of named(n)) this.walk(c, inner, depth + 1);
        return;
      }
      case 'redirected_statement': {
        const body = n.childForFieldName('body');
        if (body) this.walk(body, scope, depth + 1);
        return;
      }
      case 'if_statement':
      case 'elif_clause':
      case 'else_clause':
      case 'case_item':
      case 'for_statement':
      case 'c_style_for_statement':
      case 'while_statement':
        // A branch: what it assigns may not happen on every run.
        this.branch.push(this.nextBranch++);
        try {
          for (const c of named(n)) this.walk(c, scope, depth + 1);
        } finally {
          this.branch.pop();
        }
        return;
      case 'pipeline':
      case 'list':
        // `a | b | c …` nests one level per operator: flattened here so a long chain costs no depth.
        for (const c of flattenChain(n)) this.walk(c, scope, depth + 1);
        return;
      default:
        for (const c of named(n)) this.walk(c, scope, depth + 1);
    }
  }

  /** `$( … )` inside arguments or assignment values run too. */
  private walkSubstitutions(n: Node, scope: Scope, depth: number): void {
    if (!n.text.includes('$(') && !n.text.includes('`') && !n.text.includes('<(')) return;
    const visit = (c: Node, d: number) => {
      if (d > 64) return;
      if (c.type === 'command_substitution' || c.type === 'process_substitution') {
        this.walk(c, scope, depth + 1);
        return;
      }
      for (const k of named(c)) visit(k, d + 1);
    };
    for (const c of named(n)) visit(c, 0);
  }

  private assign(n: Node, scope: Scope, exported: boolean, into: Scope = scope): void {
    const nameNode = n.childForFieldName('name');
    if (!nameNode) return;
    const name = nameNode.type === 'subscript' ? (nameNode.childForFieldName('name')?.text ?? nameNode.text) : nameNode.text;
    const value = n.childForFieldName('value');
    const append = n.children.some((c) => c?.type === '+=');
    const prev = scope.get(name);
    let b: Binding;
    if (nameNode.type === 'subscript') {
      // `A[i]=v`: the array changes in a way we do not track element by element.
      b = { value: prev?.value ?? '', known: false, exported: prev?.exported ?? exported };
    } else if (value?.type === 'array') {
      const elements = named(value)
        .filter((c) => c.type !== 'comment')
        .flatMap((c) => this.words.args(c, scope));
      const all = append && prev?.elements ? [...prev.elements, ...elements] : elements;
      b = {
        value: all.map((e) => e.value).join(' '),
        known: all.every((e) => e.known),
        elements: all,
        exported: prev?.exported || exported,
        assignedAt: this.src.range(value.startIndex, value.endIndex),
      };
    } else {
      const p = value ? this.words.word(value, scope) : { value: '', known: true, via: [], quotes: new Set<'none'>(['none']) };
      const start = value ? value.startIndex : n.endIndex;
      const end = value ? value.endIndex : n.endIndex;
      const full = append && prev ? { value: prev.value + p.value, known: prev.known && p.known } : { value: p.value, known: p.known };
      const token = this.src.token(start, end, { value: full.value, quote: quoteFromNode(value), known: full.known, via: p.via });
      // `CMD+=" --max-model-len 65536"`: the earlier parts keep their places, the new one follows.
      const shift = append && prev ? prev.value.length : 0;
      const runs = [...(append && prev?.runs ? prev.runs : []), ...(p.runs ?? []).map((r) => ({ ...r, at: r.at + shift }))];
      if (runs.length) token.runs = runs;
      if (!this.src.from) {
        const at = this.src.span(nameNode.startIndex, nameNode.endIndex);
        token.nameAt = { ...at, range: this.src.doc.range(at.offset, at.length) };
      }
      b = { ...full, token, assignedAt: token.range, exported: prev?.exported || exported, via: p.via };
      if (runs.length) b.runs = runs;
    }
    if (this.branch.length) b.branch = [...this.branch];
    if (this.src.from) b.from = this.src.from;
    // `local ctx=$2`: the value is the call's argument (a use of `$ctx` is that token).
    const positional = value && /^"?\$\{?([1-9])\}?"?$/.exec(value.text);
    const arg = positional ? scope.args()?.[Number(positional[1]) - 1] : undefined;
    if (arg && !append) b.argToken = arg;
    into.set(name, b);
  }

  /** `export A=1 B`, `local X=2`, `declare -x Y=3`, `readonly Z=4`. */
  private declare(n: Node, scope: Scope): void {
    const keyword = n.child(0)?.type ?? '';
    const flags = named(n)
      .filter((c) => c.type === 'word' && c.text.startsWith('-'))
      .map((c) => c.text)
      .join('');
    const exported = keyword === 'export' || /x/.test(flags);
    // `local` binds in the function's scope; at top level (no function) it is the same scope.
    for (const c of named(n)) {
      if (c.type === 'variable_assignment') this.assign(c, scope, exported);
      else if (c.type === 'variable_name' && exported) scope.markExported(c.text);
      else if (c.type === 'variable_name' && keyword === 'local') scope.set(c.text, { value: '', known: true, exported: false });
    }
  }

  private command(n: Node, scope: Scope, depth: number): void {
    const kids = n.children.filter((c): c is Node => !!c);
    const prefix: Node[] = [];
    let nameNode: Node | undefined;
    const argNodes: Node[] = [];
    for (let i = 0; i < kids.length; i++) {
      const field = n.fieldNameForChild(i);
      const c = kids[i];
      if (field === 'name') nameNode = c;
      else if (field === 'argument') argNodes.push(c);
      else if (c.type === 'variable_assignment' && !nameNode) prefix.push(c);
    }
    const nameWord = nameNode?.firstNamedChild ?? nameNode;
    if (!nameWord) {
      for (const p of prefix) this.assign(p, scope, false);
      return;
    }
    // tree-sitter-bash reads `A=1 B=2⏎cmd` as one command with prefix assignments; bash runs
    // two statements. A line break before the name means the assignments stand alone.
    if (prefix.length && /[\r\n]/.test(this.src.parsed.slice(prefix[prefix.length - 1].endIndex, nameWord.startIndex))) {
      for (const p of prefix) this.assign(p, scope, false);
      prefix.length = 0;
    }
    const start = prefix.length ? n.startIndex : nameWord.startIndex;
    const plainName = nameWord.type === 'word' ? nameWord.text : undefined;
    if ((plainName === 'source' || plainName === '.') && argNodes.length) {
      this.source(argNodes[0], scope, depth);
      return;
    }
    const text = n.text;
    // Cheap skip: a plain command that names no launch word, no function and no variable (and
    // runs in no engine variables the script exported: `export LLAMA_ARG_CTX_SIZE=…` then `./start.sh`).
    const isFunction = plainName !== undefined && this.functions.has(plainName);
    if (
      !this.opts.keepAll &&
      !isFunction &&
      plainName !== undefined &&
      !text.includes('$') &&
      !mentionsLaunchWord(text) &&
      !this.mentionsFunction(text) &&
      !this.exportsLaunchEnv &&
      !(this.opts.readSourced && LOCAL_SCRIPT_WORD.test(text))
    ) {
      this.walkSubstitutions(n, scope, depth);
      return;
    }
    // Prefix assignments (`A=1 cmd`) hold for this command only.
    const local = new Scope(scope, scope.args());
    for (const p of prefix) this.assign(p, scope, true, local);
    const argv = [nameWord, ...argNodes].flatMap((c) => this.words.args(c, local));
    const hostEnv: Record<string, Token> = {};
    for (const [k, b] of local.exported()) if (b.token) hostEnv[k] = b.token;
    const peeled = peelWrappers(argv, this.src.doc, hostEnv);
    const program = peeled.argv[0]?.value;
    if (!peeled.container && program !== undefined && this.functions.has(program)) {
      const nameTok = peeled.argv[0];
      const nameAt =
        nameTok.offset === this.src.span(nameWord.startIndex, nameWord.endIndex).offset
          ? { start: nameWord.startIndex, end: nameWord.endIndex }
          : { start, end: start };
      this.callFunction(program, { node: n, start }, nameAt, peeled.argv.slice(1), local, peeled.env, depth);
    } else if (!peeled.container && this.runScript(peeled.argv, { node: n, start }, [nameWord, ...argNodes], local, peeled.env, depth)) {
      // A local script that starts an engine with this command's arguments: read through it.
    } else if (peeled.argv.length || peeled.image) {
      // In a container only what `docker run` passes applies; otherwise the script's exports too.
      const env: Record<string, Token> = peeled.container ? {} : { ...hostEnv };
      Object.assign(env, peeled.env);
      this.emit({ node: n, start }, peeled.argv, env, peeled.entrypoint, peeled.image, peeled.notes, local, peeled.appendable);
    }
    this.walkSubstitutions(n, scope, depth);
  }

  /** Whether a command's text names a function (so a wrapper like `nohup serve …` is followed). */
  private mentionsFunction(text: string): boolean {
    if (!this.functions.size) return false;
    for (const w of text.split(/[\s;&|()]+/)) if (this.functions.has(w)) return true;
    return false;
  }

  private callFunction(
    name: string,
    call: CommandAt,
    nameAt: CallFrame['nameAt'],
    args: Token[],
    scope: Scope,
    env: Record<string, Token>,
    depth: number,
  ): void {
    const { body, owner } = this.functions.get(name)!;
    if (this.calls.length >= MAX_CALL_DEPTH || this.calls.some((f) => f.defined === body)) return; // recursion
    const inner = new Scope(scope, args);
    for (const [k, t] of Object.entries(env)) inner.set(k, { value: t.value, known: t.known, token: t, assignedAt: t.range, exported: true });
    this.calls.push({ name, call, nameAt, src: this.src, defined: body, owner });
    try {
      owner.walk(body, inner, depth + 1);
    } finally {
      this.calls.pop();
    }
  }

  /**
   * `./serve.sh "$MODEL" 32768`, `bash run_vllm.sh --max-model-len 65536`: a script in the workspace
   * that starts an engine with the arguments it is given (`exec vllm serve "$@"`, `--model "$1"`).
   * It runs in a new shell: its arguments are this command's words (so a finding lands on the
   * user's token), its environment what this script exported. False when it is not such a script.
   */
  private runScript(argv: Token[], call: CommandAt, words: Node[], scope: Scope, env: Record<string, Token>, depth: number): boolean {
    const target = localScriptOf(argv);
    if (!target || !this.opts.readSourced || this.sourceDepth >= MAX_SOURCE_DEPTH || this.calls.length >= MAX_CALL_DEPTH) return false;
    const file = safeRead(this.opts.readSourced, target.path);
    if (!file || file.text.length > MAX_SOURCED_CHARS || this.shared.visiting.has(file.path) || !mentionsLaunchWord(file.text)) return false;
    // A script that takes no arguments from its caller is judged on its own when it is checked: followed
    // only when this command hands it arguments it reads (`"$@"`, `$1`, `${2:-…}`, `$*`).
    if (!target.args.length || !POSITIONAL_USE.test(file.text)) return false;
    const doc = new LineMap(file.text);
    const prep = prepareShell(doc);
    let tree;
    try {
      tree = this.parser.parse(prep.source.parsed);
    } catch {
      tree = null;
    }
    if (!tree) return false;
    this.shared.trees.push(tree);
    const child = new ShellWalker(prep.source.withOrigin(target.path), this.parser, { ...this.opts, keepAll: false }, this.shared, this.sourceDepth + 1);
    const inner = new Scope(undefined, target.args);
    for (const [k, b] of scope.exported()) inner.set(k, b);
    for (const [k, t] of Object.entries(env)) inner.set(k, { value: t.value, known: t.known, token: t, assignedAt: t.range, exported: true });
    // The script's word in this file: where values written in the script enter it.
    const word = words.find((w) => this.src.span(w.startIndex, w.endIndex).offset === target.nameToken.offset);
    const nameAt = word ? { start: word.startIndex, end: word.endIndex } : { start: call.start, end: call.start };
    const before = this.shared.invocations.length;
    this.calls.push({ name: target.path, call, nameAt, src: this.src, defined: tree.rootNode, owner: child, script: true });
    this.shared.visiting.add(file.path);
    try {
      child.walk(tree.rootNode, inner, depth + 1);
    } finally {
      this.shared.visiting.delete(file.path);
      this.calls.pop();
    }
    return this.shared.invocations.length > before;
  }

  /**
   * `source FILE` / `. FILE`: the file runs in this shell, so its functions and variables are read
   * into this scope when the front-end can read it (beside the script or in the workspace). Its
   * own launches are not reported here (checking that file reports them).
   */
  private source(arg: Node, scope: Scope, depth: number): void {
    const written = arg.text;
    const w = this.words.word(arg, scope);
    // `$(dirname "$0")/setup.sh`, `${SCRIPT_DIR}/setup.sh`: the script's own folder, unknown
    // statically; the name after it is looked up beside the script.
    const name = w.known ? w.value : pathAfterVariables(w.value);
    const file = name && this.opts.readSourced && this.sourceDepth < MAX_SOURCE_DEPTH ? safeRead(this.opts.readSourced, name) : undefined;
    if (!file || file.text.length > MAX_SOURCED_CHARS) {
      // A file sourced inside a branch (`if [[ -f ../.env ]]; then source ../.env; fi`) is optional: not said.
      if (!this.branch.length) this.sourced.push(written);
      return;
    }
    if (this.shared.visiting.has(file.path)) return;
    const doc = new LineMap(file.text);
    const prep = prepareShell(doc);
    let tree;
    try {
      tree = this.parser.parse(prep.source.parsed);
    } catch {
      tree = null;
    }
    if (!tree) {
      this.sourced.push(written);
      return;
    }
    this.shared.trees.push(tree);
    // Tokens and notes name the file as the script wrote it (`../setup_llama_server.sh`).
    const child = new ShellWalker(
      prep.source.withOrigin(w.known ? w.value : written),
      this.parser,
      { ...this.opts, keepAll: false },
      this.shared,
      this.sourceDepth + 1,
    );
    this.shared.visiting.add(file.path);
    try {
      child.walk(tree.rootNode, scope, depth + 1);
    } finally {
      this.shared.visiting.delete(file.path);
    }
    this.sourced.push(...child.sourced);
  }

  private emit(
    n: CommandAt,
    argv: Token[],
    env: Record<string, Token>,
    entrypoint: Invocation['entrypoint'],
    image: Token | undefined,
    notes: string[],
    scope: Scope,
    appendable = true,
  ): void {
    // Inside a function, the invocation is said to be where the function was called (outermost call).
    const outer = this.calls[0];
    // A launch written in a sourced file and run there, not through a call from the document: that file's own.
    if (this.src.from && !outer) return;
    const at = outer ? outer.call : n;
    const atSrc = outer ? outer.src : this.src;
    const doc = atSrc.doc;
    const span = atSrc.span(at.start, at.node.endIndex);
    const inv: Invocation = {
      argv,
      entrypoint,
      env,
      source: this.opts.source ?? 'shell',
      range: doc.range(span.offset, span.length),
      offset: span.offset,
      length: span.length,
      notes: [
        ...notes,
        ...this.calls.map((f) => {
          if (f.script) return `through the script ${f.name} (read from the workspace), which starts it with the arguments given here`;
          const line = f.owner.src.range(f.defined.startIndex, f.defined.startIndex).start.line + 1;
          return `through the shell function ${f.name}() defined ${f.owner.src.from ? `in ${f.owner.src.from} (sourced) ` : ''}on line ${line}`;
        }),
      ],
    };
    if (this.sourced.length)
      inv.notes.push(`${this.sourced.join(', ')} (sourced) was not found beside the script or in the workspace: functions and variables set there are unknown`);
    if (image) inv.image = image;
    const append = appendable ? appendAfter(atSrc, at) : undefined;
    if (append) inv.append = append;
    if (outer) reanchor(inv, doc, atSrc.span(outer.nameAt.start, outer.nameAt.end));
    else stripForeignTraces(inv);
    // `bash -c "vllm serve …"` in a script: the quoted script maps back when it has no escapes.
    const vars = embeddedScript(inv.argv, doc) && !this.src.from ? scope.tokens() : undefined;
    const read = this.src.from ? inv : throughShellC(inv, doc, quotedValueMap, this.parser, this.opts.depth, vars);
    if (this.opts.keepAll || isLaunchInvocation(read)) this.invocations.push(read);
  }

  reportErrors(root: Node): void {
    // A backslash dangling at the end of the file continues onto nothing: bash ignores it, so do we.
    const errors = root
      .descendantsOfType('ERROR')
      .filter((e): e is Node => !!e && !/^[\s\\]*$/.test(e.text))
      .slice(0, MAX_ERRORS_REPORTED);
    if (!errors.length && root.descendantsOfType('ERROR').length) return;
    for (const e of errors) {
      const t = e.text;
      const why = /["'`]/.test(t) ? 'an unterminated quote or bracket?' : 'a syntax error';
      this.problems.push({
        message: `the shell parser could not read this part (${why}); commands in it may be missed`,
        range: this.src.range(e.startIndex, Math.min(e.endIndex, e.startIndex + 200)),
      });
    }
    if (!errors.length) this.problems.push({ message: 'the shell parser met a syntax error (a missing keyword or quote?)', range: this.src.range(0, 0) });
  }
}

/** New flags go after the command's last word, on a new continued line when the command is continued. */
function appendAfter(src: ParseSource, n: CommandAt): Invocation['append'] {
  const doc = src.doc;
  const end = src.span(n.start, n.node.endIndex);
  const offset = end.offset + end.length;
  const raw = doc.text.slice(end.offset, offset);
  const separator = continuedSeparator(raw) ?? ' ';
  return { offset, range: doc.range(offset, 0), separator, form: 'shell' };
}

/** A word that names a local shell script (`./serve.sh`, `scripts/run_vllm.sh`, `start.bash`). */
const LOCAL_SCRIPT_WORD = /(?:^|[\s;&|(])(?:\.{0,2}\/)?[\w.-]+(?:\/[\w.-]+)*\.(?:sh|bash)(?=[\s;&|)]|$)/m;
const POSITIONAL_USE = /\$(?:[1-9@*]|\{[1-9@*#])/;
const SCRIPT_PATH = /^(?:\.{0,2}\/)?[\w.-]+(?:\/[\w.-]+)*\.(?:sh|bash)$/;

/** `./x.sh args…` or `bash|sh x.sh args…` (no `-c`): the script, its word and its arguments. */
function localScriptOf(argv: Token[]): { path: string; nameToken: Token; args: Token[] } | undefined {
  const [first, second] = argv;
  if (!first?.known) return undefined;
  if (SCRIPT_PATH.test(first.value)) return { path: first.value, nameToken: first, args: argv.slice(1) };
  if (/^(?:.*\/)?(?:ba|z|da)?sh$/.test(first.value) && second?.known && SCRIPT_PATH.test(second.value))
    return { path: second.value, nameToken: second, args: argv.slice(2) };
  return undefined;
}

function safeRead(read: SourceReader, name: string): ReturnType<SourceReader> {
  try {
    return read(name);
  } catch {
    return undefined;
  }
}

/** Variable traces through a sourced file's assignments keep their names, not spans of that file. */
function localTraces(t: Token): Token {
  if (!t.via?.some((v) => v.from)) return t;
  return { ...t, via: t.via.map((v) => (v.from ? { name: v.name, from: v.from, ...(v.conditional ? { conditional: true } : {}) } : v)) };
}

function stripForeignTraces(inv: Invocation): void {
  inv.argv = inv.argv.map(localTraces);
  for (const k of Object.keys(inv.env)) inv.env[k] = localTraces(inv.env[k]);
}

/**
 * Tokens written in a sourced file are placed on the call's command name in this document (where
 * their values enter it); the call's own arguments keep their exact spans.
 */
function reanchor(inv: Invocation, doc: LineMap, anchor: { offset: number; length: number }): void {
  const raw = doc.text.slice(anchor.offset, anchor.offset + anchor.length);
  const move = (t: Token): Token => {
    const l = localTraces(t);
    return l.from ? { ...l, raw, offset: anchor.offset, length: anchor.length, range: doc.range(anchor.offset, anchor.length) } : l;
  };
  inv.argv = inv.argv.map(move);
  for (const k of Object.keys(inv.env)) inv.env[k] = move(inv.env[k]);
  if (inv.image) inv.image = move(inv.image);
}

/** The operands of a chain of pipelines and lists, in order, without recursion. */
function flattenChain(n: Node): Node[] {
  const out: Node[] = [];
  const stack: Node[] = [n];
  while (stack.length) {
    const c = stack.pop()!;
    if (c.type === 'pipeline' || c.type === 'list') {
      const kids = named(c);
      for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]);
    } else {
      out.push(c);
    }
  }
  return out;
}

/**
 * A script token quoted whole: read its text as written inside the quotes. For a double-quoted
 * script that is what the inner shell sees once the outer one has expanded `$X`, provided the
 * outer variables are handed in (`vars`); a backslash would mean something else inside, so none.
 */
export const quotedValueMap: ValueMapOf = (t) => {
  const inner = t.raw.slice(1, -1);
  if (t.quote === 'single' && inner === t.value) return { text: inner, pieces: [{ valueStart: 0, docStart: t.offset + 1 }] };
  if (t.quote === 'double' && /^"[^"\\]*"$/.test(t.raw)) return { text: inner, pieces: [{ valueStart: 0, docStart: t.offset + 1 }] };
  if (t.quote === 'none' && t.raw === t.value) return { text: t.value, pieces: [{ valueStart: 0, docStart: t.offset }] };
  return undefined;
};

function quoteFromNode(n: Node | null): Token['quote'] {
  switch (n?.type) {
    case 'raw_string':
      return 'single';
    case 'string':
    case 'translated_string':
      return 'double';
    case 'ansi_c_string':
      return 'ansi-c';
    case 'concatenation':
      return 'mixed';
    default:
      return 'none';
  }
}

// `sh -c "…"` as a container command (compose, Kubernetes, exec-form CMD) or inside a script: the
// script is shell, so it is read as shell and the command it launches becomes the invocation.

/** The text to read as the script (what the inner shell sees), and how it maps back to the document. */
export type ValueMapOf = (t: Token) => { text: string; pieces: { valueStart: number; docStart: number; width?: number }[] } | undefined;

/**
 * The launch inside `sh -c SCRIPT`, or the invocation unchanged. Also for an image's arguments:
 * whoever passes `sh -c …` as CMD means it as the program (an image entrypoint would not run it).
 */
export function throughShellC(
  inv: Invocation,
  doc: LineMap,
  mapOf: ValueMapOf,
  parser: ShellParser | undefined,
  depth?: number,
  vars?: Record<string, Token>,
): Invocation {
  const script = embeddedScript(inv.argv, doc);
  if (!script || (depth ?? 0) >= MAX_SHELL_C_DEPTH) return inv;
  const one = script.tokens.length === 1 ? script.tokens[0] : undefined;
  // A string written as is maps through the adapter's own quoting; `eval`'s words and an assembled `"$CMD"` through their runs.
  // `eval` and a lone `"$CMD"` run the value itself (its text is not in the file as such).
  const valueRead = !one || !!one.runs?.length || script.label === 'eval' || /^"?\$\{?\w+\}?"?$/.test(one.raw);
  const mapped = valueRead ? joinedMap(script.tokens) : mapOf(one);
  if (!parser || !mapped) {
    return {
      ...inv,
      notes: [...inv.notes, `the ${script.label} script was not read${parser ? ' (its text does not map back to the file)' : ' (no shell parser)'}`],
    };
  }
  const r = readShellValue(doc, mapped.text, mapped.pieces, parser, { keepAll: true, env: inv.env, vars, source: inv.source, depth: (depth ?? 0) + 1 });
  const inner = r.invocations.find(isLaunchInvocation);
  if (!inner) return inv;
  const out: Invocation = {
    ...inv,
    argv: inner.argv,
    env: { ...inv.env, ...inner.env },
    entrypoint: inner.entrypoint,
    notes: [...inv.notes, `through ${script.label}`, ...inner.notes],
  };
  if (inner.image) out.image = inner.image;
  // `CMD ["sh", "-c", "…"]` under an image whose entrypoint stays: the image runs `<entrypoint> sh -c …`.
  if (inv.entrypoint === 'image' && inv.image && script.label.endsWith(' -c') && inv.argv[0].offset >= 0)
    out.shellAfterEntrypoint = {
      shell: inv.argv[0].value,
      at: inv.argv[0].range,
      kind: inv.source === 'kubernetes' ? 'args' : inv.source === 'compose' ? 'command' : 'CMD',
    };
  if (inner.append) out.append = inner.append;
  else delete out.append;
  return out;
}

/**
 * ` \` + the line break + the indentation of the command's last line, when that line is reached by
 * a continuation (`\` right before the last line break); undefined otherwise. By index, not by a
 * pattern that looks ahead to the end from every line break.
 */
function continuedSeparator(raw: string): string | undefined {
  const nl = raw.lastIndexOf('\n');
  if (nl < 0 || raw.includes('\r', nl)) return undefined;
  const cr = raw[nl - 1] === '\r';
  if (raw[nl - (cr ? 2 : 1)] !== '\\') return undefined;
  let end = nl + 1;
  while (raw[end] === ' ' || raw[end] === '\t') end++;
  return ` \\${cr ? '\r\n' : '\n'}${raw.slice(nl + 1, end)}`;
}
