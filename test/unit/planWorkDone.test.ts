/**
 * server/progress.ts `withWorkDone`, around a plan that blocks the server: begun before the work,
 * done after it (also when it throws), and a client that never accepts the progress does not hold
 * the work back longer than its wait.
 */
import { strict as assert } from 'node:assert';
import type { Connection } from 'vscode-languageserver';
import { withWorkDone } from '../../server/progress';

function fakeConnection(create: () => Promise<unknown>): Connection {
  return { window: { createWorkDoneProgress: create } } as unknown as Connection;
}

describe('work-done progress around blocking work (server)', () => {
  it('begin before the work, done after it, also when the work throws', async () => {
    const events: string[] = [];
    const reporter = { begin: (_t: string, _p: unknown, m: string) => events.push(`begin ${m}`), done: () => events.push('done') };
    const conn = fakeConnection(async () => reporter);
    const value = await withWorkDone(conn, true, 'planning 32,768 tokens', async () => {
      events.push('work');
      return 7;
    });
    assert.equal(value, 7);
    await assert.rejects(
      withWorkDone(conn, true, 'again', async () => {
        throw new Error('plan failed');
      }),
      /plan failed/,
    );
    assert.deepEqual(events, ['begin planning 32,768 tokens', 'work', 'done', 'begin again', 'done']);
  });

  it('without client support nothing is created; a client that never answers delays the work by about a second only', async () => {
    let asked = 0;
    const never = fakeConnection(() => {
      asked++;
      return new Promise(() => {});
    });
    assert.equal(await withWorkDone(never, false, 'x', async () => 'ran'), 'ran');
    assert.equal(asked, 0);
    const t0 = Date.now();
    assert.equal(await withWorkDone(never, true, 'x', async () => 'ran'), 'ran');
    assert.equal(asked, 1);
    assert.ok(Date.now() - t0 < 5000, `waited ${Date.now() - t0} ms`);
  });
});
