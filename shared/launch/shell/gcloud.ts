/**
 * Google Cloud deployments written as a gcloud command: the container they start is a launch.
 *  - Vertex AI: `gcloud ai models upload` and `gcloud ai model-garden models deploy` take
 *    `--container-image-uri`, `--container-command`, `--container-args`, `--container-env-vars`;
 *  - Cloud Run: `gcloud [beta|alpha] run deploy` takes `--image`, `--command`, `--args`,
 *    `--set-env-vars` / `--update-env-vars`.
 * The container runs the command, then the args (the image's entrypoint when no command is given),
 * as Kubernetes does. Each value is one gcloud list: items split at commas, or at the delimiter a
 * leading `^DELIM^` names (`gcloud topic escaping`), as Google's Model Garden deployment of
 * DeepSeek-V3 on the Vertex vLLM image writes
 * `--container-args='^;^/vllm-workspace/ray_launcher.sh;python;-m;vllm.entrypoints.api_server;…;--max-model-len=163840'`.
 * Items keep their exact span where the written text maps onto the value, so findings land on them;
 * fixes never edit them (a value written into the list must keep its delimiters and escapes), and
 * nothing is appended after the command (gcloud would take it as its own flag).
 */
import type { LineMap } from '../text';
import type { Token } from '../types';

/** What a gcloud command says its container runs, or undefined when it deploys none. */
export interface GcloudContainer {
  /** The command, then the args, one token per list item. */
  argv: Token[];
  /**
   * `program` when argv[0] is what the container runs: a command was given, or args that start with
   * a word rather than a flag (Model Garden's `python;-m;vllm.entrypoints.api_server;…`); else
   * `image` (the args go to the image's entrypoint).
   */
  entrypoint: 'program' | 'image';
  image?: Token;
  env: Record<string, Token>;
  notes: string[];
}

interface Surface {
  label: string;
  image: string;
  command: string;
  args: string;
  env: string[];
}

const VERTEX: Omit<Surface, 'label'> = {
  image: '--container-image-uri',
  command: '--container-command',
  args: '--container-args',
  env: ['--container-env-vars'],
};
const RUN: Omit<Surface, 'label'> = { image: '--image', command: '--command', args: '--args', env: ['--set-env-vars', '--update-env-vars'] };

/** The gcloud sub-command after `gcloud` (release tracks skipped), when it deploys a container. */
function surfaceOf(words: readonly string[]): { surface: Surface; from: number } | undefined {
  let i = 1;
  if (['beta', 'alpha', 'preview'].includes(words[i])) i++;
  const path = (...p: string[]) => p.every((w, k) => words[i + k] === w);
  if (path('ai', 'models', 'upload')) return { surface: { label: 'gcloud ai models upload', ...VERTEX }, from: i + 3 };
  if (path('ai', 'model-garden', 'models', 'deploy')) return { surface: { label: 'gcloud ai model-garden models deploy', ...VERTEX }, from: i + 4 };
  if (path('run', 'deploy')) return { surface: { label: 'gcloud run deploy', ...RUN }, from: i + 2 };
  return undefined;
}

/** The value of `--flag=value` or `--flag value` at argv[i], as a token of its own span where it can be. */
function flagValue(argv: Token[], i: number, map: LineMap): { value?: Token; next: number } {
  const t = argv[i];
  const eq = t.value.indexOf('=');
  if (eq < 0) return { value: argv[i + 1], next: i + 2 };
  const raw = t.raw.indexOf('=');
  const value = t.value.slice(eq + 1);
  // `--flag=value` unquoted, or `--flag="value"` / `--flag='value'` with no escapes: the value's own span.
  const rest = raw >= 0 ? t.raw.slice(raw + 1) : undefined;
  if (rest === value)
    return {
      value: { ...t, value, raw: rest, offset: t.offset + raw + 1, length: rest.length, range: map.range(t.offset + raw + 1, rest.length) },
      next: i + 1,
    };
  if (rest && rest.length >= 2 && (rest[0] === '"' || rest[0] === "'") && rest.endsWith(rest[0]) && rest.slice(1, -1) === value) {
    const offset = t.offset + raw + 1;
    return {
      value: { ...t, value, raw: rest, offset, length: rest.length, range: map.range(offset, rest.length), quote: rest[0] === '"' ? 'double' : 'single' },
      next: i + 1,
    };
  }
  return { value: { ...t, value }, next: i + 1 };
}

/** A gcloud list's items, each with its exact span when the token's text is its value (bare or quoted whole). */
export function gcloudListItems(tok: Token, map: LineMap, flag: string): Token[] {
  let list = tok.value;
  let delim = ',';
  let at = 0;
  const alt = /^\^([^^]+)\^/.exec(list);
  if (alt) {
    delim = alt[1];
    at = alt[0].length;
    list = list.slice(at);
  }
  if (list === '') return [];
  // Where value index 0 sits in the text: the token bare, or inside quotes around the whole of it.
  const inner = tok.raw === tok.value ? 0 : (tok.quote === 'double' || tok.quote === 'single') && tok.raw.slice(1, -1) === tok.value ? 1 : -1;
  const out: Token[] = [];
  let start = 0;
  for (const item of list.split(delim)) {
    const from = `the ${flag} list`;
    if (inner >= 0) {
      const offset = tok.offset + inner + at + start;
      out.push({ ...tok, value: item, raw: item, offset, length: item.length, range: map.range(offset, item.length), quote: 'none', from });
    } else out.push({ ...tok, value: item, from });
    start += item.length + delim.length;
  }
  return out;
}

/** `gcloud … deploy/upload` with a container: its image, argv and environment; else undefined. */
export function gcloudContainer(argv: Token[], map: LineMap): GcloudContainer | undefined {
  const found = surfaceOf(argv.map((t) => t.value));
  if (!found) return undefined;
  const { surface } = found;
  let image: Token | undefined;
  let command: Token[] | undefined;
  let args: Token[] | undefined;
  const env: Record<string, Token> = {};
  for (let i = found.from; i < argv.length; ) {
    const name = argv[i].value.split('=')[0];
    const known = name === surface.image || name === surface.command || name === surface.args || surface.env.includes(name);
    if (!known) {
      i++;
      continue;
    }
    const { value, next } = flagValue(argv, i, map);
    i = next;
    if (!value) continue;
    if (name === surface.image) image = value;
    else if (name === surface.command) command = gcloudListItems(value, map, name);
    else if (name === surface.args) args = gcloudListItems(value, map, name);
    else
      for (const item of gcloudListItems(value, map, name)) {
        const eq = item.value.indexOf('=');
        if (eq > 0) env[item.value.slice(0, eq)] = { ...item, value: item.value.slice(eq + 1) };
      }
  }
  if (!command && !args) return undefined;
  const argsRun = !command && !!args?.length && !args[0].value.startsWith('-');
  const runs = command
    ? `${surface.command}, then ${surface.args}`
    : argsRun
      ? `${surface.args}, whose first item is a program (read as the command the image runs)`
      : `its image's entrypoint with ${surface.args}`;
  const notes = [`${surface.label}: the container runs ${runs}; these gcloud lists are not rewritten by fixes`];
  return { argv: [...(command ?? []), ...(args ?? [])], entrypoint: command || argsRun ? 'program' : 'image', ...(image ? { image } : {}), env, notes };
}
