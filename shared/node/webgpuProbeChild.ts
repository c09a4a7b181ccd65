/**
 * Child-process entry (bundled to dist/webgpuProbe.js): opens a WebGPU adapter, prints what it is as
 * one JSON line ({ info, reason }) and exits. The language server, the CLI and the b* worker ask this
 * short-lived process instead of loading Dawn (and, without a GPU, Mesa's software rasterizer) into its own, so a machine
 * whose adapter will never run a job pays nothing for having asked; Dawn's native logs stay in the
 * child's stderr, a pipe, and are passed on only when asked (adapterProbe.ts, the one module that
 * starts this child and reads its answer).
 */
import { openWebGpu } from './webgpuLoad';

async function main(): Promise<void> {
  const h = await openWebGpu();
  process.stdout.write(`${JSON.stringify({ info: h.info, reason: h.reason })}\n`);
  h.device?.destroy();
}

main().then(
  () => process.exit(0),
  (e) => {
    process.stdout.write(`${JSON.stringify({ info: null, reason: (e as Error)?.message ?? String(e) })}\n`);
    process.exit(0);
  },
);
