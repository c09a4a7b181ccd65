/**
 * Wrappers in front of the real program are peeled off: `exec`, `nohup`, `env A=1`, `sudo -E`,
 * `uv run`, `timeout 1h`, `docker run … IMAGE args`. What is left is argv as the engine sees it.
 * Each wrapper lists the options that take a value, so their values are not mistaken for the program.
 */
import type { LineMap } from '../text';
import type { Token } from '../types';
import { gcloudContainer } from './gcloud';

interface WrapperSpec {
  /** Options followed by a separate value (`-n 10`). `--opt=value` is always one token. */
  valued: string[];
  /** Positional arguments the wrapper takes before the program (`timeout DURATION`). */
  positionals?: number;
  /** `env` and `sudo` accept `NAME=value` before the program. */
  assignments?: boolean;
  /** A sub-command that must follow (`uv run`, `poetry run`, `conda run`, `tmux new-session`). */
  sub?: string | readonly string[];
  /** Options whose value is `NAME=value` for the program's environment (`systemd-run -E`, `tmux new -e`). */
  envOptions?: readonly string[];
  /**
   * The wrapper also takes the whole command as one string that a shell runs (`tmux new -d "vllm
   * serve …"`, `screen -dmS x "…"`): a lone argument with a space is not a program name, it is
   * left for embeddedScript (shell/embedded.ts) to read as shell.
   */
  takesString?: boolean;
}

const WRAPPERS: Record<string, WrapperSpec> = {
  exec: { valued: ['-a'] },
  nohup: { valued: [] },
  // Container init processes: `tini -- vllm serve …`, `dumb-init -- …` run their arguments.
  tini: { valued: ['-e', '-p'] },
  'dumb-init': { valued: ['-r', '--rewrite'] },
  time: { valued: ['-f', '-o'] },
  // The Vertex AI vLLM image's multi-host launcher runs its arguments (Google's Model Garden
  // DeepSeek-V3 deployment: `/vllm-workspace/ray_launcher.sh python -m vllm.entrypoints.api_server …`).
  'ray_launcher.sh': { valued: [] },
  command: { valued: [] },
  builtin: { valued: [] },
  setsid: { valued: [] },
  unbuffer: { valued: [] },
  stdbuf: { valued: ['-i', '-o', '-e'] },
  nice: { valued: ['-n'] },
  ionice: { valued: ['-c', '-n', '-p'] },
  chrt: { valued: [], positionals: 1 },
  numactl: { valued: ['-N', '-m', '-C', '-p', '-i', '--cpunodebind', '--membind', '--physcpubind', '--preferred', '--interleave'] },
  taskset: { valued: [], positionals: 1 },
  timeout: { valued: ['-s', '-k', '--signal', '--kill-after'], positionals: 1 },
  env: { valued: ['-u', '--unset', '-C', '--chdir', '-S', '--split-string'], assignments: true },
  sudo: { valued: ['-u', '-g', '-h', '-p', '-C', '-D', '-r', '-t', '-U', '--user', '--group', '--host', '--prompt', '--chdir'], assignments: true },
  uv: {
    valued: [
      '--with',
      '--python',
      '-p',
      '--project',
      '--directory',
      '--env-file',
      '--extra',
      '--group',
      '--index',
      '--index-url',
      '--extra-index-url',
      '--package',
      '--with-requirements',
      '--with-editable',
      '--cache-dir',
      '--config-file',
      '--only-group',
    ],
    sub: 'run',
  },
  uvx: { valued: ['--with', '--python', '-p', '--from', '--index-url', '--extra-index-url', '--cache-dir'] },
  poetry: { valued: ['-C', '--directory', '-P', '--project'], sub: 'run' },
  pipenv: { valued: [], sub: 'run' },
  pixi: { valued: ['-e', '--environment', '--manifest-path'], sub: 'run' },
  conda: { valued: ['-n', '--name', '-p', '--prefix', '--cwd'], sub: 'run' },
  mamba: { valued: ['-n', '--name', '-p', '--prefix', '--cwd'], sub: 'run' },
  micromamba: { valued: ['-n', '--name', '-p', '--prefix', '--cwd'], sub: 'run' },
  // Process managers and service runners that start their arguments as the program.
  'systemd-run': {
    valued: [
      '-u',
      '--unit',
      '-p',
      '--property',
      '-E',
      '--setenv',
      '--description',
      '--slice',
      '-M',
      '--machine',
      '-H',
      '--host',
      '--uid',
      '--gid',
      '--nice',
      '--working-directory',
      '--on-active',
      '--on-boot',
      '--on-startup',
      '--on-unit-active',
      '--on-unit-inactive',
      '--on-calendar',
      '--timer-property',
      '--path-property',
      '--socket-property',
      '--service-type',
    ],
    envOptions: ['-E', '--setenv'],
  },
  tmux: {
    valued: ['-c', '-e', '-F', '-f', '-n', '-s', '-t', '-x', '-y', '-L', '-S'],
    sub: ['new', 'new-session', 'new-window', 'neww', 'split-window', 'splitw'],
    envOptions: ['-e'],
    takesString: true,
  },
  screen: { valued: ['-S', '-c', '-e', '-h', '-p', '-s', '-t', '-T', '-Logfile'], takesString: true },
  srun: {
    valued: [
      '-n',
      '-N',
      '-c',
      '-p',
      '-t',
      '-J',
      '-A',
      '-G',
      '-w',
      '-o',
      '-e',
      '--ntasks',
      '--nodes',
      '--partition',
      '--time',
      '--gres',
      '--gpus',
      '--job-name',
      '--account',
      '--cpus-per-task',
      '--nodelist',
      '--mem',
      '--output',
      '--error',
      '--container-image',
      '--container-mounts',
    ],
  },
};

