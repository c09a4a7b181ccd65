/**
 * docker compose files → one invocation per service: `image:`, `entrypoint:`/`command:` (a list,
 * or a string split the way compose splits it, see shellwords.ts), `environment:` (map or
 * `K=V` list). Compose interpolates `${VAR:-default}` from the host before anything else;
 * the host is unknown here, so only defaults are known.
 */
import { isMap, isScalar, isSeq, type Document, type Node as YamlNode, type Scalar, type YAMLMap } from 'yaml';
import { throughShellC } from './shell';
import { splitLikeCompose } from './shellwords';
import { isLaunchImage, isLaunchInvocation, launchArgv, startsWithLaunch } from './sniff';
import { LineMap, makeToken, spanOf } from './text';
import type { Invocation, LaunchFile, ShellParser, Token } from './types';
import { substitute } from './vars';
import {
  docOffset,
  isMerged,
  listAppend,
  mergedGet,
  mergedPairs,
  parseYamlDocs,
  quoteOfScalar,
  scalarText,
  subMap,
  valueMap,
  type ValueMap,
} from './yamlScalar';
import { trailingRun } from '../core/text';

/** Compose interpolation: the host environment is unknown, `$$` is a literal `$`. */
const interpolate = (s: string) => substitute(s, () => undefined, '$$');

export function readCompose(text: string, shell?: ShellParser): LaunchFile {
  const doc = new LineMap(text);
  const problems: LaunchFile['problems'] = [];
  const invocations: Invocation[] = [];
  const maps = new Map<Token, ValueMap>();
  const parsed = parseYamlDocs(text);
  for (const p of parsed.problems) problems.push({ message: p.message, range: doc.range(p.offset, p.length), ...(p.partial ? { partial: true } : {}) });
  for (const d of parsed.docs) {
    const services = isMap(d.contents) ? d.contents.get('services', true) : undefined;
    if (!isMap(services)) continue;
    for (const pair of services.items) {
      if (!isMap(pair.value)) continue;
      const inv = readService(pair.value, doc, problems, maps, d);
      if (!inv) continue;
      const shelled = throughShellC(
        inv,
        doc,
        (t) => {
          const pieces = maps.get(t);
          return pieces && { text: t.value, pieces };
        },
        shell,
      );
      const command = pair.value.items.find((p) => isScalar(p.key) && p.key.value === 'command');
      const keyAt = command && isScalar(command.key) ? command.key.range?.[0] : undefined;
      if (shelled.shellAfterEntrypoint && keyAt !== undefined) {
        // `entrypoint: []` on its own line above `command:`, indented as it is.
        const indent = trailingRun(text.slice(text.lastIndexOf('\n', keyAt - 1) + 1, keyAt), ' \t');
        shelled.shellAfterEntrypoint.fix = {
          title: 'Clear the image entrypoint: entrypoint: [] beside the command',
          range: doc.range(keyAt, 0),
          newText: `entrypoint: []\n${indent}`,
        };
      }
      if (isLaunchInvocation(shelled)) invocations.push(shelled);
    }
  }
  return { format: 'compose', invocations, problems };
}

/** A scalar as a token, with compose interpolation applied. */
export function composeScalar(doc: LineMap, s: Scalar): Token | undefined {
  const r = s.range;
  if (!r) return undefined;
  const v = interpolate(scalarText(doc, s));
  return makeToken(doc, { offset: r[0], length: r[1] - r[0], value: v.value, quote: quoteOfScalar(s), known: v.known, via: v.via });
}

