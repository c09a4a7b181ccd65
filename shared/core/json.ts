/**
 * The one writer of compact JSON (no spaces, so a value stays one word on a command line):
 * `rope-lens serve`'s override arguments, the launch fixes' override edits and the command-line
 * editor's JSON values all come from here. How each number is written is the caller's policy
 * (a float key as `4.0`, a float kept from the source), passed as `scalar`.
 */

/** Writes a scalar (or returns undefined for JSON's own text); `key` is the object key it sits under. */
export type JsonScalarWriter = (value: unknown, key: string | undefined) => string | undefined;

export function compactJsonText(value: unknown, scalar?: JsonScalarWriter, key?: string): string {
  const own = scalar?.(value, key);
  if (own !== undefined) return own;
  if (Array.isArray(value)) return `[${value.map((v) => compactJsonText(v, scalar)).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.entries(value as Record<string, unknown>)
      .map(([k, v]) => `${JSON.stringify(k)}:${compactJsonText(v, scalar, k)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}