/** Index after the wrapper's sub-command (`uv run`, `tmux new-session`), 1 when it has none, -1 when it is missing. */
function afterSub(argv: Token[], spec: WrapperSpec): number {
  if (!spec.sub) return 1;
  const subs = typeof spec.sub === 'string' ? [spec.sub] : spec.sub;
  let i = 1;
  // `uv run`: global options may come before `run`.
  while (i < argv.length && !subs.includes(argv[i].value) && argv[i].value.startsWith('-')) i += spec.valued.includes(argv[i].value) ? 2 : 1;
  return subs.includes(argv[i]?.value ?? '') ? i + 1 : -1;
}

/** pm2 `start` options that take a separate value (`--name llm`, `--interpreter python3`). */
const PM2_VALUED = new Set([
  '-n',
  '--name',
  '--interpreter',
  '--interpreter-args',
  '--node-args',
  '--cwd',
  '-i',
  '--instances',
  '-l',
  '--log',
  '-o',
  '--output',
  '-e',
  '--error',
  '-p',
  '--pid',
  '--max-memory-restart',
  '--namespace',
  '--env',
  '--log-date-format',
  '--restart-delay',
  '--exp-backoff-restart-delay',
  '--max-restarts',
  '--cron',
  '--cron-restart',
  '--watch-delay',
  '--ignore-watch',
  '--kill-timeout',
  '--listen-timeout',
  '-x',
]);

/**
 * `pm2 start PROGRAM [options] [-- args…]`: the program and the arguments after `--`, or the one
 * string pm2 hands to a shell (`pm2 start "vllm serve …" --name llm`) as `script`.
 */
export function pm2Program(argv: Token[]): { argv: Token[]; script?: Token } | undefined {
  if (argv[1]?.value !== 'start') return undefined;
  let i = 2;
  let program: number | undefined;
  for (; i < argv.length; i++) {
    const a = argv[i].value;
    if (a === '--') break;
    if (a.startsWith('-') && a.length > 1) {
      if (!a.includes('=') && PM2_VALUED.has(a)) i++;
      continue;
    }
    program ??= i;
  }
  if (program === undefined) return undefined;
  const script = /\s/.test(argv[program].value) ? argv[program] : undefined;
  return { argv: [argv[program], ...argv.slice(i + 1)], ...(script ? { script } : {}) };
}

