/**
 * The language server's plan (`ropeLens/plan` with a target) proves robust bases on its own thread and
 * cannot answer meanwhile: it runs inside a work-done progress whose begin reaches the client before the
 * plan's answer and whose end follows it. Asking only for the defaults (no target) starts none.
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LspHarness, ROOT } from './lspHarness';
import { PlanRequest, type PlanResult } from '../../shared/protocol/messages';
import { buildOnce } from '../support/build';

const URI = 'file:///work/models/meta-llama-3-8b/config.json';
const CONFIG = readFileSync(join(ROOT, 'test/fixtures/corpus/models/meta-llama-3-8b.json'), 'utf8');

describe('language server: work-done progress while a plan proves robust bases', function () {
  this.timeout(120_000);
  let h: LspHarness | undefined;

  before(() => buildOnce());
  afterEach(async () => {
    await h?.stop();
    h = undefined;
  });

  it('a plan with a target: begin before the answer, end after it, one token', async () => {
    h = await LspHarness.start();
    await h.open(URI, CONFIG);
    const defaults: PlanResult = await h.conn.sendRequest(PlanRequest, { uri: URI });
    assert.ok(defaults.ok, 'the defaults');
    assert.equal(h.progress.filter((p) => p.value.kind === 'begin' && p.value.message?.startsWith('planning')).length, 0, 'no progress for the defaults');

    const result: PlanResult = await h.conn.sendRequest(PlanRequest, { uri: URI, target: 32768 });
    const begunBeforeAnswer = h.progress.find((p) => p.value.kind === 'begin' && p.value.message === 'planning 32,768 tokens: proving robust bases');
    assert.ok(result.ok && result.view, `a plan: ${JSON.stringify(result).slice(0, 200)}`);
    assert.ok(begunBeforeAnswer, `no begin before the answer: ${JSON.stringify(h.progress)}`);
    const token = begunBeforeAnswer.token;
    await h.until(() => h!.progress.some((p) => p.token === token && p.value.kind === 'end'), 'the plan progress to end');
    assert.deepEqual(
      h.progress.filter((p) => p.token === token).map((p) => p.value.kind),
      ['begin', 'end'],
    );
  });
});