/** `command:`/`entrypoint:` → tokens: each list item, or the words of a string. */
function commandTokens(
  node: YamlNode | null | undefined,
  doc: LineMap,
  problems: LaunchFile['problems'],
  maps: Map<Token, ValueMap>,
): { tokens: Token[]; append?: Invocation['append'] } | undefined {
  if (isSeq(node)) {
    const tokens: Token[] = [];
    for (const item of node.items) {
      if (!isScalar(item)) continue;
      const t = composeScalar(doc, item);
      if (!t) continue;
      const m = valueMap(doc, item);
      if (m) maps.set(t, m);
      tokens.push(t);
    }
    return { tokens, append: listAppend(node, doc, tokens) };
  }
  if (!isScalar(node) || !node.range) return undefined;
  // Split as written, then interpolate word by word: compose interpolates first, but splitting the
  // written text keeps each word's exact span (they differ only when a default holds a space).
  const raw = scalarText(doc, node);
  const split = splitLikeCompose(raw);
  const whole = doc.range(node.range[0], node.range[1] - node.range[0]);
  if (split.error) problems.push({ message: split.error, range: whole });
  if (split.stoppedAt !== undefined)
    problems.push({ message: 'compose stops reading the command at an unquoted ; & | < or >: the rest is not run', range: whole });
  const map = valueMap(doc, node);
  const wholeSpan = { offset: node.range[0], length: node.range[1] - node.range[0] };
  const tokens = split.words.flatMap((w) => {
    const v = interpolate(w.value);
    const span = map ? { offset: docOffset(map, w.start), length: docOffset(map, w.end - 1) + 1 - docOffset(map, w.start) } : wholeSpan;
    const t = makeToken(doc, { ...span, value: v.value, quote: w.quote, known: v.known, via: v.via.length ? v.via : undefined });
    // A word written plainly or quoted whole (no escapes) maps back, so a `bash -c` script in it can be read.
    const text = raw.slice(w.start, w.end);
    const inner = text === w.value ? w.start : text.length >= 2 && text.slice(1, -1) === w.value && /^["']/.test(text) ? w.start + 1 : -1;
    if (map && inner >= 0 && v.value === w.value) maps.set(t, subMap(map, inner, w.value.length));
    // An unquoted `${ARGS}` holding several words is split after interpolation, as compose would.
    if (w.quote === 'none' && v.value !== w.value && /\s/.test(v.value.trim())) {
      return v.value
        .trim()
        .split(/\s+/)
        .map((part) => ({ ...t, value: part }));
    }
    return [t];
  });
  const last = tokens[tokens.length - 1];
  const append =
    map && last ? { offset: last.offset + last.length, range: doc.range(last.offset + last.length, 0), separator: ' ', form: 'shell' as const } : undefined;
  return { tokens, append };
}

function environment(node: YamlNode | null | undefined, doc: LineMap, yamlDoc?: Document): Record<string, Token> {
  const env: Record<string, Token> = {};
  if (isMap(node)) {
    for (const p of mergedPairs(node, yamlDoc)) {
      const name = isScalar(p.key) ? String(p.key.value) : undefined;
      if (!name) continue;
      if (isScalar(p.value) && p.value.value !== null) {
        const t = composeScalar(doc, p.value);
        const k = isScalar(p.key) ? p.key.range : undefined;
        if (t) env[name] = k ? { ...t, nameAt: { offset: k[0], length: k[1] - k[0], range: doc.range(k[0], k[1] - k[0]) } } : t;
      } else if (isScalar(p.key) && p.key.range) {
        // `NAME:` with no value: taken from the host, unknown here.
        env[name] = makeToken(doc, { offset: p.key.range[0], length: p.key.range[1] - p.key.range[0], value: '', quote: 'none', known: false });
      }
    }
  } else if (isSeq(node)) {
    for (const item of node.items) {
      if (!isScalar(item) || !item.range) continue;
      const t = composeScalar(doc, item);
      if (!t) continue;
      const eq = t.value.indexOf('=');
      if (eq < 0) {
        env[t.value] = { ...t, value: '', known: false };
        continue;
      }
      const v = valueAfterName(doc, t, eq);
      // `- NAME=value` written plainly or quoted whole: the name starts the item.
      const inner = t.quote === 'none' ? t.raw : t.raw.slice(1, -1);
      const at = t.offset + (t.quote === 'none' ? 0 : 1);
      env[t.value.slice(0, eq)] = inner === t.value ? { ...v, nameAt: { offset: at, length: eq, range: doc.range(at, eq) } } : v;
    }
  }
  return env;
}

/** `NAME=value` list item → the value's own token (exact span when the item is written plainly). */
function valueAfterName(doc: LineMap, t: Token, eq: number): Token {
  const inner = t.quote === 'none' ? t.raw : t.raw.slice(1, -1);
  const value = t.value.slice(eq + 1);
  if (inner !== t.value) return { ...t, value };
  const offset = t.offset + (t.quote === 'none' ? 0 : 1) + eq + 1;
  return makeToken(doc, { offset, length: value.length, value, quote: 'none', known: t.known, via: t.via });
}

function readService(svc: YAMLMap, doc: LineMap, problems: LaunchFile['problems'], maps: Map<Token, ValueMap>, yamlDoc?: Document): Invocation | undefined {
  // `<<: *common` (an `x-` extension block, another service's anchor) brings keys in as compose does.
  const get = (key: string) => mergedGet(svc, key, yamlDoc);
  const imageNode = get('image');
  const image = isScalar(imageNode) ? composeScalar(doc, imageNode) : undefined;
  const entry = commandTokens(get('entrypoint'), doc, problems, maps);
  const cmd = commandTokens(get('command'), doc, problems, maps);
  const env = environment(get('environment'), doc, yamlDoc);
  const notes: string[] = [];
  if (get('env_file') !== undefined) notes.push('env_file not read: the variables it sets are unknown');
  const merged = ['image', 'entrypoint', 'command', 'environment'].filter((k) => get(k) !== undefined && isMerged(svc, k));
  if (merged.length) notes.push(`${merged.join(', ')} from a YAML merge key (<<): read where the anchor writes ${merged.length === 1 ? 'it' : 'them'}`);
  if (!image && !entry && !cmd) return undefined;
  // An entrypoint (even an empty one) replaces the image's: command then follows it as arguments.
  let entrypoint: Invocation['entrypoint'] = entry ? 'program' : 'image';
  let argv = [...(entry?.tokens ?? []), ...(cmd?.tokens ?? [])];
  if (cmd?.tokens.length && startsWithLaunch(cmd.tokens, doc) && !(entry && startsWithLaunch(argv, doc))) {
    // A command that starts a known program (`command: vllm serve …` on a custom image or `build:`)
    // is that program: a plain image has no entrypoint, and an unknown one is assumed to exec it.
    if (entry?.tokens.length)
      notes.push(`the entrypoint ${entry.tokens.map((t) => t.value).join(' ')} is assumed to exec the command, which starts a known program`);
    else if (!entry && image && isLaunchImage(image.value))
      notes.push(`command starts a program: read as the command ${image.value} runs (its entrypoint is assumed to exec it)`);
    argv = cmd.tokens;
    entrypoint = 'program';
  }
  if (entrypoint === 'program') {
    const peeled = launchArgv(argv, doc);
    if (peeled && peeled.argv !== argv) {
      argv = peeled.argv;
      Object.assign(env, peeled.env);
    }
  }
  const svcRange = svc.range ?? [0, 0];
  const span = spanOf(argv) ?? { offset: svcRange[0], length: Math.max(0, svcRange[1] - svcRange[0]) };
  const inv: Invocation = {
    argv,
    entrypoint,
    env,
    source: 'compose',
    range: doc.range(span.offset, span.length),
    offset: span.offset,
    length: span.length,
    notes,
  };
  if (image) inv.image = image;
  const append = cmd?.append ?? (cmd ? undefined : entry?.append);
  if (append) inv.append = append;
  return inv;
}