/**
 * The one string a process manager runs through a shell (`pm2 start "…"`, `tmux new -d "…"`,
 * `screen -dmS x "…"`), with the words that say how; undefined for any other command.
 */
export function stringCommandOf(argv: Token[], map: LineMap): { script: Token; label: string } | undefined {
  const prog = baseName(argv[0]?.value ?? '');
  if (prog === 'pm2') {
    const p = pm2Program(argv);
    return p?.script ? { script: p.script, label: 'pm2 start' } : undefined;
  }
  const spec = WRAPPERS[prog];
  if (!spec?.takesString) return undefined;
  const i = afterSub(argv, spec);
  const next = i < 0 ? -1 : skipOptions(argv, i, spec, {}, map);
  if (next < 0 || next !== argv.length - 1 || !/\s/.test(argv[next].value)) return undefined;
  return { script: argv[next], label: i > 1 ? `${prog} ${argv[i - 1].value}` : prog };
}

/** docker/podman `run` options that take a separate value; all other `--long` options are flags. */
const DOCKER_VALUED = new Set([
  '-e',
  '--env',
  '--env-file',
  '-v',
  '--volume',
  '-p',
  '--publish',
  '--name',
  '--gpus',
  '--ipc',
  '--entrypoint',
  '--network',
  '--net',
  '-w',
  '--workdir',
  '-u',
  '--user',
  '--shm-size',
  '--runtime',
  '--mount',
  '-l',
  '--label',
  '--label-file',
  '--device',
  '--cpus',
  '--cpuset-cpus',
  '-m',
  '--memory',
  '--memory-swap',
  '--ulimit',
  '--cap-add',
  '--cap-drop',
  '--security-opt',
  '--platform',
  '--pull',
  '--restart',
  '-h',
  '--hostname',
  '--add-host',
  '--log-driver',
  '--log-opt',
  '--cidfile',
  '--dns',
  '--tmpfs',
  '--group-add',
  '--health-cmd',
  '--health-interval',
  '--health-retries',
  '--health-timeout',
  '--health-start-period',
  '--stop-signal',
  '--stop-timeout',
  '--pid',
  '--uts',
  '--userns',
  '--cgroupns',
  '--cgroup-parent',
  '-a',
  '--attach',
  '--device-cgroup-rule',
  '--volumes-from',
  '--link',
  '--expose',
  '--network-alias',
  '--ip',
  '--ip6',
  '--mac-address',
  '--storage-opt',
  '--sysctl',
  '--annotation',
  '--isolation',
  '--kernel-memory',
  '--memory-reservation',
  '--cpu-shares',
  '-c',
  '--cpu-period',
  '--cpu-quota',
  '--detach-keys',
  '--oom-score-adj',
  '--blkio-weight',
  '--init-path',
  '--domainname',
  '--dns-search',
  '--dns-option',
  '--device-read-bps',
  '--device-write-bps',
  '--gpus',
  '--shm-size',
  '--pod',
  '--hooks-dir',
  '--secret',
]);
const DOCKER_SHORT_FLAGS = new Set(['d', 'i', 't', 'P', 'q']);

export interface Peeled {
  argv: Token[];
  /** Variables the wrappers set (`env A=1`, `sudo A=1`, `docker run -e A=1`). */
  env: Record<string, Token>;
  entrypoint: 'program' | 'image';
  image?: Token;
  /** True once argv runs inside a container: the host's environment no longer applies. */
  container: boolean;
  notes: string[];
  /** False when options cannot be appended after the command (a gcloud deployment: they would be gcloud's). */
  appendable?: boolean;
}

