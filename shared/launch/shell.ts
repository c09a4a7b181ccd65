/**
 * Shell scripts → invocations, through tree-sitter-bash (injected as ShellParser). The walk keeps
 * variables statement by statement, records functions and expands them where they are called,
 * peels wrappers (`exec`, `env`, `docker run …`) and reports the commands that launch a known
 * program. Heredoc bodies and comments are never commands.
 */
import type { Node } from 'web-tree-sitter';
import { isLaunchInvocation, mentionsLaunchWord } from './sniff';
import { LineMap } from './text';
import type { Invocation, LaunchFile, ShellParser, Token } from './types';
import { peelWrappers } from './shell/peel';
import { prepareShell, SHELL_LIMITS } from './shell/prepare';
import { Scope, type Binding } from './shell/scope';
import { ParseSource } from './shell/source';
import { WordEvaluator } from './shell/words';

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
}

export interface ShellResult {
  invocations: Invocation[];
  problems: LaunchFile['problems'];
}

const MAX_DEPTH = 400;
const MAX_CALL_DEPTH = 8;
const MAX_ERRORS_REPORTED = 3;
const MAX_SHELL_C_DEPTH = 3;

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
export function readShellValue(doc: LineMap, value: string, pieces: { valueStart: number; docStart: number }[], parser: ShellParser, opts: ShellReadOptions = {}): ShellResult {
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
  try {
    const w = new ShellWalker(src, parser, opts);
    const top = new Scope();
    for (const [name, token] of Object.entries(opts.vars ?? {})) {
      top.set(name, { value: token.value, known: token.known, token, assignedAt: token.range, exported: false, via: token.via });
    }
    for (const [name, token] of Object.entries(opts.env ?? {})) {
      top.set(name, { value: token.value, known: token.known, token, assignedAt: token.range, exported: true, via: token.via });
    }
    w.walk(tree.rootNode, top, 0);
    if (tree.rootNode.hasError) w.reportErrors(tree.rootNode);
    return { invocations: w.invocations, problems: w.problems };
  } finally {
    tree.delete();
  }
}

/** A command's node and where it really starts (after stray assignments tree-sitter attached to it). */
interface CommandAt { node: Node; start: number }

interface CallFrame { name: string; call: CommandAt; defined: Node }

class ShellWalker {
  readonly invocations: Invocation[] = [];
  readonly problems: LaunchFile['problems'] = [];
  private readonly functions = new Map<string, Node>();
  private readonly words: WordEvaluator;
  private readonly calls: CallFrame[] = [];
  private deepWarned = false;
  /** The if/elif/else/case-item/loop branches the walk is in, outermost first, each with its own id. */
  private readonly branch: number[] = [];
  private nextBranch = 0;
  /** Files the script sources (`source .env`, `. ./config.sh`), in order. */
  private readonly sourced: string[] = [];

  constructor(private readonly src: ParseSource, private readonly parser: ShellParser, private readonly opts: ShellReadOptions) {
    this.words = new WordEvaluator(src, () => this.branch);
  }

