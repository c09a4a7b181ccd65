/**
 * Which launch format a file is, from its name, language id and first bytes: cheap, no parse.
 */
import type { LaunchFile } from './types';

const baseName = (p: string) => p.slice(Math.max(p.lastIndexOf('/'), p.lastIndexOf('\\')) + 1);

/** Workload kinds whose pod template (or pod spec) holds containers. */
export const WORKLOAD_KINDS = ['Deployment', 'StatefulSet', 'Pod', 'Job', 'DaemonSet', 'ReplicaSet', 'ReplicationController', 'CronJob', 'LeaderWorkerSet', 'List'];

const SHEBANG = /^(?:\uFEFF)?#!\s*(?:\/usr\/bin\/env\s+(?:-\S+\s+)*)?(?:\/\S*\/)?(?:ba|z|k|da)?sh\b/;
const WORKLOAD = new RegExp(`^kind:\\s*["']?(?:${WORKLOAD_KINDS.join('|')})["']?\\s*(?:#.*)?$`, 'm');

export function launchFormatOf(fileName: string, languageId: string | undefined, text: string): LaunchFile['format'] | undefined {
  const name = baseName(fileName);
  const lower = name.toLowerCase();
  if (/\.(?:sh|bash|zsh)$/.test(lower) || languageId === 'shellscript' || SHEBANG.test(text)) return 'shell';
  if (lower === 'dockerfile' || lower === 'containerfile' || lower.endsWith('.dockerfile') || lower.startsWith('dockerfile.') || languageId === 'dockerfile') return 'dockerfile';
  if (lower === 'modelfile' || lower.endsWith('.modelfile')) return 'modelfile';
  if (/\.ya?ml$/.test(lower) || languageId === 'yaml' || languageId === 'dockercompose') {
    if (/^(?:docker-)?compose(?:[.-][\w.-]*)?\.ya?ml$/.test(lower) || languageId === 'dockercompose') return 'compose';
    if (/^apiVersion:/m.test(text) && WORKLOAD.test(text)) return 'kubernetes';
  }
  return undefined;
}
