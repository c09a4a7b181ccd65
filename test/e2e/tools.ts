/** Locating the external tools the end-to-end tiers need; a missing tool skips its tier. */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

export function which(cmd: string): string | undefined {
  const r = spawnSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' });
  const p = r.stdout.trim();
  return r.status === 0 && p ? p : undefined;
}

export const ROOT = join(__dirname, '..', '..');
/** code-server 4.100.3 as installed by test/e2e/install-code-server.sh. */
export const CODE_SERVER = join(ROOT, '.cache', 'code-server', 'node_modules', 'code-server', 'out', 'node', 'entry.js');
export const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));
export const hasCodeServer = () => existsSync(CODE_SERVER);
