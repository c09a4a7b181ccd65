/**
 * Shell variables as the script leaves them, statement by statement: what `$X` means at a given
 * command. Functions and subshells get a child scope; `local` and function arguments stay there.
 */
import type { Range } from '../../core/range';
import type { Token, VariableTrace } from '../types';

export interface Binding {
  value: string;
  known: boolean;
  /** `NAME=( … )`: the elements, each at its own span in the array literal. */
  elements?: Token[];
  /** Span of the assigned value (what a fix edits), absent for an unset marker. */
  assignedAt?: Range;
  /** The value as a token (for an invocation's env); absent for an unset marker. */
  token?: Token;
  exported: boolean;
  /** Variables the value itself came through. */
  via?: VariableTrace[];
  /** `unset NAME`: hides outer bindings. */
  unset?: boolean;
  /** Assigned in a sourced file (its `assignedAt` is a span of that file). */
  from?: string;
  /** `local x=$2`: the call's argument the value is, so a use of `$x` is that argument's token. */
  argToken?: Token;
  /** Where the value's parts are written (a string assembled by `=` and `+=`); see words.ts Run. */
  runs?: import('./words').Run[];
  /** The branches (if/elif/else/case item/loop body, outermost first) the assignment sits in. */
  branch?: readonly number[];
}

export class Scope {
  private readonly vars = new Map<string, Binding>();
  constructor(
    readonly parent?: Scope,
    /** `$1`…, `$@` inside a function: the call's arguments. Undefined at top level (unknown). */
    readonly positional?: Token[],
  ) {}

  get(name: string): Binding | undefined {
    for (let s: Scope | undefined = this; s; s = s.parent) {
      const b = s.vars.get(name);
      if (b) return b.unset ? undefined : b;
    }
    return undefined;
  }

  set(name: string, b: Binding): void {
    this.vars.set(name, b);
  }

  unset(name: string): void {
    this.vars.set(name, { value: '', known: true, exported: false, unset: true });
  }

  markExported(name: string): void {
    const b = this.get(name);
    if (b) this.vars.set(name, { ...b, exported: true });
  }

  /** Exported variables visible here, inner scopes winning. */
  exported(): Map<string, Binding> {
    const chain: Scope[] = [];
    for (let s: Scope | undefined = this; s; s = s.parent) chain.unshift(s);
    const out = new Map<string, Binding>();
    for (const s of chain) {
      for (const [k, b] of s.vars) {
        if (b.unset || !b.exported) out.delete(k);
        else out.set(k, b);
      }
    }
    return out;
  }

  /** Every variable visible here with a value token, inner scopes winning (for a nested `bash -c`). */
  tokens(): Record<string, Token> {
    const chain: Scope[] = [];
    for (let s: Scope | undefined = this; s; s = s.parent) chain.unshift(s);
    const out: Record<string, Token> = {};
    for (const s of chain)
      for (const [k, b] of s.vars) {
        if (b.unset || !b.token) delete out[k];
        else out[k] = b.token;
      }
    return out;
  }

  /** The nearest function's arguments. */
  args(): Token[] | undefined {
    for (let s: Scope | undefined = this; s; s = s.parent) if (s.positional) return s.positional;
    return undefined;
  }
}
