/** A small import graph of the repository's TypeScript (static imports, require() and import() of string literals). */
import { readFileSync, readdirSync, statSync, existsSync } from 'node:fs';
import { join, dirname, relative, resolve, sep } from 'node:path';

export const ROOT = resolve(__dirname, '..', '..');

export interface ImportEdge {
  from: string;
  spec: string /** Repo-relative file for relative imports. */;
  target?: string;
}

export function tsFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const n of readdirSync(d)) {
      const p = join(d, n);
      if (statSync(p).isDirectory()) walk(p);
      else if (n.endsWith('.ts') && !n.endsWith('.d.ts')) out.push(relative(ROOT, p).split(sep).join('/'));
    }
  };
  if (existsSync(join(ROOT, dir))) walk(join(ROOT, dir));
  return out.sort();
}

const IMPORT = /(?:^|[^\w.])(?:import|export)\s+(?:type\s+)?(?:[\w*{}\s,]+?\s+from\s+)?['"]([^'"]+)['"]|(?:require|import)\(\s*['"]([^'"]+)['"]\s*\)/g;

/** Comments removed so examples in prose are not taken for imports. */
function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
}

function resolveTarget(from: string, spec: string): string | undefined {
  if (!spec.startsWith('.')) return undefined;
  const base = join(ROOT, dirname(from), spec);
  for (const c of [base + '.ts', join(base, 'index.ts'), base]) {
    if (existsSync(c) && statSync(c).isFile()) return relative(ROOT, c).split(sep).join('/');
  }
  return relative(ROOT, base).split(sep).join('/');
}

export function importsOf(file: string): ImportEdge[] {
  const text = code(readFileSync(join(ROOT, file), 'utf8'));
  const out: ImportEdge[] = [];
  for (const m of text.matchAll(IMPORT)) {
    const spec = m[1] ?? m[2];
    out.push({ from: file, spec, target: resolveTarget(file, spec) });
  }
  return out;
}

/** Every file reachable from `entries` through relative imports. */
export function closure(entries: string[]): Set<string> {
  const seen = new Set<string>();
  const stack = [...entries];
  while (stack.length) {
    const f = stack.pop()!;
    if (seen.has(f) || !existsSync(join(ROOT, f))) continue;
    seen.add(f);
    for (const e of importsOf(f)) if (e.target && e.target.endsWith('.ts')) stack.push(e.target);
  }
  return seen;
}
