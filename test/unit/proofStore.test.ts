/**
 * The persistent proof cache (shared/node/proofStore.ts) behind provenOnce: kept across processes
 * (here: across store instances on one file), keyed by the proof code's version, relocatable and
 * switchable off by ROPE_LENS_PROOF_CACHE, tolerant of a corrupt file, written atomically.
 */
import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { STORE_MIN_LENGTH, fileProofStore, proofCachePath } from '../../shared/node/proofStore';
import { knownProof, proofKey, provenOnce, useProofStore } from '../../shared/bstar/proofCache';
import { PROOF_CODE_VERSION } from '../../shared/bstar/table/codeVersion';
import { robustNeighbourhood } from '../../shared/bstar/index';
import type { NeighbourhoodVerdict } from '../../shared/bstar/neighbourhood';

describe('the persistent proof cache', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'rope-lens-store-'));
  });
  afterEach(() => {
    useProofStore(undefined);
    rmSync(dir, { recursive: true, force: true });
  });

  it('lives under XDG_CACHE_HOME (else ~/.cache); ROPE_LENS_PROOF_CACHE relocates it or turns it off', () => {
    assert.equal(proofCachePath({ XDG_CACHE_HOME: '/x/cache' }), join('/x/cache', 'rope-lens', 'proofs.json'));
    assert.match(proofCachePath({})!, /\.cache[/\\]rope-lens[/\\]proofs\.json$/);
    assert.equal(proofCachePath({ ROPE_LENS_PROOF_CACHE: '/y/p.json', XDG_CACHE_HOME: '/x' }), '/y/p.json');
    for (const off of ['off', 'OFF', '0', 'none', 'false']) assert.equal(proofCachePath({ ROPE_LENS_PROOF_CACHE: off }), undefined, off);
  });

  it('a proof made by one run answers the next without proving; keys carry the code version', () => {
    const file = join(dir, 'sub', 'proofs.json');
    const L = STORE_MIN_LENGTH;
    let proofs = 0;
    const counting = (c: number, d: number, l: number): NeighbourhoodVerdict => {
      proofs++;
      return robustNeighbourhood(c, d, l);
    };
    useProofStore(fileProofStore(file));
    const first = provenOnce(1.2345e6, 128, L, counting);
    assert.equal(proofs, 1);
    const saved = JSON.parse(readFileSync(file, 'utf8'));
    assert.equal(saved.proofs[proofKey(1.2345e6, 128, L)], first);
    assert.ok(proofKey(1.2345e6, 128, L).startsWith(`${PROOF_CODE_VERSION}/`));
    // A new process: a fresh store on the same file, a candidate this process never proved.
    useProofStore(fileProofStore(file));
    assert.equal(knownProof(1.2345e6, 128, L), first);
    writeFileSync(file, JSON.stringify({ format: 1, proofs: { [proofKey(7.7e6, 128, L)]: 7.1e6 } }));
    useProofStore(fileProofStore(file));
    assert.equal(provenOnce(7.7e6, 128, L, counting), 7.1e6, 'the stored answer is used, not re-proven');
    assert.equal(proofs, 1);
  });

  it('a corrupt, foreign or unreadable file reads as empty, and the next write replaces it', () => {
    const file = join(dir, 'proofs.json');
    for (const junk of ['{"format": 1, "proofs": ', 'null', '[1,2]', '{"format": 2, "proofs": {"a": null}}', '{"format":1,"proofs":{"k":"x"}}']) {
      writeFileSync(file, junk);
      const s = fileProofStore(file);
      assert.equal(s.get('k'), undefined, junk);
      assert.equal(s.get('a'), undefined, junk);
      s.set(`v/${STORE_MIN_LENGTH}/128/5`, null);
      assert.equal(JSON.parse(readFileSync(file, 'utf8')).proofs[`v/${STORE_MIN_LENGTH}/128/5`], null, junk);
    }
    // A folder where the file should be: reads empty, writes are dropped, nothing throws.
    const s = fileProofStore(dir);
    assert.equal(s.get('x'), undefined);
    s.set(`v/${STORE_MIN_LENGTH}/128/5`, null);
    assert.equal(s.get(`v/${STORE_MIN_LENGTH}/128/5`), null, 'kept in memory for this run');
  });

  it('writes merge with another process and leave no temporary file; short proofs stay in memory', () => {
    const file = join(dir, 'proofs.json');
    const a = fileProofStore(file);
    const b = fileProofStore(file);
    a.get('warm');
    b.get('warm');
    a.set(`v/${STORE_MIN_LENGTH}/128/1`, null);
    b.set(`v/${STORE_MIN_LENGTH}/128/2`, 3);
    b.set('v/1024/128/3', null);
    const saved = JSON.parse(readFileSync(file, 'utf8')).proofs;
    assert.deepEqual(Object.keys(saved).sort(), [`v/${STORE_MIN_LENGTH}/128/1`, `v/${STORE_MIN_LENGTH}/128/2`]);
    assert.equal(b.get('v/1024/128/3'), null);
    assert.deepEqual(readdirSync(dir), ['proofs.json']);
  });
});
