/**
 * `rope-lens rules [CODE] [--json]`: every finding code with its severity and summary, or one code's
 * page (what it reports, why, a bad and a good example, the source). The pages are built into the
 * bundle (rulePages.ts), so this works from any folder, installed or not.
 */
import { CliIO, EXIT_OK, UsageError, parseCliArgs } from './io';
import { FINDING_CODES, codeInfo, codePage } from '../../shared/core/codes';
import { rulePages } from './rulePages';

const USAGE = 'usage: rope-lens rules [CODE] [--json]';

export async function run(argv: string[], io: CliIO): Promise<number> {
  const parsed = parseCliArgs({ args: argv, allowPositionals: true, options: { json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } });
  if (parsed.values.help) {
    io.out(USAGE);
    return EXIT_OK;
  }
  if (parsed.positionals.length > 1) throw new UsageError(`one code at a time (${USAGE})`);
  const pages = rulePages();
  const code = parsed.positionals[0];
  if (code === undefined) {
    if (parsed.values.json) {
      io.out(
        JSON.stringify(
          FINDING_CODES.map((i) => ({ ...i, page: codePage(i.code) })),
          null,
          2,
        ),
      );
      return EXIT_OK;
    }
    const width = Math.max(...FINDING_CODES.map((i) => i.code.length));
    for (const i of FINDING_CODES) io.out(`${i.code.padEnd(width)}  ${(i.retired ? 'retired' : i.severity).padEnd(11)}  ${i.summary}`);
    io.err(`${FINDING_CODES.length} codes; \`rope-lens rules CODE\` prints one's page`);
    return EXIT_OK;
  }
  const info = codeInfo(code);
  const page = pages.get(code);
  if (!info || !page) {
    const near = FINDING_CODES.map((i) => i.code).filter((c) => c.endsWith(`/${code}`) || c.includes(code.replace(/^.*\//, '')));
    throw new UsageError(`no finding code '${code}'${near.length ? `; did you mean ${near.slice(0, 3).join(', ')}?` : ''} (\`rope-lens rules\` lists them)`);
  }
  if (parsed.values.json) io.out(JSON.stringify({ ...info, page: codePage(code), markdown: page }, null, 2));
  else io.out(page.trimEnd());
  return EXIT_OK;
}
