/** WebGPU in the e2e browser: what a page's workers are offered. */
import type { Page } from 'playwright-core';

/** What navigator.gpu offers a worker of this page: the adapter in words, or why none. */
export function adapterOf(page: Page): Promise<string> {
  return page.evaluate(async () => {
    const src = `(async () => {
      const gpu = navigator.gpu;
      if (!gpu) return postMessage('no navigator.gpu in a worker');
      const a = await gpu.requestAdapter().catch((e) => null);
      postMessage(a ? 'adapter: ' + [a.info?.vendor, a.info?.architecture, a.info?.description].filter(Boolean).join(' ') : 'navigator.gpu offered no adapter');
    })()`;
    const w = new Worker(URL.createObjectURL(new Blob([src], { type: 'text/javascript' })));
    const said = await new Promise<string>((resolve) => {
      w.onmessage = (e) => resolve(String(e.data));
    });
    w.terminate();
    return said;
  });
}
