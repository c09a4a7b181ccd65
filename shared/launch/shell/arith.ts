/**
 * `$(( … ))` evaluated from tree-sitter's expression nodes, in bash's 64-bit signed integers.
 * Nothing is executed: anything outside plain integer arithmetic over known variables (an
 * assignment, a command substitution, division by zero) makes the result unknown.
 */
import type { Node } from 'web-tree-sitter';

/** A variable's integer value as the script left it, or undefined when unknown. */
export type IntLookup = (name: string) => bigint | undefined;

const MAX_DEPTH = 200;
const wrap = (v: bigint) => BigInt.asIntN(64, v);

/** Parses bash integer literals: decimal, 0x hex, 0 octal, base#digits. */
export function parseBashInt(text: string): bigint | undefined {
  const t = text.trim();
  const neg = t.startsWith('-');
  const s = neg || t.startsWith('+') ? t.slice(1) : t;
  let v: bigint | undefined;
  try {
    if (/^0[xX][0-9a-fA-F]+$/.test(s)) v = BigInt(s);
    else if (/^0[0-7]+$/.test(s)) v = BigInt('0o' + s.slice(1));
    else if (/^\d+$/.test(s)) v = BigInt(s);
    else {
      const m = /^(\d+)#([0-9a-zA-Z@_]+)$/.exec(s);
      if (m) {
        const base = Number(m[1]);
        if (base < 2 || base > 64) return undefined;
        const digits = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ@_';
        let acc = 0n;
        for (const ch of m[2]) {
          const d = base <= 36 ? digits.indexOf(ch.toLowerCase()) : digits.indexOf(ch);
          if (d < 0 || d >= base) return undefined;
          acc = acc * BigInt(base) + BigInt(d);
        }
        v = acc;
      }
    }
  } catch {
    return undefined;
  }
  return v === undefined ? undefined : wrap(neg ? -v : v);
}

function operatorOf(node: Node): string | undefined {
  for (let i = 0; i < node.childCount; i++) {
    if (node.fieldNameForChild(i) === 'operator') return node.child(i)?.type;
  }
  return undefined;
}

function binary(op: string, a: bigint, b: bigint): bigint | undefined {
  switch (op) {
    case '+':
      return wrap(a + b);
    case '-':
      return wrap(a - b);
    case '*':
      return wrap(a * b);
    case '/':
      return b === 0n ? undefined : wrap(a / b);
    case '%':
      return b === 0n ? undefined : wrap(a % b);
    case '**':
      return b < 0n || b > 4096n ? undefined : wrap(a ** b);
    case '<<':
      return wrap(a << (b & 63n));
    case '>>':
      return wrap(a >> (b & 63n));
    case '&':
      return a & b;
    case '|':
      return a | b;
    case '^':
      return a ^ b;
    case '<':
      return a < b ? 1n : 0n;
    case '>':
      return a > b ? 1n : 0n;
    case '<=':
      return a <= b ? 1n : 0n;
    case '>=':
      return a >= b ? 1n : 0n;
    case '==':
      return a === b ? 1n : 0n;
    case '!=':
      return a !== b ? 1n : 0n;
    case '&&':
      return a !== 0n && b !== 0n ? 1n : 0n;
    case '||':
      return a !== 0n || b !== 0n ? 1n : 0n;
    default:
      return undefined;
  }
}

/** The value of one arithmetic expression node, or undefined when it is not statically known. */
export function evalArith(node: Node, lookup: IntLookup, depth = 0): bigint | undefined {
  if (depth > MAX_DEPTH) return undefined;
  const sub = (n: Node | null) => (n ? evalArith(n, lookup, depth + 1) : undefined);
  switch (node.type) {
    case 'number':
      return parseBashInt(node.text);
    case 'variable_name': {
      const v = lookup(node.text);
      return v;
    }
    case 'simple_expansion':
    case 'expansion': {
      const name = node.namedChildren.find((c) => c?.type === 'variable_name');
      // `${#X}`, `${X:-d}` and other operators: not plain references.
      if (!name || operatorOf(node) !== undefined || node.namedChildCount !== 1) return undefined;
      return lookup(name.text);
    }
    case 'parenthesized_expression': {
      const inner = node.namedChildren.filter((c): c is Node => !!c);
      return inner.length ? sub(inner[inner.length - 1]) : undefined;
    }
    case 'unary_expression': {
      const op = node.child(0)?.type;
      const v = sub(node.namedChildren[node.namedChildCount - 1] ?? null);
      if (v === undefined) return undefined;
      if (op === '-') return wrap(-v);
      if (op === '+') return v;
      if (op === '!') return v === 0n ? 1n : 0n;
      if (op === '~') return wrap(~v);
      return undefined; // ++/-- change variables
    }
    case 'binary_expression': {
      const op = operatorOf(node);
      if (!op || (op.endsWith('=') && !['==', '!=', '<=', '>='].includes(op))) return undefined; // assignments
      const a = sub(node.childForFieldName('left'));
      const b = sub(node.childForFieldName('right'));
      return a === undefined || b === undefined ? undefined : binary(op, a, b);
    }
    case 'ternary_expression': {
      const c = sub(node.childForFieldName('condition'));
      if (c === undefined) return undefined;
      return sub(node.childForFieldName(c !== 0n ? 'consequence' : 'alternative'));
    }
    default:
      return undefined;
  }
}

/** `$(( a, b ))` and `$[ … ]`: the last comma-separated expression is the value. */
export function evalArithmeticExpansion(node: Node, lookup: IntLookup): bigint | undefined {
  const exprs = node.namedChildren.filter((c): c is Node => !!c && c.type !== 'comment');
  if (!exprs.length || node.hasError) return undefined;
  for (const e of exprs.slice(0, -1)) if (evalArith(e, lookup) === undefined) return undefined;
  return evalArith(exprs[exprs.length - 1], lookup);
}