const baseName = (p: string) => p.slice(p.lastIndexOf('/') + 1);

/** `NAME=value` inside one token → the value as its own token (exact span when the token is plain). */
export function valueAfterEquals(map: LineMap, t: Token, eq: number): Token {
  const value = t.value.slice(eq + 1);
  // The raw text lines up with the value when the token is unquoted, or quoted as a whole.
  let rawStart = -1;
  if (t.raw === t.value) rawStart = eq + 1;
  else if ((t.quote === 'double' || t.quote === 'single') && t.raw.slice(1, -1) === t.value) rawStart = eq + 2;
  else {
    const m = /^([A-Za-z_][A-Za-z0-9_]*)=/.exec(t.raw);
    if (m && m[1] === t.value.slice(0, eq)) rawStart = eq + 1; // NAME="quoted value": the value's raw starts after '='
  }
  if (rawStart < 0) return { ...t, value };
  const closing = t.raw === t.value ? 0 : (t.quote === 'double' || t.quote === 'single') && t.raw.slice(1, -1) === t.value ? 1 : 0;
  const offset = t.offset + rawStart;
  const length = t.length - rawStart - closing;
  const nameOffset = offset - eq - 1;
  return {
    ...t,
    value,
    raw: map.text.slice(offset, offset + length),
    offset,
    length,
    range: map.range(offset, length),
    nameAt: { offset: nameOffset, length: eq, range: map.range(nameOffset, eq) },
  };
}

function assignment(t: Token): { name: string; eq: number } | undefined {
  const m = /^([A-Za-z_][A-Za-z0-9_]*)=/.exec(t.value);
  return m ? { name: m[1], eq: m[1].length } : undefined;
}

/** Skips a wrapper's options; returns the index of the first argument after them, or -1. */
function skipOptions(argv: Token[], i: number, spec: WrapperSpec, env: Record<string, Token>, map: LineMap): number {
  let positionals = spec.positionals ?? 0;
  while (i < argv.length) {
    const a = argv[i].value;
    if (a === '--') return i + 1;
    if (spec.assignments) {
      const as = assignment(argv[i]);
      if (as) {
        env[as.name] = valueAfterEquals(map, argv[i], as.eq);
        i++;
        continue;
      }
    }
    if (a.startsWith('-') && a.length > 1) {
      const name = a.includes('=') ? a.slice(0, a.indexOf('=')) : a;
      // `screen -dmS name`: a cluster of short flags whose last one takes the next word.
      const clustered = !a.startsWith('--') && a.length > 2 && spec.valued.includes(`-${a[a.length - 1]}`) && !spec.valued.includes(a);
      const takesValue = !a.includes('=') && (spec.valued.includes(name) || clustered);
      if (takesValue && spec.envOptions?.includes(name) && argv[i + 1]) {
        const as = assignment(argv[i + 1]);
        if (as) env[as.name] = valueAfterEquals(map, argv[i + 1], as.eq);
      }
      i += takesValue ? 2 : 1;
      continue;
    }
    if (positionals > 0) {
      positionals--;
      i++;
      continue;
    }
    return i;
  }
  return -1;
}

