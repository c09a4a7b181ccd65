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
export const WITH_ESCAPE = { '\\$': new RegExp(`\\\\\\$|${REFERENCE}`, 'g'), $$: new RegExp(`\\$\\$|${REFERENCE}`, 'g') };

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

/**
 * The path after the last folder that holds a variable or a command substitution
 * (`$(dirname "$0")/lib/env.sh` → `lib/env.sh`; at most all but the first part), or undefined when
 * it ends in one: what can be looked up beside a script when the rest is only known at run time. Folder by
 * folder, where a pattern anchored at the end would restart at every '/'.
 */
export function pathAfterVariables(written: string): string | undefined {
  const parts = written.split('/');
  let from = parts.length;
  // The first part has no '/' before it: a name needs one.
  while (from > 1 && parts[from - 1] !== '' && !/[$`]/.test(parts[from - 1])) from--;
  return from < parts.length ? parts.slice(from).join('/') : undefined;
}