  walk(n: Node, scope: Scope, depth: number): void {
    if (depth > MAX_DEPTH) {
      if (!this.deepWarned) this.problems.push({ message: `nesting deeper than ${MAX_DEPTH} levels was not read`, range: this.src.range(n.startIndex, n.startIndex) });
      this.deepWarned = true;
      return;
    }
    switch (n.type) {
      case 'comment': case 'heredoc_body': case 'heredoc_redirect': case 'herestring_redirect': case 'file_redirect':
        return;
      case 'function_definition': {
        const name = n.childForFieldName('name')?.text;
        const body = n.childForFieldName('body');
        if (name && body) this.functions.set(name, body);
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
      case 'subshell': case 'command_substitution': case 'process_substitution': {
        const inner = new Scope(scope, scope.args());
        for (const c of named(n)) this.walk(c, inner, depth + 1);
        return;
      }
      case 'redirected_statement': {
        const body = n.childForFieldName('body');
        if (body) this.walk(body, scope, depth + 1);
        return;
      }
      case 'if_statement': case 'elif_clause': case 'else_clause': case 'case_item':
      case 'for_statement': case 'c_style_for_statement': case 'while_statement':
        // A branch: what it assigns may not happen on every run.
        this.branch.push(this.nextBranch++);
        try {
          for (const c of named(n)) this.walk(c, scope, depth + 1);
        } finally {
          this.branch.pop();
        }
        return;
      case 'pipeline': case 'list':
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
      if (c.type === 'command_substitution' || c.type === 'process_substitution') { this.walk(c, scope, depth + 1); return; }
      for (const k of named(c)) visit(k, d + 1);
    };
    for (const c of named(n)) visit(c, 0);
  }

  private assign(n: Node, scope: Scope, exported: boolean, into: Scope = scope): void {
    const nameNode = n.childForFieldName('name');
    if (!nameNode) return;
    const name = nameNode.type === 'subscript' ? nameNode.childForFieldName('name')?.text ?? nameNode.text : nameNode.text;
    const value = n.childForFieldName('value');
    const append = n.children.some((c) => c?.type === '+=');
    const prev = scope.get(name);
    let b: Binding;
    if (nameNode.type === 'subscript') {
      // `A[i]=v`: the array changes in a way we do not track element by element.
      b = { value: prev?.value ?? '', known: false, exported: prev?.exported ?? exported };
    } else if (value?.type === 'array') {
      const elements = named(value).filter((c) => c.type !== 'comment').flatMap((c) => this.words.args(c, scope));
      const all = append && prev?.elements ? [...prev.elements, ...elements] : elements;
      b = { value: all.map((e) => e.value).join(' '), known: all.every((e) => e.known), elements: all, exported: prev?.exported || exported, assignedAt: this.src.range(value.startIndex, value.endIndex) };
    } else {
      const p = value ? this.words.word(value, scope) : { value: '', known: true, via: [], quotes: new Set<'none'>(['none']) };
      const start = value ? value.startIndex : n.endIndex;
      const end = value ? value.endIndex : n.endIndex;
      const full = append && prev ? { value: prev.value + p.value, known: prev.known && p.known } : { value: p.value, known: p.known };
      const token = this.src.token(start, end, { value: full.value, quote: quoteFromNode(value), known: full.known, via: p.via });
      b = { ...full, token, assignedAt: token.range, exported: prev?.exported || exported, via: p.via };
    }
    if (this.branch.length) b.branch = [...this.branch];
    into.set(name, b);
  }

  /** `export A=1 B`, `local X=2`, `declare -x Y=3`, `readonly Z=4`. */
  private declare(n: Node, scope: Scope): void {
    const keyword = n.child(0)?.type ?? '';
    const flags = named(n).filter((c) => c.type === 'word' && c.text.startsWith('-')).map((c) => c.text).join('');
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
      // Another file's assignments are not read: launches after it say so.
      this.sourced.push(argNodes[0].text);
      return;
    }
    const text = n.text;
    // Cheap skip: a plain command that names no launch word, no function and no variable.
    const isFunction = plainName !== undefined && this.functions.has(plainName);
    if (!this.opts.keepAll && !isFunction && plainName !== undefined && !text.includes('$') && !mentionsLaunchWord(text) && !this.mentionsFunction(text)) {
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
      this.callFunction(program, { node: n, start }, peeled.argv.slice(1), local, peeled.env, depth);
    } else if (peeled.argv.length || peeled.image) {
      // In a container only what `docker run` passes applies; otherwise the script's exports too.
      const env: Record<string, Token> = peeled.container ? {} : { ...hostEnv };
      Object.assign(env, peeled.env);
      this.emit({ node: n, start }, peeled.argv, env, peeled.entrypoint, peeled.image, peeled.notes, local);
    }
    this.walkSubstitutions(n, scope, depth);
  }

  /** Whether a command's text names a function (so a wrapper like `nohup serve …` is followed). */
  private mentionsFunction(text: string): boolean {
    if (!this.functions.size) return false;
    for (const w of text.split(/[\s;&|()]+/)) if (this.functions.has(w)) return true;
    return false;
  }

  private callFunction(name: string, call: CommandAt, args: Token[], scope: Scope, env: Record<string, Token>, depth: number): void {
    const body = this.functions.get(name)!;
    if (this.calls.length >= MAX_CALL_DEPTH || this.calls.some((f) => f.defined === body)) return; // recursion
    const inner = new Scope(scope, args);
    for (const [k, t] of Object.entries(env)) inner.set(k, { value: t.value, known: t.known, token: t, assignedAt: t.range, exported: true });
    this.calls.push({ name, call, defined: body });
    try {
      this.walk(body, inner, depth + 1);
    } finally {
      this.calls.pop();
    }
  }

  private emit(n: CommandAt, argv: Token[], env: Record<string, Token>, entrypoint: Invocation['entrypoint'], image: Token | undefined, notes: string[], scope: Scope): void {
    // Inside a function, the invocation is said to be where the function was called (outermost call).
    const at = this.calls.length ? this.calls[0].call : n;
    const span = this.src.span(at.start, at.node.endIndex);
    const inv: Invocation = {
      argv, entrypoint, env, source: this.opts.source ?? 'shell',
      range: this.src.doc.range(span.offset, span.length), offset: span.offset, length: span.length,
      notes: [...notes, ...this.calls.map((f) => `through the shell function ${f.name}() defined on line ${this.src.range(f.defined.startIndex, f.defined.startIndex).start.line + 1}`)],
    };
    if (this.sourced.length) inv.notes.push(`variables set in ${this.sourced.join(', ')} (sourced) are not read: values from there are unknown`);
    if (image) inv.image = image;
    const append = this.appendAfter(at);
    if (append) inv.append = append;
    // `bash -c "vllm serve …"` in a script: the quoted script maps back when it has no escapes.
    const vars = scriptIndex(argv) >= 0 ? scope.tokens() : undefined;
    const read = throughShellC(inv, this.src.doc, quotedValueMap, this.parser, this.opts.depth, vars);
    if (this.opts.keepAll || isLaunchInvocation(read)) this.invocations.push(read);
  }

