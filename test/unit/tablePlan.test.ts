/**
 * The device job's plan for the proven table (shared/node/tablePlan.ts): every listed dim, d = 128
 * first, the cost model growing with length and dim, and the rungs a table lacks.
 */
import { strict as assert } from 'node:assert';
import { CALIBRATION, DEVICE_PLAN, missingRungs, proofSeconds, rowSeconds } from '../../shared/node/tablePlan';
import { TABLE_DIMS } from '../../shared/bstar/table/dims';
import { LADDER } from '../../shared/bstar/table/ladder';
import { PROOF_CODE_VERSION } from '../../shared/bstar/table/codeVersion';
import type { TableRow } from '../../shared/bstar/table/rows';

describe('the device plan for the proven table', () => {
  it('plans every listed dim once, d = 128 alone first and longest', () => {
    assert.deepEqual(
      DEVICE_PLAN.map((p) => p.dim).sort((a, b) => a - b),
      TABLE_DIMS.slice().sort((a, b) => a - b),
    );
    const first = DEVICE_PLAN.filter((p) => p.priority === 0);
    assert.deepEqual(
      first.map((p) => p.dim),
      [128],
    );
    for (const p of DEVICE_PLAN) assert.ok(LADDER.includes(p.maxLength) && p.maxLength <= first[0].maxLength);
    assert.ok(DEVICE_PLAN.filter((p) => p.dim === 64 || p.dim === 256).every((p) => p.priority === 1));
  });

  it('costs grow with the length and the dim, and more parts or a faster core shorten a row', () => {
    assert.ok(proofSeconds(2097152, 128) > 3 * proofSeconds(1048576, 128));
    assert.ok(proofSeconds(1048576, 256) > proofSeconds(1048576, 128));
    assert.ok(Math.abs(proofSeconds(1048576, 128) - 39.2) < 1e-9);
    assert.ok(rowSeconds(2097152, 128, 11, 1) < rowSeconds(2097152, 128, 1, 1) / 10);
    assert.ok(rowSeconds(2097152, 128, 11, 2) < rowSeconds(2097152, 128, 11, 1));
    assert.ok(CALIBRATION.seconds > 0 && LADDER.includes(CALIBRATION.length));
  });

  it('lists the rungs a table lacks, counting only rows of the current code with b* and a robust base', () => {
    const fact = { backend: 'cpu-float64', codeVersion: PROOF_CODE_VERSION, ms: 1 };
    const rows: TableRow[] = [
      { length: 1024, dim: 16, bstar: { value: 2, ...fact }, robust: { base: 3, proofs: 1, ...fact } },
      { length: 1218, dim: 16, bstar: { value: 2, ...fact } },
      { length: 1448, dim: 16, bstar: { value: 2, ...fact, codeVersion: '000000000000' }, robust: { base: 3, proofs: 1, ...fact } },
      { length: 1722, dim: 20, bstar: { value: 2, ...fact }, robust: { base: 3, proofs: 1, ...fact } },
    ];
    assert.deepEqual(missingRungs(rows, 16, 2048), [1218, 1448, 1722, 2048]);
  });
});
