/**
 * The CLI's live line while a robust base is proven (server/cli/proofLine.ts): on a terminal it shows
 * the candidate, the length and the elapsed seconds, redrawn on the prover's wait ticks, and is
 * cleared when the proof ends (also when it throws); off a terminal nothing is written.
 */
import { strict as assert } from 'node:assert';
import { proofLine } from '../../server/cli/proofLine';
import { ttyStatus } from '../../server/cli/io';
import type { NeighbourhoodVerdict } from '../../shared/bstar/neighbourhood';

const CLEAR = '\r\x1b[K';

/** A stand-in for process.stderr that records what is written. */
function fakeStream(isTTY: boolean): { isTTY: boolean; writes: string[]; write(t: string): boolean } {
  const writes: string[] = [];
  return {
    isTTY,
    writes,
    write(t) {
      writes.push(t);
      return true;
    },
  };
}

/** A clock the test moves by hand. */
function fakeClock(): { now(): number; advance(ms: number): void } {
  let t = 1000;
  return { now: () => t, advance: (ms) => (t += ms) };
}

const VERDICT = { robust: true } as NeighbourhoodVerdict;

describe('live proof line (CLI)', () => {
  it('on a terminal: the line appears with the elapsed seconds while the proof waits, then is cleared', () => {
    const stream = fakeStream(true);
    const clock = fakeClock();
    const line = proofLine(ttyStatus(stream), clock.now);
    const prove = line.around(() => {
      clock.advance(1600);
      line.tick();
      clock.advance(1600);
      line.tick();
      return VERDICT;
    });
    assert.equal(prove(830000, 128, 262144), VERDICT);
    const text = 'proving base 830,000 over ±10% at 262,144 tokens (rotary dim 128)…';
    assert.deepEqual(stream.writes, [`${CLEAR}${text} 0.0 s`, `${CLEAR}${text} 1.6 s`, `${CLEAR}${text} 3.2 s`, CLEAR]);
  });

  it('a short proof without a wait tick draws nothing; one that waits is drawn from its first tick', () => {
    const stream = fakeStream(true);
    const clock = fakeClock();
    const line = proofLine(ttyStatus(stream), clock.now);
    line.around(() => VERDICT)(700000, 128, 16384);
    assert.deepEqual(stream.writes, []);
    line.around(() => {
      clock.advance(300);
      line.tick();
      return VERDICT;
    })(700000, 128, 65536);
    assert.deepEqual(stream.writes, [`${CLEAR}proving base 700,000 over ±10% at 65,536 tokens (rotary dim 128)… 0.3 s`, CLEAR]);
  });

  it('a tick after the proof ended draws nothing, and a proof that throws still clears its line', () => {
    const stream = fakeStream(true);
    const line = proofLine(ttyStatus(stream));
    assert.throws(
      () =>
        line.around(() => {
          throw new Error('a proof thread answered nothing');
        })(830000, 128, 1048576),
      /answered nothing/,
    );
    line.tick();
    assert.equal(stream.writes.length, 2);
    assert.equal(stream.writes[1], CLEAR);
  });

  it('off a terminal (a pipe, a CI log): nothing is written and the verdict passes through', () => {
    const stream = fakeStream(false);
    assert.equal(ttyStatus(stream), undefined);
    const line = proofLine(ttyStatus(stream));
    const prove = line.around(() => {
      line.tick();
      return VERDICT;
    });
    assert.equal(prove(830000, 128, 1048576), VERDICT);
    assert.deepEqual(stream.writes, []);
  });
});