  /** New flags go after the command's last word, on a new continued line when the command is continued. */
  private appendAfter(n: CommandAt): Invocation['append'] {
    const doc = this.src.doc;
    const end = this.src.span(n.start, n.node.endIndex);
    const offset = end.offset + end.length;
    const raw = doc.text.slice(end.offset, offset);
    const cont = /\\(\r?\n)([ \t]*)(?=[^\r\n]*$)/.exec(raw);
    const separator = cont ? ` \\${cont[1]}${cont[2]}` : ' ';
    return { offset, range: doc.range(offset, 0), separator, form: 'shell' };
  }

  reportErrors(root: Node): void {
    // A backslash dangling at the end of the file continues onto nothing: bash ignores it, so do we.
    const errors = root.descendantsOfType('ERROR').filter((e): e is Node => !!e && !/^[\s\\]*$/.test(e.text)).slice(0, MAX_ERRORS_REPORTED);
    if (!errors.length && root.descendantsOfType('ERROR').length) return;
    for (const e of errors) {
      const t = e.text;
      const why = /["'`]/.test(t) ? 'an unterminated quote or bracket?' : 'a syntax error';
      this.problems.push({ message: `the shell parser could not read this part (${why}); commands in it may be missed`, range: this.src.range(e.startIndex, Math.min(e.endIndex, e.startIndex + 200)) });
    }
    if (!errors.length) this.problems.push({ message: 'the shell parser met a syntax error (a missing keyword or quote?)', range: this.src.range(0, 0) });
  }
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
    case 'raw_string': return 'single';
    case 'string': case 'translated_string': return 'double';
    case 'ansi_c_string': return 'ansi-c';
    case 'concatenation': return 'mixed';
    default: return 'none';
  }
}

// `sh -c "…"` as a container command (compose, Kubernetes, exec-form CMD) or inside a script: the
// script is shell, so it is read as shell and the command it launches becomes the invocation.

/** The text to read as the script (what the inner shell sees), and how it maps back to the document. */
export type ValueMapOf = (t: Token) => { text: string; pieces: { valueStart: number; docStart: number }[] } | undefined;

const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ash']);

/** Index of the script in `sh [-e…] -c SCRIPT`, or -1. */
function scriptIndex(argv: Token[]): number {
  const prog = argv[0]?.value ?? '';
  if (!SHELLS.has(prog.slice(prog.lastIndexOf('/') + 1))) return -1;
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i].value;
    if (/^-[a-z]*c[a-z]*$/.test(a)) return i + 1 < argv.length ? i + 1 : -1;
    if (!a.startsWith('-')) return -1;
  }
  return -1;
}

/**
 * The launch inside `sh -c SCRIPT`, or the invocation unchanged. Also for an image's arguments:
 * whoever passes `sh -c …` as CMD means it as the program (an image entrypoint would not run it).
 */
export function throughShellC(inv: Invocation, doc: LineMap, mapOf: ValueMapOf, parser: ShellParser | undefined, depth?: number, vars?: Record<string, Token>): Invocation {
  const at = scriptIndex(inv.argv);
  if (at < 0 || (depth ?? 0) >= MAX_SHELL_C_DEPTH) return inv;
  const script = inv.argv[at];
  const mapped = mapOf(script);
  if (!parser || !mapped) {
    return { ...inv, notes: [...inv.notes, `the ${inv.argv[0].value} -c script was not read${parser ? ' (its text does not map back to the file)' : ' (no shell parser)'}`] };
  }
  const r = readShellValue(doc, mapped.text, mapped.pieces, parser, { keepAll: true, env: inv.env, vars, source: inv.source, depth: (depth ?? 0) + 1 });
  const inner = r.invocations.find(isLaunchInvocation);
  if (!inner) return inv;
  const out: Invocation = {
    ...inv,
    argv: inner.argv,
    env: { ...inv.env, ...inner.env },
    entrypoint: inner.entrypoint,
    notes: [...inv.notes, `through ${inv.argv[0].value} -c`, ...inner.notes],
  };
  if (inner.image) out.image = inner.image;
  if (inner.append) out.append = inner.append; else delete out.append;
  return out;
}
