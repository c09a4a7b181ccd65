/**
 * A small JSON Schema (draft-07) validator for the subset the catalog schema uses: type (one or a
 * list), required, properties, additionalProperties (false), items, minItems, $ref to
 * `#/definitions/…`, pattern, minLength, minimum, maximum, exclusiveMinimum. Keywords outside the
 * subset are reported, so a schema cannot silently rely on something this does not check.
 */
type Schema = Record<string, unknown>;

const SUPPORTED = new Set([
  '$schema',
  '$id',
  'title',
  'description',
  'definitions',
  'type',
  'required',
  'properties',
  'additionalProperties',
  'items',
  'minItems',
  '$ref',
  'pattern',
  'minLength',
  'minimum',
  'maximum',
  'exclusiveMinimum',
]);

function typeOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

function typeMatches(v: unknown, t: string): boolean {
  const actual = typeOf(v);
  return actual === t || (t === 'number' && actual === 'integer');
}

/** Errors as `path: message`; empty when the value conforms. */
export function validate(value: unknown, root: Schema): string[] {
  const errors: string[] = [];
  const resolve = (ref: string): Schema => {
    const m = /^#\/definitions\/(.+)$/.exec(ref);
    const defs = root['definitions'] as Record<string, Schema> | undefined;
    if (!m || !defs?.[m[1]]) throw new Error(`unsupported or unknown $ref ${ref}`);
    return defs[m[1]];
  };
  const walk = (v: unknown, s: Schema, path: string): void => {
    for (const k of Object.keys(s)) if (!SUPPORTED.has(k)) throw new Error(`schema keyword ${k} at ${path} is outside the supported subset`);
    if (typeof s['$ref'] === 'string') return walk(v, resolve(s['$ref']), path);
    if (s['type'] !== undefined) {
      const types = Array.isArray(s['type']) ? (s['type'] as string[]) : [s['type'] as string];
      if (!types.some((t) => typeMatches(v, t))) {
        errors.push(`${path}: expected ${types.join(' or ')}, got ${typeOf(v)}`);
        return;
      }
    }
    if (typeof v === 'string') {
      if (typeof s['minLength'] === 'number' && v.length < s['minLength']) errors.push(`${path}: shorter than ${s['minLength']}`);
      if (typeof s['pattern'] === 'string' && !new RegExp(s['pattern']).test(v)) errors.push(`${path}: ${JSON.stringify(v)} does not match ${s['pattern']}`);
    }
    if (typeof v === 'number') {
      if (typeof s['minimum'] === 'number' && v < s['minimum']) errors.push(`${path}: ${v} < minimum ${s['minimum']}`);
      if (typeof s['maximum'] === 'number' && v > s['maximum']) errors.push(`${path}: ${v} > maximum ${s['maximum']}`);
      if (typeof s['exclusiveMinimum'] === 'number' && v <= s['exclusiveMinimum']) errors.push(`${path}: ${v} <= exclusiveMinimum ${s['exclusiveMinimum']}`);
    }
    if (Array.isArray(v)) {
      if (typeof s['minItems'] === 'number' && v.length < s['minItems']) errors.push(`${path}: fewer than ${s['minItems']} items`);
      if (s['items'] && typeof s['items'] === 'object') v.forEach((x, i) => walk(x, s['items'] as Schema, `${path}[${i}]`));
    }
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
      const o = v as Record<string, unknown>;
      const props = (s['properties'] ?? {}) as Record<string, Schema>;
      for (const r of (s['required'] ?? []) as string[]) if (!(r in o)) errors.push(`${path}: missing required ${r}`);
      for (const [k, x] of Object.entries(o)) {
        if (props[k]) walk(x, props[k], `${path}.${k}`);
        else if (s['additionalProperties'] === false) errors.push(`${path}: unexpected property ${k}`);
      }
    }
  };
  walk(value, root, '$');
  return errors;
}
