/**
 * Launch files → invocations: the one entry point the service calls. A file that mentions no
 * launch word costs one regex test; only then is it parsed by its format's adapter.
 */
import { readDockerfile } from './dockerfile';
import { launchFormatOf } from './format';
import { readCompose } from './compose';
import { readKubernetes } from './kubernetes';
import { readModelfile } from './modelfile';
import { readShellScript } from './shell';
import { readSkyPilot } from './skypilot';
import { readDstack } from './dstack';
import { readProductionStack } from './productionStack';
import { mentionsLaunchWord } from './sniff';
import { LineMap } from './text';
import type { LaunchFile, ShellParser, SourceReader } from './types';
import { pathAfterVariables } from './vars';

export { launchFormatOf, mayBeLaunchFileName } from './format';
export { mentionsLaunchWord, isLaunchInvocation, isLaunchProgram, pythonModule, wrappedLaunchProgram } from './sniff';
// Each format's reader, for callers that already know the format (tests, engine modules' own checks).
export { readShellScript } from './shell';
export { readDockerfile } from './dockerfile';
export { readCompose } from './compose';
export { readKubernetes } from './kubernetes';
export { readModelfile } from './modelfile';
export { readSkyPilot } from './skypilot';
export { readDstack } from './dstack';
export { readProductionStack } from './productionStack';
export type * from './types';

export interface LaunchReadOptions {
  /** The shell grammar (shared/node/shellParser.ts). Without it shell scripts and shell-form CMDs are not read. */
  shell?: ShellParser;
  languageId?: string;
  /** Reads the files a shell script sources (beside it, in the workspace); see ShellReadOptions. */
  readSourced?: SourceReader;
}

/** `source NAME` / `. NAME` lines: the names a script sources (quotes and a leading `$DIR/` aside). */
const SOURCE_LINE = /^[ \t]*(?:source|\.)[ \t]+(["']?)([^\s;&|"']+)\1/gm;

/** `./serve.sh …`, `bash scripts/run.sh …`: a local script a command runs (followed with its arguments). */
const SCRIPT_CALL = /(?:^|[\s;&|(])(?:(?:ba|z|da)?sh[ \t]+)?((?:\.{0,2}\/)?[\w.-]+(?:\/[\w.-]+)*\.(?:sh|bash))(?=[\s;&|)]|$)/gm;

/**
 * A script that names no launch word may still launch through a function defined in a file it
 * sources, or through a local script it runs with its arguments: worth parsing only when such a
 * file mentions one (a `source venv/bin/activate` does not).
 */
function sourcesALaunch(text: string, read: SourceReader): boolean {
  const names = [...text.matchAll(SCRIPT_CALL)].map((m) => m[1]);
  if (!names.length && !text.includes('source') && !/^[ \t]*\.[ \t]/m.test(text)) return false;
  for (const written of [...[...text.matchAll(SOURCE_LINE)].map((m) => m[2]), ...names]) {
    const name = written.includes('$') ? pathAfterVariables(written) : written;
    if (!name) continue;
    let f;
    try {
      f = read(name);
    } catch {
      f = undefined;
    }
    if (f && mentionsLaunchWord(f.text)) return true;
  }
  return false;
}

/** Everything a launch file starts, or undefined when it is not a launch file or launches nothing known. */
export function readLaunchFile(text: string, fileName: string, opts: LaunchReadOptions = {}): LaunchFile | undefined {
  const format = launchFormatOf(fileName, opts.languageId, text);
  // A Modelfile always launches Ollama, and task files (SkyPilot, dstack, production-stack) are
  // recognised by their keys: read whole, so one that starts nothing known is said. Every other
  // format must name a launch word to be parsed.
  if (!format) return undefined;
  const worthReading =
    TASK_FORMATS.has(format) ||
    format === 'modelfile' ||
    mentionsLaunchWord(text) ||
    (format === 'shell' && !!opts.readSourced && sourcesALaunch(text, opts.readSourced));
  if (!worthReading) return undefined;
  let file: LaunchFile;
  try {
    file = readAs(format, text, opts);
  } catch (e) {
    // Adapters are written not to throw; if one does, the file is answered with the problem, not a crash.
    return {
      format,
      invocations: [],
      problems: [{ message: `could not read this ${format} file: ${(e as Error)?.message ?? e}`, range: new LineMap(text).range(0, 0) }],
    };
  }
  // A file cut for size still answers with its problems, so the editor can say what was not read.
  return file.invocations.length || file.modelfile || file.unread?.length || file.problems.some((p) => p.partial) ? file : undefined;
}

const TASK_FORMATS: ReadonlySet<LaunchFile['format']> = new Set(['modelfile', 'skypilot', 'dstack', 'helm-values']);

function readAs(format: LaunchFile['format'], text: string, opts: LaunchReadOptions): LaunchFile {
  switch (format) {
    case 'shell': {
      if (!opts.shell) return { format, invocations: [], problems: [] };
      return { format, ...readShellScript(text, opts.shell, { readSourced: opts.readSourced }) };
    }
    case 'dockerfile':
      return readDockerfile(text, opts.shell);
    case 'compose':
      return readCompose(text, opts.shell);
    case 'kubernetes':
      return readKubernetes(text, opts.shell);
    case 'modelfile':
      return readModelfile(text);
    case 'skypilot':
      return readSkyPilot(text, opts.shell, opts.readSourced);
    case 'dstack':
      return readDstack(text, opts.shell, opts.readSourced);
    case 'helm-values':
      return readProductionStack(text);
  }
}
