/** Picks the parser by language id or file name. */
import { ParsedDocument } from './configNode';
import { parseJsonDocument } from './parseJson';
import { parseYamlDocument } from './parseYaml';

export type DocumentFormat = 'json' | 'yaml';

export function formatOf(fileNameOrLanguageId: string): DocumentFormat | undefined {
  const s = fileNameOrLanguageId.toLowerCase();
  if (s === 'json' || s === 'jsonc' || s.endsWith('.json') || s.endsWith('.jsonc')) return 'json';
  if (s === 'yaml' || s.endsWith('.yaml') || s.endsWith('.yml')) return 'yaml';
  return undefined;
}

export function parseDocumentText(text: string, format: DocumentFormat): ParsedDocument {
  return format === 'json' ? parseJsonDocument(text) : parseYamlDocument(text);
}
