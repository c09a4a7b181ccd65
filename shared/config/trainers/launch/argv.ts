/**
 * Reading a trainer's arguments off argv tokens, with the exact span of each value:
 *   `--key value` and `--key=value` (argparse, HfArgumentParser, click, fire), and
 *   `key=value` (OmegaConf dotlists: LLaMA-Factory after a YAML, torchtune overrides).
 * An option read here keeps its flag token and the part of a token that holds the value, so a
 * finding points at the value and a fix replaces exactly it.
 */
import type { Token } from '../../../launch/types';

/** How the option was written. */
export type OptionForm = 'flag-value' | 'flag=value' | 'key=value' | 'flag';

export interface ArgOption {
  /** The name as written, without dashes (`max_length`, `seq-length`, `tokenizer.max_seq_len`). */
  name: string;
  /** The token holding the flag (for `--k=v` and `k=v`, the same token as the value). */
  flag: Token;
  /** The token holding the value, absent for a bare boolean flag. */
  value?: Token;
  /** The value as the program receives it. */
  text?: string;
  /** Span of the value inside the document: the whole value token, or the part after `=` when it can be located. */
  valueOffset: number;
  valueLength: number;
  form: OptionForm;
}

/** `--max-length` and `--max_length` name the same field for HfArgumentParser and fire. */
export function normalized(name: string): string {
  return name.replace(/-/g, '_');
}

/**
 * The value part of a `k=v` / `--k=v` token: its text, and its span in the document when the
 * token is written without quotes or escapes (else the whole token).
 */
export function afterEquals(tok: Token): { text: string; offset: number; length: number } {
  const eq = tok.value.indexOf('=');
  const text = tok.value.slice(eq + 1);
  const rawEq = tok.raw.indexOf('=');
  if (tok.quote === 'none' && tok.raw === tok.value && rawEq === eq) {
    return { text, offset: tok.offset + eq + 1, length: tok.length - eq - 1 };
  }
  return { text, offset: tok.offset, length: tok.length };
}

export interface FlagGrammar {
  /** Flags that take no value (`--do_train`, `--use-rotary-position-embeddings`); normalized names. */
  booleans?: ReadonlySet<string>;
  /** Accept `key=value` tokens (OmegaConf dotlists). */
  dotlist?: boolean;
}

/**
 * Every option in `args`, in order; later ones win when the caller looks a name up (argparse and
 * OmegaConf both keep the last). Tokens that are neither (positionals) are returned apart.
 */
export function readOptions(args: Token[], grammar: FlagGrammar = {}): { options: ArgOption[]; positionals: Token[] } {
  const options: ArgOption[] = [];
  const positionals: Token[] = [];
  for (let i = 0; i < args.length; i++) {
    const tok = args[i];
    const v = tok.value;
    if (/^--?[A-Za-z]/.test(v)) {
      const body = v.replace(/^--?/, '');
      const eq = body.indexOf('=');
      if (eq >= 0) {
        const part = afterEquals(tok);
        options.push({
          name: body.slice(0, eq),
          flag: tok,
          value: tok,
          text: part.text,
          valueOffset: part.offset,
          valueLength: part.length,
          form: 'flag=value',
        });
        continue;
      }
      const next = args[i + 1];
      const takesValue =
        !grammar.booleans?.has(normalized(body)) && next !== undefined && !/^--?[A-Za-z]/.test(next.value) && !(grammar.dotlist && isDotlistToken(next));
      if (takesValue) {
        options.push({ name: body, flag: tok, value: next, text: next.value, valueOffset: next.offset, valueLength: next.length, form: 'flag-value' });
        i++;
      } else {
        options.push({ name: body, flag: tok, valueOffset: tok.offset, valueLength: tok.length, form: 'flag' });
      }
      continue;
    }
    if (grammar.dotlist && isDotlistToken(tok)) {
      const part = afterEquals(tok);
      options.push({
        name: v.slice(0, v.indexOf('=')),
        flag: tok,
        value: tok,
        text: part.text,
        valueOffset: part.offset,
        valueLength: part.length,
        form: 'key=value',
      });
      continue;
    }
    positionals.push(tok);
  }
  return { options, positionals };
}

/** `tokenizer.max_seq_len=8192`, `~model.foo` is not one (a deletion), nor `a==b`. */
export function isDotlistToken(tok: Token): boolean {
  return /^[A-Za-z_][\w.\-]*=(?!=)/.test(tok.value);
}

/** The last option whose normalized name is one of `names` (argparse keeps the last). */
export function lastOf(options: ArgOption[], ...names: string[]): ArgOption | undefined {
  const wanted = new Set(names.map(normalized));
  for (let i = options.length - 1; i >= 0; i--) if (wanted.has(normalized(options[i].name))) return options[i];
  return undefined;
}

/** A value as Python's int()/float() would read it (argparse `type=int` refuses `1e6`; we accept any finite number). */
export function numberText(s: string | undefined): number | undefined {
  if (s === undefined) return undefined;
  const t = s.trim().replace(/_/g, '');
  if (!/^[+-]?(\d+(?:\.\d*)?|\.\d+)(e[+-]?\d+)?$/i.test(t)) return undefined;
  const n = Number(t);
  return Number.isFinite(n) ? n : undefined;
}

/** HfArgumentParser's string_to_bool, and a bare flag meaning True. */
export function truthy(o: ArgOption | undefined): boolean | undefined {
  if (!o) return undefined;
  if (o.form === 'flag') return true;
  const t = (o.text ?? '').trim().toLowerCase();
  if (['yes', 'true', 't', 'y', '1'].includes(t)) return true;
  if (['no', 'false', 'f', 'n', '0'].includes(t)) return false;
  return undefined;
}
