/**
 * fast-check arbitraries that turn real config texts into the half-typed, broken and hostile
 * files an editor sees: structural mutations of the parsed value (deleted, duplicated and
 * misspelled keys, wrong types, extreme numbers, deep nesting) and textual ones (truncation,
 * BOM, CRLF, tabs, random splices).
 */
import fc from 'fast-check';

const EXTREME_NUMBERS = [0, -1, 1, 0.5, 1e-300, 1e300, 1e12, -1e12, 2 ** 53, 3, 7, 127, 1e6, 1.5, Number.MIN_VALUE];
const ROPE_KEYS = [
  'rope_theta',
  'rope_scaling',
  'rope_parameters',
  'max_position_embeddings',
  'head_dim',
  'hidden_size',
  'num_attention_heads',
  'partial_rotary_factor',
  'rotary_pct',
  'original_max_position_embeddings',
  'factor',
  'rope_type',
  'type',
  'beta_fast',
  'beta_slow',
  'low_freq_factor',
  'high_freq_factor',
  'short_factor',
  'long_factor',
  'sequence_len',
  'cutoff_len',
  'base_model',
  'model_name_or_path',
  'text_config',
  'qk_rope_head_dim',
  'rope_ratio',
  'rotary_emb_base',
  'seq_length',
  'max_seq_len',
];

/** A replacement value of any JSON type, biased towards what breaks numeric code. */
export const hostileValue: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...EXTREME_NUMBERS) },
    { weight: 2, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }) },
    { weight: 2, arbitrary: fc.integer() },
    { weight: 2, arbitrary: fc.constantFrom('1e6', '500_000', 'abc', '', 'linear', 'yarn', 'llama3', 'su', 'dynamic', 'longrope', 'mrope', 'NaN', 'Infinity') },
    { weight: 1, arbitrary: fc.constantFrom(null, true, false) },
    { weight: 1, arbitrary: fc.array(fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constant('x')), { maxLength: 70 }) },
    { weight: 1, arbitrary: fc.dictionary(fc.constantFrom(...ROPE_KEYS), tie('value'), { maxKeys: 4 }) },
  ),
})).value;

type Json = unknown;

function isRecord(v: Json): v is Record<string, Json> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Every object in the tree (the root first), so a mutation can land at any depth. */
function objectsIn(v: Json, out: Record<string, Json>[] = []): Record<string, Json>[] {
  if (isRecord(v)) {
    out.push(v);
    for (const c of Object.values(v)) objectsIn(c, out);
  } else if (Array.isArray(v)) for (const c of v) objectsIn(c, out);
  return out;
}

type Mutation = (root: Json) => void;

/** One structural edit applied to a randomly chosen object of the tree. */
const structuralMutation: fc.Arbitrary<Mutation> = fc
  .tuple(fc.nat(), fc.nat(), fc.constantFrom('delete', 'duplicate', 'misspell', 'retype', 'add', 'nest'), hostileValue, fc.constantFrom(...ROPE_KEYS))
  .map(([objPick, keyPick, op, value, newKey]) => (root: Json) => {
    const objects = objectsIn(root);
    if (objects.length === 0) return;
    const obj = objects[objPick % objects.length];
    const keys = Object.keys(obj);
    const key = keys.length ? keys[keyPick % keys.length] : newKey;
    switch (op) {
      case 'delete':
        delete obj[key];
        break;
      case 'duplicate':
        obj[key + '_copy'] = obj[key];
        break;
      case 'misspell': {
        const v = obj[key];
        delete obj[key];
        obj[key.replace(/_/, '-').toUpperCase()] = v;
        break;
      }
      case 'retype':
        obj[key] = value;
        break;
      case 'add':
        obj[newKey] = value;
        break;
      case 'nest': {
        let deep: Json = { [newKey]: value };
        for (let i = 0; i < 60; i++) deep = { x: deep };
        obj[key] = deep;
        break;
      }
    }
  });

/** Serialise in one of the layouts people really have. */
function render(value: Json, style: number): string {
  switch (style % 4) {
    case 0:
      return JSON.stringify(value, null, 2);
    case 1:
      return JSON.stringify(value);
    case 2:
      return JSON.stringify(value, null, '\t').replace(/\n/g, '\r\n');
    default:
      return JSON.stringify(value, null, 4) + '\n';
  }
}

/** A text mutation that may break the syntax. */
const textualMutation: fc.Arbitrary<(t: string) => string> = fc
  .tuple(fc.constantFrom('none', 'truncate', 'bom', 'crlf', 'splice', 'delete-span', 'dup-line'), fc.nat(), fc.nat({ max: 40 }), fc.string({ maxLength: 12 }))
  .map(([op, at, len, junk]) => (t: string) => {
    if (t.length === 0) return junk;
    const p = at % t.length;
    switch (op) {
      case 'truncate':
        return t.slice(0, p);
      case 'bom':
        return '\ufeff' + t;
      case 'crlf':
        return t.replace(/\r?\n/g, '\r\n');
      case 'splice':
        return t.slice(0, p) + junk + t.slice(p);
      case 'delete-span':
        return t.slice(0, p) + t.slice(p + len);
      case 'dup-line': {
        const lines = t.split('\n');
        const i = p % lines.length;
        lines.splice(i, 0, lines[i]);
        return lines.join('\n');
      }
      default:
        return t;
    }
  });

/** Mutated JSON texts derived from the given real config texts. */
export function mutatedJson(seeds: string[]): fc.Arbitrary<string> {
  return fc
    .tuple(fc.constantFrom(...seeds), fc.array(structuralMutation, { maxLength: 5 }), fc.nat(), textualMutation)
    .map(([seed, mutations, style, textual]) => {
      let value: Json;
      try {
        value = JSON.parse(seed.replace(/^\ufeff/, ''));
      } catch {
        return textual(seed);
      }
      for (const m of mutations) m(value);
      return textual(render(value, style));
    });
}

/** Mutated YAML texts: line-level edits of real training YAML (structure-agnostic on purpose). */
export function mutatedYaml(seeds: string[]): fc.Arbitrary<string> {
  const lineEdit = fc
    .tuple(fc.nat(), fc.constantFrom('delete', 'dup', 'dedent', 'indent', 'value', 'anchor'), hostileValue)
    .map(([at, op, value]) => (lines: string[]) => {
      if (lines.length === 0) return;
      const i = at % lines.length;
      const line = lines[i];
      switch (op) {
        case 'delete':
          lines.splice(i, 1);
          break;
        case 'dup':
          lines.splice(i, 0, line);
          break;
        case 'dedent':
          lines[i] = line.replace(/^\s+/, '');
          break;
        case 'indent':
          lines[i] = '  ' + line;
          break;
        case 'anchor':
          lines[i] = line.replace(/:\s*(.*)$/, ': &a $1');
          lines.push('zz: *a');
          break;
        case 'value':
          lines[i] = line.replace(/:\s*.*$/, ': ' + JSON.stringify(value));
          break;
      }
    });
  return fc.tuple(fc.constantFrom(...seeds), fc.array(lineEdit, { maxLength: 5 }), textualMutation).map(([seed, edits, textual]) => {
    const lines = seed.split('\n');
    for (const e of edits) e(lines);
    return textual(lines.join('\n'));
  });
}
