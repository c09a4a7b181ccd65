/** Headless Chromium helpers shared by the Inspector and kernel-page browser tests. */
import type { Page } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

/** The flags from the project notes: no network chatter, fresh profile per run. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

export interface PageWatch {
  console: string[];
  csp: string[];
}

/** Collects console errors, page errors and CSP violations (reported by the page itself). */
export async function watch(page: Page): Promise<PageWatch> {
  const w: PageWatch = { console: [], csp: [] };
  page.on('console', (m) => {
    if (m.type() === 'error') w.console.push(m.text());
  });
  page.on('pageerror', (e) => w.console.push(`pageerror: ${e.message}`));
  await page.exposeFunction('__reportCsp', (s: string) => {
    w.csp.push(s);
  });
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      (window as unknown as { __reportCsp(s: string): void }).__reportCsp(`${e.violatedDirective} ${e.blockedURI}`);
    });
  });
  return w;
}
