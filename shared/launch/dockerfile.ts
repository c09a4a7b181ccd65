/**
 * Dockerfiles → the container's start command, per Docker's rules: the last stage's ENTRYPOINT
 * and CMD (a stage built `FROM` an earlier stage inherits them), exec form as JSON strings with
 * their spans, shell form parsed as shell (`/bin/sh -c`). `RUN` runs at build time: never a launch.
 */
import { DockerfileParser, type Instruction, type JSONInstruction } from 'dockerfile-ast';
import type { Range } from '../core/range';
import { quotedValueMap, readShellSpans, throughShellC } from './shell';
import { isLaunchImage, isLaunchInvocation, launchArgv, mentionsLaunchWord, startsWithLaunch } from './sniff';
import { LineMap, makeToken, spanOf } from './text';
import type { Invocation, LaunchFile, ShellParser, Token } from './types';
import { substitute } from './vars';
import { enUS } from '../core/format';
import { trailingRun } from '../core/text';

/** One ENTRYPOINT or CMD as written. */
interface StartCommand {
  form: 'exec' | 'shell';
  instruction: Instruction;
  /** Exec form: the array's strings. Shell form: the shell text's spans (continuations included). */
  tokens: Token[];
  shellSpan?: { offset: number; length: number };
  /** Exec form: where a new element goes. */
  append?: Invocation['append'];
}

interface Stage {
  name?: string;
  /** The external image this stage builds on (through earlier stages). */
  image?: Token;
  env: Record<string, Token>;
  args: Record<string, Token>;
  entrypoint?: StartCommand;
  cmd?: StartCommand;
  /** This stage's FROM instruction. */
  from?: Instruction;
}

