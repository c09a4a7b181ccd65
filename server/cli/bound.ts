// Placeholder until the 'bound' command lands.
import { CliIO, EXIT_USAGE } from './io';
export async function run(_argv: string[], io: CliIO): Promise<number> {
  io.err('rope-lens bound: not implemented yet');
  return EXIT_USAGE;
}
