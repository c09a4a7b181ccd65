/**
 * Which launch format a file is, from its name, language id and first bytes: cheap, no parse.
 * Exact names (`Dockerfile`, `compose.yaml`, `Modelfile`, `*.sh`) decide alone; broader names
 * (`x-Dockerfile`, `Dockerfile-gpu`, `prod.docker-compose.yml`, `Modelfile.qwen`) and any YAML
 * are decided by a look at the text (a `FROM` line, a top-level `services:`, an `apiVersion:`
 * with a workload `kind:`), so a README named `Dockerfile.md` or a values.yaml costs one regex.
 */
import { DSTACK_TYPE } from './dstack';
import { PRODUCTION_STACK } from './productionStack';
import { SKYPILOT_KEYS, SKYPILOT_RUN } from './skypilot';
import type { LaunchFile } from './types';

const baseName = (p: string) => p.slice(Math.max(p.lastIndexOf('/'), p.lastIndexOf('\\')) + 1);

/** Workload kinds whose pod template (or pod spec) holds containers; `Model` is KubeAI's (kubeai.org). */
export const WORKLOAD_KINDS = [
  'Deployment',
  'StatefulSet',
  'Pod',
  'Job',
  'DaemonSet',
  'ReplicaSet',
  'ReplicationController',
  'CronJob',
  'LeaderWorkerSet',
  'List',
  'Model',
];

const SHEBANG = /^(?:\uFEFF)?#!\s*(?:\/usr\/bin\/env\s+(?:-\S+\s+)*)?(?:\/\S*\/)?(?:ba|z|k|da)?sh\b/;
export const WORKLOAD = new RegExp(`^kind:\\s*["']?(?:${WORKLOAD_KINDS.join('|')})["']?\\s*(?:#.*)?$`, 'm');
/** A Dockerfile (or Modelfile) has a FROM instruction; a document about one rarely starts a line so. */
const FROM_LINE = /^[ \t]*FROM[ \t]+\S/im;
const SERVICES = /^services[ \t]*:/m;
/** Files whose name mentions a Dockerfile but which are documents, data or code about it. */
const NOT_LAUNCH_EXT = /\.(?:md|markdown|rst|txt|html?|json|ya?ml|toml|py|js|ts|go|rs|java|sh|bash|zsh|lock|log|png|svg)$/;

export function launchFormatOf(fileName: string, languageId: string | undefined, text: string): LaunchFile['format'] | undefined {
  const name = baseName(fileName);
  const lower = name.toLowerCase();
  if (/\.(?:sh|bash|zsh)$/.test(lower) || languageId === 'shellscript' || SHEBANG.test(text)) return 'shell';
  if (
    lower === 'dockerfile' ||
    lower === 'containerfile' ||
    lower.endsWith('.dockerfile') ||
    (lower.startsWith('dockerfile.') && !NOT_LAUNCH_EXT.test(lower)) ||
    languageId === 'dockerfile'
  )
    return 'dockerfile';
  if (lower === 'modelfile' || lower.endsWith('.modelfile') || languageId === 'ollama-modelfile') return 'modelfile';
  if (/\.ya?ml$/.test(lower) || languageId === 'yaml' || languageId === 'dockercompose') {
    if (languageId === 'dockercompose' || (/compose/.test(lower) && SERVICES.test(text))) return 'compose';
    if (/^apiVersion:/m.test(text) && WORKLOAD.test(text)) return 'kubernetes';
    // Task files, by their top-level keys: SkyPilot (`run:` beside `resources:`/`envs:`/`setup:`…),
    // dstack (`type: task|service|dev-environment`), production-stack values (`servingEngineSpec:`).
    if (/\.sky\.ya?ml$/.test(lower) || (SKYPILOT_RUN.test(text) && SKYPILOT_KEYS.test(text))) return 'skypilot';
    if (DSTACK_TYPE.test(text) && (/dstack/.test(lower) || /^(?:commands|init)[ \t]*:/m.test(text))) return 'dstack';
    if (PRODUCTION_STACK.test(text) && /modelSpec[ \t]*:/.test(text)) return 'helm-values';
    return undefined;
  }
  // Broader names, decided by the text: `x-Dockerfile`, `Dockerfile-gpu`, `Containerfile.cuda`,
  // `Modelfile.qwen-32k`, `Modelfile-llama`.
  if (NOT_LAUNCH_EXT.test(lower)) return undefined;
  if (/dockerfile|containerfile/.test(lower) && FROM_LINE.test(text)) return 'dockerfile';
  if (/^modelfile[._-]/.test(lower) && FROM_LINE.test(text)) return 'modelfile';
  return undefined;
}

/**
 * Whether a file name may be a launch file (the CLI's folder walk): the names above, before any
 * text is read (YAML is walked anyway). `launchFormatOf` then decides by content.
 */
export function mayBeLaunchFileName(fileName: string): boolean {
  const lower = baseName(fileName).toLowerCase();
  if (/\.(?:sh|bash|zsh|modelfile)$/.test(lower)) return true;
  if (NOT_LAUNCH_EXT.test(lower)) return false;
  return /dockerfile|containerfile/.test(lower) || /^modelfile(?:$|[._-])/.test(lower);
}