export function readDockerfile(text: string, shell?: ShellParser): LaunchFile {
  const doc = new LineMap(text);
  const offsetOf = (p: Range['start']) => doc.offset(p);
  const spanOfRange = (r: Range) => ({ offset: offsetOf(r.start), length: offsetOf(r.end) - offsetOf(r.start) });
  const problems: LaunchFile['problems'] = [];
  const reduced = reduceDockerfile(text);
  for (const p of reduced.problems) problems.push({ message: p.message, range: doc.range(p.offset, 0), ...(p.partial ? { partial: true } : {}) });
  const df = DockerfileParser.parse(reduced.text);
  if (df.getEscapeCharacter() !== '\\')
    problems.push({ message: 'the escape character is not a backslash: shell-form commands were read as if it were', range: doc.range(0, 0) });

  const globalArgs: Record<string, Token> = {};
  const unread: NonNullable<LaunchFile['unread']> = [];
  const stages: Stage[] = [];
  let cur: Stage | undefined;
  const lookup = (name: string) => {
    const t = cur ? (cur.env[name] ?? cur.args[name]) : globalArgs[name];
    return t ? { value: t.value, known: t.known, via: [{ name, assignedAt: t.range }, ...(t.via ?? [])] } : undefined;
  };
  /** A token for a span whose value is Dockerfile-substituted text. */
  const tokenOf = (r: Range, rawValue: string): Token => {
    const s = spanOfRange(r);
    const raw = text.slice(s.offset, s.offset + s.length);
    const quote = raw.startsWith('"') ? 'double' : raw.startsWith("'") ? 'single' : 'none';
    const v = substitute(rawValue, lookup);
    return makeToken(doc, { ...s, value: v.value, quote, known: v.known, via: v.via });
  };

  for (const ins of df.getInstructions()) {
    const kw = ins.getKeyword().toUpperCase();
    if (kw === 'FROM') {
      const from = ins as unknown as { getImage(): string | null; getImageRange(): Range | null; getBuildStage(): string | null };
      const imageRange = from.getImageRange();
      const image = imageRange ? tokenOf(imageRange, from.getImage() ?? '') : undefined;
      const parent = image ? stages.find((s) => s.name !== undefined && s.name.toLowerCase() === image.value.toLowerCase()) : undefined;
      cur = parent
        ? {
            name: from.getBuildStage() ?? undefined,
            image: parent.image,
            env: { ...parent.env },
            args: {},
            entrypoint: parent.entrypoint,
            cmd: parent.cmd,
            from: ins,
          }
        : { name: from.getBuildStage() ?? undefined, image, env: {}, args: {}, from: ins };
      stages.push(cur);
    } else if (kw === 'ARG' || kw === 'ENV') {
      const props = (
        ins as unknown as { getProperties(): { getName(): string; getValue(): string | null; getValueRange(): Range | null; getNameRange(): Range }[] }
      ).getProperties();
      for (const p of props) {
        const vr = p.getValueRange();
        const name = p.getName();
        if (kw === 'ARG' && !vr) {
          // `ARG NAME` in a stage re-declares a global ARG (its default carries over).
          if (cur && globalArgs[name]) cur.args[name] = globalArgs[name];
          continue;
        }
        const tok = vr ? tokenOf(vr, p.getValue() ?? '') : makeToken(doc, { ...spanOfRange(p.getNameRange()), value: '', quote: 'none' });
        if (kw === 'ENV' && cur) {
          const n = spanOfRange(p.getNameRange());
          cur.env[name] = { ...tok, nameAt: { ...n, range: doc.range(n.offset, n.length) } };
        } else if (kw === 'ARG') (cur ? cur.args : globalArgs)[name] = tok;
      }
    } else if (kw === 'RUN') {
      const launch = buildStepLaunch(ins as JSONInstruction, doc, spanOfRange, shell);
      if (launch) {
        const r = ins.getRange();
        unread.push({
          program: launch,
          message: `RUN ${launch} … runs while the image is built, not when the container starts: a build step, not judged as a launch (the container's launch is its CMD or ENTRYPOINT).`,
          range: doc.range(doc.offset(r.start), doc.offset(r.end) - doc.offset(r.start)),
        });
      }
    } else if ((kw === 'CMD' || kw === 'ENTRYPOINT') && cur) {
      const sc = startCommand(ins as JSONInstruction, doc, spanOfRange);
      if (kw === 'ENTRYPOINT') {
        cur.entrypoint = sc;
        cur.cmd = undefined;
      } // Docker resets an inherited CMD
      else cur.cmd = sc;
    }
  }

  const last = stages[stages.length - 1];
  const invocations: Invocation[] = [];
  if (last && (last.entrypoint || last.cmd)) {
    const combined = combine(last, doc, shell, problems);
    // `["/bin/sh", "-c", "vllm serve …"]`: the script is read as shell where its JSON string has no escapes.
    const inv = combined && throughShellC(combined, doc, (t) => quotedValueMap(t) ?? jsonStringMap(t), shell);
    const cmdAt = last.cmd?.instruction.getRange().start;
    if (inv?.shellAfterEntrypoint && cmdAt) {
      // `ENTRYPOINT []` on its own line above the CMD, indented as the CMD is.
      const at = doc.offset(cmdAt);
      const indent = trailingRun(text.slice(doc.offset({ line: cmdAt.line, character: 0 }), at), ' \t');
      inv.shellAfterEntrypoint.fix = {
        title: 'Clear the image entrypoint: ENTRYPOINT [] before the CMD',
        range: doc.range(at, 0),
        newText: `ENTRYPOINT []\n${indent}`,
      };
    }
    if (inv && isLaunchInvocation(inv)) invocations.push(inv);
  } else if (last?.image && last.from) {
    // No start command: the engine image runs its own, with this file's ENV (`FROM ollama/ollama`
    // + `ENV OLLAMA_CONTEXT_LENGTH=…`). Its span is the FROM line.
    const r = last.from.getRange();
    const span = { offset: doc.offset(r.start), length: doc.offset(r.end) - doc.offset(r.start) };
    const inv: Invocation = {
      argv: [],
      entrypoint: 'image',
      env: { ...last.env },
      source: 'dockerfile',
      image: last.image,
      range: doc.range(span.offset, span.length),
      ...span,
      notes: [],
    };
    if (isLaunchInvocation(inv)) invocations.push(inv);
  }
  return { format: 'dockerfile', invocations, problems, ...(unread.length ? { unread } : {}) };
}

/**
 * The program a RUN instruction launches (`RUN vllm serve …`, `RUN ["python", "-m", "sglang.launch_server", …]`),
 * or undefined: a build step that names an engine only to install it (`RUN pip install vllm`) is none.
 */