/** `docker run [opts] IMAGE args…` (also `docker container run`, podman, nvidia-docker). */
function peelDockerRun(argv: Token[], start: number, map: LineMap, notes: string[], hostEnv: Record<string, Token>): Peeled | undefined {
  const env: Record<string, Token> = {};
  let entry: Token | undefined;
  let i = start;
  while (i < argv.length) {
    const t = argv[i];
    const a = t.value;
    if (a === '--') {
      i++;
      break;
    }
    if (!a.startsWith('-') || a === '-') break;
    const eqAt = a.startsWith('--') ? a.indexOf('=') : -1;
    const name = eqAt > 0 ? a.slice(0, eqAt) : a;
    let value: Token | undefined;
    if (eqAt > 0) value = valueAfterEquals(map, t, eqAt);
    else if (a.startsWith('--') ? DOCKER_VALUED.has(a) : a.length === 2 && DOCKER_VALUED.has(a)) {
      value = argv[i + 1];
      i++;
    } else if (!a.startsWith('--') && a.length > 2 && ![...a.slice(1)].every((c) => DOCKER_SHORT_FLAGS.has(c))) {
      // `-eNAME=v`, `-p8000:8000`: a short option glued to its value.
      const flag = a.slice(0, 2);
      if (flag === '-e') value = { ...t, value: a.slice(2) };
    }
    i++;
    if ((name === '-e' || name === '--env' || (a.startsWith('-e') && !a.startsWith('--'))) && value) {
      const as = assignment(value);
      if (as) env[as.name] = valueAfterEquals(map, value, as.eq);
      // `-e NAME` passes the host's value: known when the script exported it.
      else if (hostEnv[value.value]) env[value.value] = hostEnv[value.value];
      else notes.push(`docker run -e ${value.value}: the value comes from the host environment`);
    } else if (name === '--env-file' && value) {
      notes.push(`env file ${value.value} not read: its variables are unknown`);
    } else if (name === '--entrypoint' && value) {
      entry = value;
    }
  }
  const image = argv[i];
  if (!image) return undefined;
  const args = argv.slice(i + 1);
  if (entry) {
    // `--entrypoint ""` clears the image's entrypoint: the first argument becomes the program.
    return { argv: entry.value === '' ? args : [entry, ...args], env, entrypoint: 'program', image, container: true, notes };
  }
  return { argv: args, env, entrypoint: 'image', image, container: true, notes };
}

/**
 * Peels wrappers until argv[0] is the program (or a container image's arguments). `hostEnv` is the
 * environment the command itself runs with (for `docker run -e NAME`).
 */
export function peelWrappers(argv: Token[], map: LineMap, hostEnv: Record<string, Token> = {}): Peeled {
  const env: Record<string, Token> = {};
  const notes: string[] = [];
  let cur = argv;
  for (let guard = 0; guard < 16 && cur.length; guard++) {
    const prog = baseName(cur[0].value);
    if (prog === 'gcloud') {
      const g = gcloudContainer(cur, map);
      if (!g) break;
      // The container's own command may start with wrappers too (the Vertex image's ray_launcher.sh).
      const inner = g.entrypoint === 'program' ? peelWrappers(g.argv, map) : undefined;
      return {
        argv: inner?.argv ?? g.argv,
        env: { ...g.env, ...inner?.env },
        entrypoint: g.entrypoint,
        ...(g.image ? { image: g.image } : {}),
        container: true,
        notes: [...notes, ...g.notes, ...(inner?.notes ?? [])],
        appendable: false,
      };
    }
    if (prog === 'docker' || prog === 'podman' || prog === 'nvidia-docker') {
      const runAt = cur[1]?.value === 'run' ? 2 : cur[1]?.value === 'container' && cur[2]?.value === 'run' ? 3 : -1;
      if (runAt > 0) {
        const d = peelDockerRun(cur, runAt, map, notes, { ...hostEnv, ...env });
        if (d) return d;
      }
      break;
    }
    if (prog === 'pm2') {
      const p = pm2Program(cur);
      if (!p || p.script) break;
      cur = p.argv;
      continue;
    }
    const spec = WRAPPERS[prog];
    if (!spec) break;
    const i = afterSub(cur, spec);
    if (i < 0) break;
    const next = skipOptions(cur, i, spec, env, map);
    if (next < 0 || next >= cur.length) break;
    // `tmux new -d "vllm serve …"`: the string is a shell command, read by embeddedScript.
    if (spec.takesString && next === cur.length - 1 && /\s/.test(cur[next].value)) break;
    cur = cur.slice(next);
  }
  return { argv: cur, env, entrypoint: 'program', container: false, notes };
}
