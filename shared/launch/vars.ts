/**
 * `$NAME`, `${NAME}`, `${NAME:-default}` substitution for formats that expand variables themselves
 * (Dockerfile `ENV`/`FROM` from `ARG`s, compose interpolation): no shell involved.
 */
import type { VariableTrace } from './types';

export interface VarValue {
  value: string;
  known: boolean;
  via?: VariableTrace[];
}

/** `${NAME}`, `${NAME:-word}` (also `-`, `:+`, `+`, `:?`, `?`), `$NAME`. */
const REFERENCE = /\$\{([A-Za-z_]\w*)(?:(:?[-+?])((?:[^{}]|\{[^{}]*\})*))?\}|\$([A-Za-z_]\w*)/.source;
const WITH_ESCAPE = { '\\$': new RegExp(`\\\\\\$|${REFERENCE}`, 'g'), $$: new RegExp(`\\$\\$|${REFERENCE}`, 'g') };

/**
 * Expands references in `text`; unknown ones stay as written and make the result unknown.
 * `escape`: how a literal `$` is written: `\$` in a Dockerfile, `$$` in compose.
 */
export function substitute(text: string, lookup: (name: string) => VarValue | undefined, escape: '\\$' | '$$' = '\\$'): VarValue & { via: VariableTrace[] } {
  let known = true;
  const via: VariableTrace[] = [];
  const value = text.replace(WITH_ESCAPE[escape], (m, braced?: string, op?: string, word?: string, bare?: string) => {
    if (m === '$$' || m === '\\$') return '$';
    const name = (braced ?? bare)!;
    const v = lookup(name);
    const empty = !v || (v.known && v.value === '');
    if (op === ':-' || op === '-') {
      if (op === ':-' ? empty : !v) {
        via.push({ name, defaulted: true });
        return word ?? '';
      }
    } else if (op === ':+' || op === '+') {
      return (op === ':+' ? !empty : !!v) ? (word ?? '') : '';
    }
    if (!v) {
      known = false;
      via.push({ name });
      return m;
    }
    known &&= v.known;
    via.push({ name }, ...(v.via ?? []));
    return v.value;
  });
  return { value, known, via };
}