function buildStepLaunch(
  ins: JSONInstruction,
  doc: LineMap,
  spanOfRange: (r: Range) => { offset: number; length: number },
  shell: ShellParser | undefined,
): string | undefined {
  const r = ins.getRange();
  if (!mentionsLaunchWord(doc.text.slice(doc.offset(r.start), doc.offset(r.end)))) return undefined;
  const sc = startCommand(ins, doc, spanOfRange);
  let argv: Token[] | undefined;
  if (sc.form === 'exec') argv = launchArgv(sc.tokens, doc)?.argv;
  else if (shell && sc.shellSpan) argv = readShellSpans(doc, [sc.shellSpan], shell, { source: 'dockerfile' }).invocations.find(isLaunchInvocation)?.argv;
  if (!argv?.length) return undefined;
  const words = argv.slice(0, 3).map((t) => t.value);
  // `python -m vllm.entrypoints…`, `vllm serve`: the program and what it is asked to do.
  return words[0].includes('python') ? words.join(' ') : words.slice(0, words[1] && !words[1].startsWith('-') ? 2 : 1).join(' ');
}

const JSON_ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

/**
 * An exec-form string with JSON escapes (`"CMD=\"vllm serve …\"; eval $CMD"`) as the text the shell
 * reads, mapped back: plain stretches to themselves, each escape to its own characters (`\"`), so
 * words inside keep exact spans. Undefined when the decoding does not give the token's value.
 */
export function jsonStringMap(t: Token): ReturnType<typeof quotedValueMap> {
  const raw = t.raw;
  if (t.quote !== 'double' || raw.length < 2 || !raw.startsWith('"') || !raw.endsWith('"')) return undefined;
  const pieces: { valueStart: number; docStart: number; width?: number }[] = [];
  let text = '';
  let plain = false;
  for (let i = 1; i < raw.length - 1; ) {
    if (raw[i] !== '\\') {
      if (!plain) pieces.push({ valueStart: text.length, docStart: t.offset + i });
      plain = true;
      text += raw[i++];
      continue;
    }
    plain = false;
    // A Dockerfile line continuation inside the string: no character.
    const cont = /^\\\r?\n[ \t]*/.exec(raw.slice(i));
    if (cont) {
      i += cont[0].length;
      continue;
    }
    const e = raw[i + 1];
    const u = e === 'u' ? /^[0-9a-fA-F]{4}/.exec(raw.slice(i + 2)) : null;
    const ch = u ? String.fromCharCode(parseInt(u[0], 16)) : JSON_ESCAPES[e];
    if (ch === undefined) return undefined;
    const width = u ? 6 : 2;
    pieces.push({ valueStart: text.length, docStart: t.offset + i, width });
    text += ch;
    i += width;
  }
  return text === t.value ? { text, pieces } : undefined;
}

/** dockerfile-ast needs ~2.4 µs a character: past these sizes, lines are dropped (not moved). */
export const DOCKERFILE_LIMITS = { maxLine: 32_768, maxParse: 64 * 1024 };

const RUNTIME_INSTRUCTION = /^\s*(?:FROM|ARG|ENV|CMD|ENTRYPOINT)\s/i;

/**
 * The Dockerfile text to parse: lines longer than maxLine, and in a file larger than maxParse
 * every instruction but FROM/ARG/ENV/CMD/ENTRYPOINT, are emptied. Line breaks stay, so every
 * kept character keeps its line and column, and positions map back to the original text.
 */
export function reduceDockerfile(
  text: string,
  limits = DOCKERFILE_LIMITS,
): { text: string; problems: { message: string; offset: number; partial?: boolean }[] } {
  const problems: { message: string; offset: number; partial?: boolean }[] = [];
  if (text.length <= limits.maxLine) return { text, problems };
  const parts = text.split(/(\r\n|\n|\r)/);
  let offset = 0;
  let dropped = 0;
  let keepInstruction = true;
  let continued = false;
  const large = text.length > limits.maxParse;
  for (let i = 0; i < parts.length; i += 2) {
    const line = parts[i];
    const start = offset;
    offset += line.length + (parts[i + 1]?.length ?? 0);
    const comment = /^\s*#/.test(line);
    if (!continued && !comment && line.trim()) keepInstruction = RUNTIME_INSTRUCTION.test(line);
    if (!comment) continued = /\\\s*$/.test(line);
    if (line.length > limits.maxLine) {
      problems.push({
        message: `a line of ${enUS(line.length)} characters was not read (longer than ${enUS(limits.maxLine)})`,
        offset: start,
        partial: true,
      });
      parts[i] = '';
    } else if (large && !keepInstruction && line.trim()) {
      parts[i] = '';
      dropped++;
    }
  }
  // Build-time lines never start the container, so skipping them loses no launch (not partial).
  if (dropped)
    problems.push({
      message: `${enUS(dropped)} lines of build-time instructions were skipped: the file is over ${enUS(limits.maxParse)} characters`,
      offset: 0,
    });
  return { text: parts.join(''), problems };
}

