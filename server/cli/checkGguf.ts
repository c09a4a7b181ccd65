/**
 * `rope-lens check model.gguf`: reads only the header metadata (see shared/node/readGguf.ts) and
 * judges it like the config it was converted from. JSON: kind "gguf", the same `rope` shape as a
 * config, and diagnostics that name a GGUF key instead of a range.
 */
import type { GgufFinding } from '../../shared/service/analyzeGguf';
import { readGgufMetadata } from '../../shared/node/readGguf';
import { ropeToJson, JsonRope } from '../../shared/service/jsonReport';
import type { RopeLensService } from '../../shared/service/service';
import type { CliIO } from './io';

export interface GgufFileReport {
  path: string;
  kind: 'gguf';
  rope: JsonRope | null;
  gguf: { architecture: string | null; name: string | null; hubRef: string | null; scalingType: string | null };
  training: null;
  diagnostics: GgufFinding[];
}

/** The report, or undefined (after one stderr line) when the file is not a readable GGUF. */
export async function checkGguf(
  file: string,
  service: RopeLensService,
  io: CliIO,
): Promise<{ report: GgufFileReport; diagnostics: GgufFinding[] } | undefined> {
  let metadata;
  try {
    metadata = await readGgufMetadata(file);
  } catch (e) {
    io.err(`rope-lens check: ${file}: ${(e as Error).message}`);
    return undefined;
  }
  const a = service.analyzeGguf(metadata, undefined, file);
  const report: GgufFileReport = {
    path: file,
    kind: 'gguf',
    rope: a.rope ? ropeToJson(a.rope) : null,
    gguf: a.gguf,
    training: null,
    diagnostics: a.diagnostics,
  };
  return { report, diagnostics: a.diagnostics };
}
