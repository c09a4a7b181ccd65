/**
 * `rope-lens` entry point: dispatches to one module per command. Every failure ends as one
 * readable line on stderr and an exit code; no stack trace reaches the user.
 */
import { CliIO, processIO, EXIT_USAGE, UsageError } from './io';
import { RopeError } from '../../shared/core/errors';
import { useProofStore } from '../../shared/bstar/proofCache';
import { userProofStore } from '../../shared/node/proofStore';

type Command = { summary: string; load: () => Promise<{ run(argv: string[], io: CliIO): Promise<number> }> };

const COMMANDS: Record<string, Command> = {
  check: {
    summary:
      'check <files or folders…> [--format text|json|sarif|github] [--fail-on error|warning|never] [--hub] [--consumer SPEC]…   lint model configs, training and serving YAML, GGUF headers',
    load: () => import('./check'),
  },
  freqs: {
    summary: 'freqs <config.json | hub id> [--seq-len N] [--variant v4|v5] [--json]   inv_freq as transformers computes it',
    load: () => import('./freqs'),
  },
  consumers: {
    summary: 'consumers <config.json | folder | training.yaml | hub id> [--hub] [--json]   how each transformers release and engine reads the config',
    load: () => import('./consumers'),
  },
  serve: {
    summary: 'serve <config | folder | model.gguf | hub id> [--engine E] [--context N] [--json]   engine limits and launch flags',
    load: () => import('./serve'),
  },
  bound: { summary: 'bound --length L --head-dim d | --base B … | --table   exact b*(L, d) and L_max(b)', load: () => import('./bound') },
  plan: {
    summary: 'plan --model <path|id> --target N [--stages a,b,…] [--trainer T] [--json]   context-extension plan per stage',
    load: () => import('./plan'),
  },
  inspect: {
    summary: 'inspect <config | hub id> [--target N] [--variant v4|v5] --html out.html | --json   RoPE Inspector page or data',
    load: () => import('./inspect'),
  },
  rules: { summary: "rules [CODE] [--json]                    every finding code, or one code's page (what, why, examples)", load: () => import('./rules') },
  bench: { summary: 'bench --kernels [--json]                 kernel micro-benchmarks', load: () => import('./bench') },
  lsp: { summary: 'lsp [--stdio]                            serve the language server over stdio', load: () => import('./lsp') },
};

function usage(): string {
  return ['usage: rope-lens <command> [options]', '', 'commands:', ...Object.values(COMMANDS).map((c) => '  ' + c.summary)].join('\n');
}

export async function main(argv: string[], io: CliIO = processIO): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    io.out(usage());
    return name ? 0 : EXIT_USAGE;
  }
  if (name === '--version' || name === '-v') {
    io.out(require('../../package.json').version);
    return 0;
  }
  const cmd = COMMANDS[name];
  if (!cmd) {
    io.err(`rope-lens: unknown command '${name}'\n${usage()}`);
    return EXIT_USAGE;
  }
  // Proofs made by any run (check, plan, the pre-commit hook, serve) are kept for the next one.
  useProofStore(userProofStore());
  try {
    return await (await cmd.load()).run(rest, io);
  } catch (e) {
    if (e instanceof UsageError || e instanceof RopeError) {
      io.err(`rope-lens ${name}: ${e.message}`);
      return EXIT_USAGE;
    }
    io.err(`rope-lens ${name}: internal error: ${(e as Error)?.message ?? String(e)}`);
    return EXIT_USAGE;
  }
}

// Run when executed directly (`node dist/cli.js …`); bin/rope-lens.js calls main() itself.
if (require.main === module) {
  main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