function startCommand(ins: JSONInstruction, doc: LineMap, spanOfRange: (r: Range) => { offset: number; length: number }): StartCommand {
  const strings = ins.getJSONStrings();
  const open = ins.getOpeningBracket();
  const close = ins.getClosingBracket();
  if (open && close) {
    // Decoded with JSON.parse: dockerfile-ast 0.7's getJSONValue() drops the spaces inside a string.
    const tokens = strings.map((s) => {
      const span = spanOfRange(s.getRange());
      const raw = doc.text.slice(span.offset, span.offset + span.length);
      let value: string;
      try {
        value = JSON.parse(raw.replace(/\\\r?\n[ \t]*/g, ''));
      } catch {
        value = s.getJSONValue();
      }
      return makeToken(doc, { ...span, value: String(value), quote: 'double' });
    });
    let append: Invocation['append'];
    const lastTok = tokens[tokens.length - 1];
    if (lastTok) {
      const prev = tokens[tokens.length - 2];
      const between = prev ? doc.text.slice(prev.offset + prev.length, lastTok.offset) : '';
      // Keep the array's layout: one element per line stays one per line.
      const ws = /,(\s*)$/.exec(between)?.[1];
      const separator = ws && /[\r\n]/.test(ws) ? `,${ws}` : ', ';
      const offset = lastTok.offset + lastTok.length;
      append = { offset, range: doc.range(offset, 0), separator, form: 'json-array' };
    }
    return { form: 'exec', instruction: ins, tokens, append };
  }
  const args = ins.getArguments();
  const first = args[0];
  const lastArg = args[args.length - 1];
  const shellSpan = first
    ? { offset: doc.offset(first.getRange().start), length: doc.offset(lastArg.getRange().end) - doc.offset(first.getRange().start) }
    : undefined;
  // Without the shell parser, a whitespace split of the arguments (quotes not interpreted).
  const tokens = args.map((a) => makeToken(doc, { ...spanOfRange(a.getRange()), value: a.getValue(), quote: 'none' }));
  return { form: 'shell', instruction: ins, tokens, shellSpan };
}

/** Shell form → the words `/bin/sh -c` would run, read by the shell adapter at their own spans. */
function shellWords(
  sc: StartCommand,
  doc: LineMap,
  env: Record<string, Token>,
  shell: ShellParser | undefined,
  notes: string[],
): { argv: Token[]; append?: Invocation['append']; env: Record<string, Token> } {
  if (!shell || !sc.shellSpan) {
    notes.push('shell-form command read without the shell parser: quotes and variables not interpreted');
    return { argv: sc.tokens, env: {} };
  }
  const r = readShellSpans(doc, [sc.shellSpan], shell, { keepAll: true, env, source: 'dockerfile' });
  // `sh -c "a && vllm serve …"`: the launch is the command that starts a known program, else the last.
  const inv = r.invocations.find(isLaunchInvocation) ?? r.invocations[r.invocations.length - 1];
  if (!inv) return { argv: [], env: {} };
  notes.push(...inv.notes);
  return { argv: inv.argv, append: inv.append, env: inv.env };
}

