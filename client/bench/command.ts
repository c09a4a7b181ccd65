/**
 * "RoPE Lens: Run Kernel Micro-benchmarks": runs the Node cases in the extension host with a
 * cancellable progress notification, then opens a webview that shows them and runs the same cases
 * on WebGL2 (gpu.js) in the page; results as a table and a chart, exported as JSON. Disabled in
 * untrusted workspaces (it runs generated GPU code and loads the benchmark bundle).
 */
import * as vscode from 'vscode';
import { runNodeKernelBench } from '../../shared/node/kernelBench';
import { COMMANDS, VIEW_TYPES } from '../../shared/protocol/commands';
import type { BenchRun } from '../../shared/kernelBench/runner';
import type { BenchHostMessage } from '../../shared/kernelBench/messages';
import { parseBenchPageMessage } from '../../shared/kernelBench/messages';
import { contentSecurityPolicy, escapeHtml, makeNonce } from '../../shared/inspector/html';

export const KERNEL_BENCH_COMMAND = COMMANDS.runKernelBenchmarks;
const VIEW_TYPE = VIEW_TYPES.kernelBench;

type Size = 'small' | 'medium';

function pageHtml(webview: vscode.Webview, media: vscode.Uri): string {
  const nonce = makeNonce();
  const js = webview.asWebviewUri(vscode.Uri.joinPath(media, 'kernels.js')).toString();
  const css = webview.asWebviewUri(vscode.Uri.joinPath(media, 'kernels.css')).toString();
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(contentSecurityPolicy(nonce, webview.cspSource))}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>RoPE Lens kernel benchmarks</title>
<link rel="stylesheet" nonce="${nonce}" href="${escapeHtml(css)}">
</head><body class="rl-webview"><div id="app"></div>
<script nonce="${nonce}" src="${escapeHtml(js)}"></script>
</body></html>`;
}

class BenchPanel {
  private nodeRun: BenchRun | null = null;
  private webRun: BenchRun | null = null;
  private ready = false;
  private queued: BenchHostMessage[] = [];

  constructor(
    readonly panel: vscode.WebviewPanel,
    media: vscode.Uri,
    private readonly onDispose: () => void,
  ) {
    panel.webview.options = { enableScripts: true, localResourceRoots: [media], enableCommandUris: false };
    panel.webview.html = pageHtml(panel.webview, media);
    panel.webview.onDidReceiveMessage((m) => void this.onMessage(m));
    panel.onDidDispose(() => this.onDispose());
  }

  post(m: BenchHostMessage): void {
    if (this.ready) void this.panel.webview.postMessage(m);
    else this.queued.push(m);
  }

  showNode(run: BenchRun | null, note?: string): void {
    this.nodeRun = run;
    this.post({ type: 'node-results', run, note });
  }

  private async onMessage(raw: unknown): Promise<void> {
    const m = parseBenchPageMessage(raw);
    if (!m) return; // not a message this page sends: ignore
    if (m.type === 'ready') {
      this.ready = true;
      for (const q of this.queued.splice(0)) void this.panel.webview.postMessage(q);
    } else if (m.type === 'webview-results') {
      this.webRun = m.run;
    } else if (m.type === 'export') {
      await this.exportJson();
    }
  }

  private async exportJson(): Promise<void> {
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    const target = await vscode.window.showSaveDialog({
      defaultUri: folder ? vscode.Uri.joinPath(folder, 'rope-lens-kernel-bench.json') : undefined,
      filters: { JSON: ['json'] },
    });
    if (!target) return;
    const doc = { tool: 'rope-lens', kind: 'kernel-micro-benchmarks', node: this.nodeRun, webview: this.webRun };
    await vscode.workspace.fs.writeFile(target, Buffer.from(JSON.stringify(doc, null, 2), 'utf8'));
    void vscode.window.showInformationMessage(`RoPE Lens: benchmark results saved to ${vscode.workspace.asRelativePath(target)}`);
  }
}

async function runNode(size: Size): Promise<{ run: BenchRun | null; note?: string }> {
  return vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: 'RoPE Lens: kernel micro-benchmarks (Node)', cancellable: true },
    async (progress, token) => {
      const signal = { aborted: false };
      token.onCancellationRequested(() => {
        signal.aborted = true;
      });
      let last = 0;
      const run = await runNodeKernelBench({
        size,
        signal,
        yieldToUi: () => new Promise((r) => setImmediate(r)),
        onProgress: (done, total, label) => {
          const pct = total ? (done / total) * 100 : 0;
          progress.report({ increment: pct - last, message: label });
          last = pct;
        },
      });
      return { run, note: run.cancelled ? 'Node run cancelled: partial results.' : undefined };
    },
  );
}

export function registerKernelBench(context: vscode.ExtensionContext): void {
  let current: BenchPanel | undefined;
  const media = vscode.Uri.joinPath(context.extensionUri, 'dist', 'media');
  context.subscriptions.push(
    vscode.commands.registerCommand(KERNEL_BENCH_COMMAND, async (sizeArg?: unknown) => {
      if (!vscode.workspace.isTrusted) {
        void vscode.window.showWarningMessage(
          'RoPE Lens: kernel micro-benchmarks are off in untrusted workspaces (they run generated GPU code). Trust the workspace to run them; the analysis, hovers, quick fixes and the Inspector keep working.',
        );
        return;
      }
      let size: Size | undefined = sizeArg === 'small' || sizeArg === 'medium' ? sizeArg : undefined;
      if (!size) {
        const pick = await vscode.window.showQuickPick(
          [
            { label: 'small', description: '512 tokens × 8 heads × 128; f_b over 16k positions (a few seconds)' },
            { label: 'medium', description: '2048 × 16 × 128; f_b over 64k positions (tens of seconds)' },
          ],
          { title: 'Kernel micro-benchmarks: size' },
        );
        if (!pick) return;
        size = pick.label as Size;
      }
      if (!current) {
        const panel = vscode.window.createWebviewPanel(VIEW_TYPE, 'RoPE Lens: Kernel Benchmarks', vscode.ViewColumn.Active, {
          enableScripts: true,
          localResourceRoots: [media],
        });
        current = new BenchPanel(panel, media, () => {
          current = undefined;
        });
      } else {
        current.panel.reveal();
      }
      const panel = current;
      try {
        const { run, note } = await runNode(size);
        panel.showNode(run, note);
      } catch (e) {
        panel.showNode(null, `Node run failed: ${(e as Error)?.message ?? e}`);
      }
      panel.post({ type: 'start', size });
    }),
  );
}
