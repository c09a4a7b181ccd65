/**
 * The Inspector page's HTML, shared by the VS Code webview and the standalone export so both show
 * the same page. Only the asset delivery differs: the webview links its bundle through
 * asWebviewUri, the export inlines it. Either way the CSP allows nothing but this page's own
 * nonce-tagged script and style (plus the webview's own origin for the linked files).
 */
import type { InspectorData } from './types';
import type { PlanViewData } from './planTypes';
import type { InspectorInput } from './build';

export interface PageAssets {
  /** Linked script URL (webview), or the script text itself (standalone). */
  script: { src: string } | { inline: string };
  style: { href: string } | { inline: string };
}

export interface PageOptions {
  nonce: string;
  /** webview.cspSource: the origin linked assets come from (absent for the standalone file). */
  cspSource?: string;
  title: string;
  data?: InspectorData;
  /** Embedded only in the standalone export, so its controls can recompute in the page. */
  input?: InspectorInput;
  /** The plan view's data: the page opens on the plan view. */
  plan?: PlanViewData;
  standalone: boolean;
}

/** A 128-bit random nonce, base64 (crypto.getRandomValues exists in Node ≥ 19 and browsers). */
export function makeNonce(): string {
  const bytes = new Uint8Array(16);
  globalThis.crypto.getRandomValues(bytes);
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s);
}

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** JSON that is safe inside <script type="application/json">: no `</script>`, no `<!--`. */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** Inline script text must not close its own element early. */
function safeInlineScript(js: string): string {
  return js.replace(/<\/script/gi, '<\\/script').replace(/<!--/g, '<\\!--');
}

export function contentSecurityPolicy(nonce: string, cspSource?: string): string {
  const src = cspSource ? ` ${cspSource}` : '';
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src 'nonce-${nonce}'${src}`,
    `img-src data:${src}`,
    `font-src${src || " 'none'"}`,
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

export function renderInspectorHtml(assets: PageAssets, o: PageOptions): string {
  const nonce = escapeHtml(o.nonce);
  const style =
    'href' in assets.style
      ? `<link rel="stylesheet" nonce="${nonce}" href="${escapeHtml(assets.style.href)}">`
      : `<style nonce="${nonce}">${assets.style.inline.replace(/<\/style/gi, '<\\/style')}</style>`;
  const script =
    'src' in assets.script
      ? `<script nonce="${nonce}" src="${escapeHtml(assets.script.src)}"></script>`
      : `<script nonce="${nonce}">${safeInlineScript(assets.script.inline)}</script>`;
  const payload =
    o.data || o.input || o.plan
      ? `<script type="application/json" id="rope-lens-data">${jsonForScript({ data: o.data, input: o.input, plan: o.plan })}</script>`
      : '';
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(contentSecurityPolicy(o.nonce, o.cspSource))}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="RoPE Lens">
<title>${escapeHtml(o.title)}</title>
${style}
</head>
<body class="${o.standalone ? 'rl-standalone' : 'rl-webview'}">
<div id="app"></div>
${payload}
${script}
</body>
</html>
`;
}