function combine(stage: Stage, doc: LineMap, shell: ShellParser | undefined, problems: LaunchFile['problems']): Invocation | undefined {
  const notes: string[] = [];
  const ep = stage.entrypoint;
  const cmd = stage.cmd;
  let argv: Token[];
  let entrypoint: Invocation['entrypoint'];
  let append: Invocation['append'];
  let env = { ...stage.env };
  let shellAfterEntrypoint: Invocation['shellAfterEntrypoint'];
  /** CMD as the words it runs: exec form as written, shell form through `/bin/sh -c`. */
  const cmdWords = () => {
    if (!cmd) return { argv: [] as Token[], append: undefined, env: {} };
    if (cmd.form === 'exec') return { argv: cmd.tokens, append: cmd.append, env: {} };
    return shellWords(cmd, doc, stage.env, shell, notes);
  };
  if (ep && ep.form === 'shell') {
    // Shell-form ENTRYPOINT ignores CMD entirely.
    const w = shellWords(ep, doc, stage.env, shell, notes);
    ({ argv, append } = w);
    env = { ...env, ...w.env };
    entrypoint = 'program';
    if (cmd) notes.push('CMD is ignored: ENTRYPOINT is in shell form');
  } else if (ep && ep.tokens.length) {
    const rest = cmd ? cmd.tokens : [];
    const whole = [...ep.tokens, ...(cmd?.form === 'shell' ? [] : rest)];
    const w = cmd && !startsWithLaunch(whole, doc) ? cmdWords() : undefined;
    if (w && startsWithLaunch(w.argv, doc)) {
      // `ENTRYPOINT ["/entrypoint.sh"]` + `CMD ["vllm", "serve", …]`: an entrypoint this file does
      // not know, whose CMD starts an engine. Such entrypoints prepare and exec "$@".
      ({ argv, append } = w);
      env = { ...env, ...w.env };
      notes.push(`the ENTRYPOINT ${ep.tokens.map((t) => t.value).join(' ')} is assumed to exec its CMD, which starts a known program`);
    } else {
      if (cmd?.form === 'shell') notes.push('CMD in shell form after an exec-form ENTRYPOINT is passed as "/bin/sh -c …"');
      argv = whole;
      append = cmd?.form === 'exec' ? (cmd.append ?? ep.append) : ep.append;
    }
    entrypoint = 'program';
  } else if (cmd) {
    // No ENTRYPOINT (or `ENTRYPOINT []`). A CMD that starts a known program is that program,
    // whatever the base image (`FROM ubuntu:22.04` + `CMD llama-server …`); any other CMD is
    // the arguments of the base image's entrypoint, unknown here unless ENTRYPOINT was cleared.
    const cleared = ep !== undefined;
    const w = cmdWords();
    ({ argv, append } = w);
    env = { ...env, ...w.env };
    const launches = startsWithLaunch(argv, doc);
    entrypoint = cleared || launches ? 'program' : 'image';
    // An engine image has an entrypoint of its own; one that is handed a whole command is
    // assumed to exec it (plain OS and language images have none, or one that execs "$@").
    if (launches && !cleared && cmd.form === 'exec' && stage.image && isLaunchImage(stage.image.value)) {
      notes.push(`CMD starts a program: read as the command the image runs (the entrypoint of ${stage.image.value} is assumed to exec it)`);
    }
    // A shell-form CMD is `/bin/sh -c "…"`: with the image's entrypoint kept, the image runs `<entrypoint> /bin/sh -c …`.
    if (launches && !cleared && cmd.form === 'shell' && cmd.shellSpan && stage.image)
      shellAfterEntrypoint = { shell: '/bin/sh', at: doc.range(cmd.shellSpan.offset, cmd.shellSpan.length), kind: 'CMD' };
  } else {
    return undefined;
  }
  // `tini -- vllm serve …`: the program is what the init process runs.
  const peeled = entrypoint === 'program' ? launchArgv(argv, doc) : undefined;
  if (peeled && peeled.argv !== argv) {
    argv = peeled.argv;
    env = { ...env, ...peeled.env };
  }
  const parts = [ep, cmd].filter((x): x is StartCommand => !!x);
  const span = spanOf(
    parts.flatMap((p) => {
      const r = p.instruction.getRange();
      return [{ offset: doc.offset(r.start), length: doc.offset(r.end) - doc.offset(r.start) } as Token];
    }),
  )!;
  if (!argv.length && !stage.image) problems.push({ message: 'the start command is empty', range: doc.range(span.offset, span.length) });
  const inv: Invocation = {
    argv,
    entrypoint,
    env,
    source: 'dockerfile',
    range: doc.range(span.offset, span.length),
    offset: span.offset,
    length: span.length,
    notes,
  };
  if (stage.image) inv.image = stage.image;
  if (append) inv.append = append;
  if (shellAfterEntrypoint) inv.shellAfterEntrypoint = shellAfterEntrypoint;
  return inv;
}
