/**
 * What `python [switches] …` runs, read as the interpreter reads its own switches: the one place
 * `python -m` is peeled (the launch sniffer, the engine readers, the trainer launchers).
 * Switches combine (`-um vllm…`); `-m` and `-c` end them, their argument glued (`-mvllm…`) or the
 * next word; `-W` and `-X` take a value; the first other word is the script.
 */

/** `python`, `python3`, `python3.11`, `/usr/bin/python3`. */
export function isPythonProgram(word: string | undefined): boolean {
  return /^python(\d+(\.\d+)?)?$/.test((word ?? '').replace(/\\/g, '/').split('/').pop() ?? '');
}

export type PythonTarget =
  /** `at`: the word that names the module or script (the `-m` word itself when glued); `rest`: where its own arguments start. */
  { kind: 'module' | 'script'; name: string; at: number; rest: number; glued: boolean } | { kind: 'code' };

/** The module or script argv runs when argv[0] is the interpreter; undefined when it is not, or runs nothing named. */
export function pythonTarget(argv: readonly string[]): PythonTarget | undefined {
  if (!isPythonProgram(argv[0])) return undefined;
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i];
    if (a === '-') return undefined; // the program from stdin
    if (!a.startsWith('-')) return { kind: 'script', name: a, at: i, rest: i + 1, glued: false };
    if (a.startsWith('--')) continue; // --version, --help …
    for (let j = 1; j < a.length; j++) {
      const c = a[j];
      if (c === 'c') return { kind: 'code' };
      if (c !== 'm' && c !== 'W' && c !== 'X') continue;
      const glued = a.slice(j + 1);
      if (c === 'm') {
        if (glued) return { kind: 'module', name: glued, at: i, rest: i + 1, glued: true };
        return i + 1 < argv.length ? { kind: 'module', name: argv[i + 1], at: i + 1, rest: i + 2, glued: false } : undefined;
      }
      if (!glued) i++; // -W/-X's value is the next word
      break;
    }
  }
  return undefined;
}
