/**
 * Quick-fix round trips on every fixture (hand-written, real-corpus and examples): a fix changes
 * only RoPE keys (compared on the parsed trees), keeps comments, line endings and the file's
 * indentation style, and applying it again to its own result changes nothing.
 */
import { strict as assert } from 'node:assert';
import { analyzeText } from '../../shared/service/analyze';
import { createSyncOracle } from '../../shared/service/syncOracle';
import { parseDocumentText, formatOf } from '../../shared/document/parse';
import { toPlain } from '../../shared/document/configNode';
import { applyTextEdits } from '../../shared/fixes/textEdits';
import { LineIndex } from '../../shared/document/positions';
import type { Fix } from '../../shared/service/types';
import { fixtureTexts } from '../fuzz/harness';

const oracle = createSyncOracle();

/** Keys a RoPE rewrite may touch; a change anywhere else is a fix that "changed something else". */
const ROPE_KEYS = new Set([
  'rope_theta',
  'rope_scaling',
  'rope_parameters',
  'rotary_emb_base',
  'rotary_base',
  'rope_base',
  'rope_type',
  'type',
  'factor',
  'original_max_position_embeddings',
  'max_position_embeddings',
  'low_freq_factor',
  'high_freq_factor',
  'beta_fast',
  'beta_slow',
  'attention_factor',
  'mscale',
  'mscale_all_dim',
  'truncate',
  'overrides_of_model_config',
  'model_config',
  'partial_rotary_factor',
  'rotary_pct',
  'seq_length',
  // other families' context keys, and GPT-NeoX's hyphenated spellings
  'max_seq_len',
  'max_sequence_length',
  'n_positions',
  'max-position-embeddings',
  'seq-length',
  'rotary-emb-base',
  'rotary-pct',
  // vLLM serving configs: the context option, the override that carries the scaling, the removed options
  'max-model-len',
  'max_model_len',
  'hf-overrides',
  'hf_overrides',
  'rope-scaling',
  'rope-theta',
]);

/** Paths (dotted) whose values differ between two plain trees, down to the first differing level. */
function changedPaths(a: unknown, b: unknown, path: string[] = [], out: string[][] = []): string[][] {
  const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  if (isObj(a) && isObj(b)) {
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) changedPaths(a[k], b[k], [...path, k], out);
  } else if (JSON.stringify(a) !== JSON.stringify(b)) {
    out.push(path);
  }
  return out;
}

function commentLines(text: string, format: 'json' | 'yaml'): string[] {
  const marker = format === 'yaml' ? /(^|\s)#/ : /\/\/|\/\*/;
  return text
    .split(/\r?\n/)
    .filter((l) => marker.test(l))
    .map((l) => l.trim());
}

function eol(text: string): 'crlf' | 'lf' | 'none' {
  if (/\r\n/.test(text)) return 'crlf';
  return /\n/.test(text) ? 'lf' : 'none';
}

function apply(text: string, fix: Fix): string {
  return applyTextEdits(text, new LineIndex(text), fix.edits);
}

describe('quick-fix round trips on every fixture', () => {
  const files = fixtureTexts(['test/fixtures', 'examples'], ['.json', '.yaml', '.yml']).filter((f) => !/not-models|tokenizer|package\.json/.test(f.path));
  let fixesChecked = 0;

  for (const { path, text } of files) {
    it(path, function () {
      this.timeout(60000);
      const format = formatOf(path)!;
      const analysis = analyzeText(text, { fileName: path, oracle });
      // Launch files (compose, Kubernetes) edit command tokens, not config keys: their fixes are
      // held to "only the command's own flags change" by the launch tests and the launch corpus.
      if (analysis.kind === 'launch') return;
      const before = toPlain(parseDocumentText(text, format).root);
      for (const finding of analysis.diagnostics) {
        for (const fix of finding.fixes) {
          fixesChecked++;
          const next = apply(text, fix);
          const parsed = parseDocumentText(next, format);
          assert.ok(parsed.root, `${fix.title}: result parses`);

          // Only RoPE keys change, compared on the parsed trees.
          for (const p of changedPaths(before, toPlain(parsed.root))) {
            assert.ok(
              p.some((k) => ROPE_KEYS.has(k)),
              `${fix.title}: changed a non-RoPE key ${p.join('.')}`,
            );
          }
          // Comments and line endings survive; inserted lines use the file's indentation character.
          for (const c of commentLines(text, format)) assert.ok(next.includes(c), `${fix.title}: lost comment ${c}`);
          if (eol(text) !== 'none') assert.equal(eol(next), eol(text), `${fix.title}: line endings`);
          if (eol(text) === 'crlf') assert.ok(!/[^\r]\n/.test(next), `${fix.title}: a bare LF in a CRLF file`);
          const usesTabs = /\n\t/.test(text);
          const added = next.split(/\r?\n/).filter((l) => !text.includes(l));
          for (const l of added) {
            const indent = /^\s*/.exec(l)![0];
            if (indent) assert.ok(usesTabs ? !/ {2}/.test(indent) : !indent.includes('\t'), `${fix.title}: indentation of "${l}"`);
          }

          // Idempotent: the same rewrite offered on its own result changes nothing.
          const again = analyzeText(next, { fileName: path, oracle });
          for (const f2 of again.diagnostics.flatMap((d) => d.fixes)) {
            if (f2.title === fix.title) assert.equal(apply(next, f2), next, `${fix.title}: applying twice differs from once`);
          }
          // The finding it answers is gone (one fewer with that code).
          const count = (a: typeof analysis) => a.diagnostics.filter((d) => d.code === finding.code).length;
          assert.ok(count(again) < count(analysis), `${fix.title}: ${finding.code} still reported`);
        }
      }
    });
  }

  after(() => {
    assert.ok(fixesChecked > 35, `only ${fixesChecked} fixes were exercised`);
  });
});
