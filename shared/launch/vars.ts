/**
 * `$NAME`, `${NAME}`, `${NAME:-default}` substitution for formats that expand variables themselves
 * (Dockerfile `ENV`/`FROM` from `ARG`s, compose interpolation): no shell involved.
 */
import type { VariableTrace } from './types';

export interface VarValue { value: string; known: boolean; via?: VariableTrace[] }

/** Expands references in `text`; unknown ones stay as written and make the result unknown. */
export function substitute(text: string, lookup: (name: string) => VarValue | undefined): VarValue & { via: VariableTrace[] } {
  let known = true;
  const via: VariableTrace[] = [];
  const value = text.replace(/\$\$|\\\$|\$\{([A-Za-z_]\w*)(?:(:?[-+?])((?:[^{}]|\{[^{}]*\})*))?\}|\$([A-Za-z_]\w*)/g, (m, braced?: string, op?: string, word?: string, bare?: string) => {
    if (m === '$$') return '$';
    if (m === '\\$') return '$';
    const name = (braced ?? bare)!;
    const v = lookup(name);
    const empty = !v || (v.known && v.value === '');
    if (op === ':-' || op === '-') {
      if (op === ':-' ? empty : !v) {
        via.push({ name, defaulted: true });
        return word ?? '';
      }
    } else if (op === ':+' || op === '+') {
      return (op === ':+' ? !empty : !!v) ? word ?? '' : '';
    }
    if (!v) { known = false; via.push({ name }); return m; }
    known &&= v.known;
    via.push({ name }, ...(v.via ?? []));
    return v.value;
  });
  return { value, known, via };
}
