/**
 * Injected into the web bundles for free `Buffer` references (esbuild.mjs): dockerfile-ast tests
 * for a byte-order mark with `Buffer.from(char, 'UTF-8')`, its only use of Node's Buffer. UTF-8
 * is all it ever asks for, which TextEncoder gives in every browser.
 */
export const Buffer = {
  from(text: string, encoding = 'utf-8'): Uint8Array {
    if (!/^utf-?8$/i.test(encoding)) throw new Error(`the web build's Buffer shim encodes UTF-8 only, not ${encoding}`);
    return new TextEncoder().encode(text);
  },
};
