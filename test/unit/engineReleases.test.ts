/**
 * Fixes for the release that runs (issue 33, deliverable 4): vLLM's Gemma-2 attention builds its
 * rotary embedding without rope_scaling before the rope_parameters refactor (gemma2.py read at
 * 025adfb and in a v0.10-era copy: `get_rope(head_dim, rotary_dim, max_position, base=rope_theta)`),
 * so an --hf-overrides scaling passes vLLM's length check and the model runs unscaled. On a launch
 * that names such a release the scaling fixes are not offered and lowering the length is preferred;
 * where the release is unknown, lowering is preferred and the scaling fixes say the release they need.
 */
import { said } from './helpers/findingText';
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyzeText } from '../../shared/service/analyze';
import { createSyncOracle } from '../../shared/service/syncOracle';
import { parseDocumentText } from '../../shared/document/parse';
import { applyTextEdits } from '../../shared/fixes/textEdits';
import { vllmScalingNeedsRelease } from '../../shared/serving/vllm';
import { servingInput, servingPlan } from '../../shared/serving/index';
import { catalogResolver } from '../../shared/config/resolve';

const oracle = createSyncOracle();
const COMPOSE = join(__dirname, '..', 'fixtures', 'launch', 'releases', 'gemma2-vllm-0.10.1.compose.yaml');
const analyze = (fileName: string, text: string) => analyzeText(text, { fileName, oracle });

describe('fixes for the vLLM release that runs', () => {
  it('the release table: Gemma-2 needs a release from 0.12.0 on; named older releases are said, newer ones and other models are not', () => {
    assert.deepEqual(vllmScalingNeedsRelease('gemma2', 'vllm/vllm-openai:v0.10.1')?.named, '0.10.1');
    assert.equal(vllmScalingNeedsRelease('gemma2', 'vllm/vllm-openai:v0.12.0'), undefined);
    assert.equal(vllmScalingNeedsRelease('gemma2', undefined)?.named, undefined);
    assert.equal(vllmScalingNeedsRelease('gemma2', undefined)?.from, '0.12.0');
    assert.equal(vllmScalingNeedsRelease('llama', 'vllm/vllm-openai:v0.6.3'), undefined);
  });

  it('gemma-2-9b at 16,384 on vllm/vllm-openai:v0.10.1 (compose): no scaling fix, lowering the length preferred, the message names the release', () => {
    const text = readFileSync(COMPOSE, 'utf8');
    const d = analyze(COMPOSE, text).diagnostics.find((x) => x.code === 'vllm/max-model-len-exceeds')!;
    assert.ok(d, 'the length finding');
    assert.match(said(d), /this launch runs vLLM 0\.10\.1, before 0\.12\.0/);
    assert.deepEqual(
      d.fixes.filter((f) => /rope_scaling|YaRN|linear|dynamic/.test(JSON.stringify(f.edits)) || ['yarn', 'linear', 'dynamic'].includes(f.kind)),
      [],
      'no scaling override is offered where the release drops it',
    );
    const preferred = d.fixes.filter((f) => f.preferred);
    assert.deepEqual(
      preferred.map((f) => f.title),
      ['Set max-model-len to 8192'],
    );
    const fixed = applyTextEdits(text, parseDocumentText(text, 'yaml').lines, preferred[0].edits);
    assert.match(fixed, /--max-model-len 8192/);
    assert.deepEqual(
      analyze(COMPOSE, fixed).diagnostics.filter((x) => x.severity === 'error' || x.severity === 'warning'),
      [],
    );
  });

  it('the same launch on v0.12.0 keeps the scaling fixes, YaRN preferred, and says nothing about releases', () => {
    const text = readFileSync(COMPOSE, 'utf8').replace('v0.10.1', 'v0.12.0');
    const d = analyze(COMPOSE, text).diagnostics.find((x) => x.code === 'vllm/max-model-len-exceeds')!;
    assert.doesNotMatch(said(d), /before 0\.12\.0/);
    assert.equal(d.fixes.find((f) => f.preferred)?.kind, 'yarn');
  });

  it('a release the launch does not name: lowering preferred, the scaling fixes still offered with the release they need; serve says it too', () => {
    // The same compose file on the `latest` tag: no release named.
    const latest = readFileSync(COMPOSE, 'utf8').replace('v0.10.1', 'latest');
    const d = analyze(COMPOSE, latest).diagnostics.find((x) => x.code === 'vllm/max-model-len-exceeds')!;
    assert.match(said(d), /the scaling fixes need vLLM ≥ 0\.12\.0/);
    assert.equal(d.fixes.find((f) => f.preferred)?.title, 'Set max-model-len to 8192');
    const yarn = d.fixes.find((f) => f.kind === 'yarn')!;
    assert.match(yarn.title, /on vLLM ≥ 0\.12\.0/);
    const resolved = catalogResolver.resolve(['google/gemma-2-9b-it'], COMPOSE)!;
    const plan = servingPlan('vllm', servingInput(resolved.rope, { model: 'google/gemma-2-9b-it', contextKeys: {}, context: 16384 }));
    assert.ok(plan.notes.some((n) => /needs vLLM ≥ 0\.12\.0/.test(n)));
  });
});
