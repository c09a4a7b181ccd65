// Placeholder until the 'inspect' command lands.
import { CliIO, EXIT_USAGE } from './io';
export async function run(_argv: string[], io: CliIO): Promise<number> {
  io.err('rope-lens inspect: not implemented yet');
  return EXIT_USAGE;
}
