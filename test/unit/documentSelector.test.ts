/**
 * The client's document selectors (client/documentSelector.ts): the desktop's `file:` one and the
 * web's any-scheme one are derived from one list; both must keep naming exactly these documents.
 */
import { strict as assert } from 'node:assert';
import { DOCUMENT_SELECTOR, DOCUMENT_SELECTOR_ANY_SCHEME } from '../../client/documentSelector';

const LANGUAGES = ['json', 'jsonc', 'yaml', 'shellscript', 'dockerfile', 'ollama-modelfile', 'dockercompose'];
const PATTERNS = ['**/*{Dockerfile,dockerfile,Containerfile,containerfile}*', '**/{Modelfile,modelfile}*', '**/*.{sh,bash,zsh}'];
const UNTITLED = ['json', 'yaml', 'shellscript'];

/** Filters as sorted JSON lines, so the comparison ignores order (VS Code takes the best match of any filter). */
const lines = (filters: object[]) => filters.map((f) => JSON.stringify(f, Object.keys(f).sort())).sort();

describe('client document selectors', () => {
  it('desktop: every language and name pattern on file:, and unsaved editors of json, yaml and shell', () => {
    const expected = [
      ...LANGUAGES.map((language) => ({ scheme: 'file', language })),
      ...PATTERNS.map((pattern) => ({ scheme: 'file', pattern })),
      ...UNTITLED.map((language) => ({ scheme: 'untitled', language })),
    ];
    assert.deepEqual(lines(DOCUMENT_SELECTOR), lines(expected));
  });

  it('web: the same languages and patterns on any scheme, no untitled twin', () => {
    const expected = [...LANGUAGES.map((language) => ({ language })), ...PATTERNS.map((pattern) => ({ pattern }))];
    assert.deepEqual(lines(DOCUMENT_SELECTOR_ANY_SCHEME), lines(expected));
    assert.ok(DOCUMENT_SELECTOR_ANY_SCHEME.every((f) => !('scheme' in f) && !('untitled' in f)));
  });
});
