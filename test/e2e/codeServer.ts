/**
 * Runs code-server 4.100.3 (real VS Code 1.100.3 workbench, Node extension host) in throwaway
 * folders and drives it with playwright-core and Debian's chromium. Nothing is written outside
 * the temp folder: XDG dirs, TMPDIR, user data and extensions all live in it.
 */
import { spawn, spawnSync, ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { CODE_SERVER, CHROMIUM } from './tools';

export interface CodeServerRun {
  port: number;
  base: string;
  dir: string;
  userData: string;
  extensions: string;
  proc: ChildProcess;
  log: string[];
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/** Fresh temp root with user settings that keep the workbench quiet and deterministic. */
export function makeDirs(prefix: string): { dir: string; userData: string; extensions: string; env: NodeJS.ProcessEnv } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const userData = join(dir, 'ud');
  const extensions = join(dir, 'ext');
  for (const d of [userData, extensions, join(dir, 'xdg-config'), join(dir, 'xdg-data'), join(dir, 'tmp'), join(userData, 'User')])
    mkdirSync(d, { recursive: true });
  writeFileSync(
    join(userData, 'User', 'settings.json'),
    JSON.stringify(
      {
        'workbench.startupEditor': 'none',
        'security.workspace.trust.enabled': false,
        'telemetry.telemetryLevel': 'off',
        'extensions.autoUpdate': false,
        'extensions.autoCheckUpdates': false,
        'workbench.enableExperiments': false,
        'workbench.tips.enabled': false,
        'chat.commandCenter.enabled': false,
        'editor.inlayHints.enabled': 'on',
        'update.mode': 'none',
      },
      null,
      2,
    ),
  );
  const env = { ...process.env, XDG_CONFIG_HOME: join(dir, 'xdg-config'), XDG_DATA_HOME: join(dir, 'xdg-data'), TMPDIR: join(dir, 'tmp') };
  return { dir, userData, extensions, env };
}

export function installVsix(vsix: string, d: ReturnType<typeof makeDirs>): void {
  const r = spawnSync(
    process.execPath,
    [CODE_SERVER, '--user-data-dir', d.userData, '--extensions-dir', d.extensions, '--install-extension', vsix, '--force'],
    { env: d.env, encoding: 'utf8', timeout: 60000 },
  );
  if (r.status !== 0) throw new Error(`code-server --install-extension failed (${r.status}): ${r.stdout}${r.stderr}`);
}

export async function startCodeServer(d: ReturnType<typeof makeDirs>, workspace: string): Promise<CodeServerRun> {
  const port = await freePort();
  const proc = spawn(
    process.execPath,
    [
      CODE_SERVER,
      '--bind-addr',
      `127.0.0.1:${port}`,
      '--auth',
      'none',
      '--disable-telemetry',
      '--disable-update-check',
      '--disable-workspace-trust',
      '--disable-getting-started-override',
      '--user-data-dir',
      d.userData,
      '--extensions-dir',
      d.extensions,
      workspace,
    ],
    { env: d.env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const log: string[] = [];
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`code-server did not start in 30 s:\n${log.join('')}`)), 30000);
    const onData = (b: Buffer) => {
      log.push(String(b));
      if (log.join('').includes('HTTP server listening')) {
        clearTimeout(timer);
        resolve();
      }
    };
    proc.stdout!.on('data', onData);
    proc.stderr!.on('data', (b: Buffer) => log.push(String(b)));
    proc.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`code-server exited ${code}:\n${log.join('')}`));
    });
  });
  return { port, base: `http://127.0.0.1:${port}`, dir: d.dir, userData: d.userData, extensions: d.extensions, proc, log };
}

/** SIGTERM ends code-server with its extension host and the language server it started. */
export async function stopCodeServer(run: CodeServerRun | undefined): Promise<void> {
  if (!run) return;
  if (run.proc.exitCode === null) {
    const exited = new Promise((r) => run.proc.once('exit', r));
    run.proc.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
    if (run.proc.exitCode === null) run.proc.kill('SIGKILL');
  }
}

/** `webgpu`: offer WebGPU (SwiftShader's adapter in headless Chromium) instead of disabling the GPU. */
export async function launchBrowser(profileDir: string, opts: { webgpu?: boolean } = {}): Promise<BrowserContext> {
  const { chromium } = await import('playwright-core');
  return chromium.launchPersistentContext(profileDir, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1400, height: 900 },
    args: [
      '--no-sandbox',
      opts.webgpu ? '--enable-unsafe-webgpu' : '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
      '--disable-dev-shm-usage',
    ],
  });
}

export function cleanup(dir: string | undefined): void {
  if (dir) rmSync(dir, { recursive: true, force: true });
}

/** The workbench URL that loads `extDir` as a development extension and runs `testsJs` (test-web's payload route). */
export function payloadUrl(run: CodeServerRun, workspace: string, extDir: string, testsJs: string): string {
  const remote = (p: string) => `vscode-remote://127.0.0.1:${run.port}${p}`;
  const payload = [
    ['extensionDevelopmentPath', remote(extDir)],
    ['extensionTestsPath', remote(testsJs)],
  ];
  return `${run.base}/?folder=${encodeURIComponent(workspace)}&payload=${encodeURIComponent(JSON.stringify(payload))}`;
}

export async function screenshot(page: Page, dir: string, name: string): Promise<void> {
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: join(dir, name) });
}
