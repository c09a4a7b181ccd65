/**
 * The proven table's device job (bundled with tableChain.ts and the proof worker by
 * test/support/deviceTable.sh; run there by its run.sh with only the carried Node binary):
 *
 *   node table.js --table proven.json --out DIR --seconds N [--threads N] [--dims 128,64]
 *                 [--max-length L] [--drop-above L] [--threshold-max L] [--where TEXT]
 *
 * One chain per rotary dim (tablePlan.ts: d = 128 to 4M first, then 64 and 256, then the rest, each to
 * 1M), every proof split into parts on one pool of `threads` proof threads, the most urgent dim's parts
 * first. Each finished row is appended at once to DIR/rows.jsonl (one JSON object a line: a run cut
 * short keeps what it finished) and progress to DIR/table.log; `npm run table:proven -- --merge` takes
 * the rows in. --drop-above L recomputes the table's rows above L (a rehearsal with tiny lengths whose
 * answers can be compared with the shipped ones); --max-length caps every dim's plan.
 */
import { appendFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { robustNeighbourhood } from '../../shared/bstar/index';
import { PROOF_CODE_VERSION } from '../../shared/bstar/table/codeVersion';
import { THRESHOLD_PROOF_MAX_LENGTH } from '../../shared/bstar/provenThreshold';
import { readTable } from '../../shared/node/provenTableGen';
import { partPool } from '../../shared/node/splitProver';
import { CALIBRATION, DEVICE_PLAN, LATER_SHARE, missingRungs } from '../../shared/node/tablePlan';
import type { ChainData, ChainMessage, ProvedMessage } from './tableChain';

const t0 = Date.now();
const arg = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const num = (name: string, dflt: number) => (arg(name) === undefined ? dflt : Number(arg(name)));
const out = arg('out') ?? process.env.OUT ?? '.';
mkdirSync(out, { recursive: true });
const logFile = join(out, 'table.log');
const log = (line: string) => appendFileSync(logFile, `[${((Date.now() - t0) / 1000).toFixed(1)} s] ${line}\n`);
const rowsFile = join(out, 'rows.jsonl');

const seconds = num('seconds', 60);
const deadline = t0 + seconds * 1000;
const threads = num('threads', availableParallelism());
const maxLength = num('max-length', Number.POSITIVE_INFINITY);
const dropAbove = num('drop-above', Number.POSITIVE_INFINITY);
const maxThresholdLength = num('threshold-max', THRESHOLD_PROOF_MAX_LENGTH);
const dims = arg('dims')?.split(',').map(Number);

const table = readTable(arg('table') ?? 'proven.json');
table.rows = table.rows.filter((r) => r.length <= dropAbove);
const cpu = cpus()[0]?.model ?? 'unknown CPU';
const machine = `${arg('where') ?? 'development machine'}: ${cpus().length} × ${cpu.trim()}, proofs split over ${threads} threads`;
log(`start: ${machine}; ${table.rows.length} rows in; code ${PROOF_CODE_VERSION}; ${seconds} s`);

// Calibration: one proof the development machine times (tablePlan.ts), on this machine.
const c0 = Date.now();
robustNeighbourhood(CALIBRATION.candidate, CALIBRATION.dim, CALIBRATION.length);
const speed = (CALIBRATION.seconds * 1000) / Math.max(1, Date.now() - c0);
log(`calibration: ${Date.now() - c0} ms, speed ${speed.toFixed(2)}× the development machine's core`);

// The first dim's proofs get most threads; the later dims at most LATER_SHARE of them until it is done.
const laterCap = Math.max(1, Math.round(threads * LATER_SHARE));
const pool = partPool(join(__dirname, 'proofWorker.js'), threads, laterCap);
const work = mkdtempSync(join(tmpdir(), 'rope-lens-table-'));
const plans = DEVICE_PLAN.filter((p) => !dims || dims.includes(p.dim)).map((p) => ({
  ...p,
  maxLength: Math.min(p.maxLength, maxLength),
  parts: p.priority === 0 ? Math.max(1, threads - laterCap) : p.parts,
}));
let firstRunning = plans.filter((p) => p.priority === 0).length;
let running = 0;
let rows = 0;
let status: NodeJS.Timeout | undefined;
let stop: NodeJS.Timeout | undefined;

for (const p of plans) {
  const missing = missingRungs(table.rows, p.dim, p.maxLength, PROOF_CODE_VERSION);
  log(`d=${p.dim}: ${missing.length} rungs missing up to ${p.maxLength} (priority ${p.priority}, ${p.parts} parts a proof)`);
  const file = join(work, `table-${p.dim}.json`);
  writeFileSync(file, JSON.stringify(table));
  const data: ChainData = { file, dim: p.dim, maxLength: p.maxLength, maxThresholdLength, parts: p.parts, deadline, speed, machine };
  const w = new Worker(join(__dirname, 'tableChain.js'), { workerData: data });
  running++;
  w.on('message', (m: ChainMessage) => {
    if (m.type === 'prove') {
      const parts = m.length >= 65536 ? p.parts : 1;
      pool.prove(m.candidate, m.dim, m.length, { parts, priority: p.priority }).then(
        (verdict) => w.postMessage({ type: 'proved', id: m.id, verdict } satisfies ProvedMessage),
        (e) => w.postMessage({ type: 'proved', id: m.id, error: String(e) } satisfies ProvedMessage),
      );
    } else if (m.type === 'row') {
      appendFileSync(rowsFile, `${JSON.stringify({ task: m.task, row: m.row })}\n`);
      rows++;
    } else if (m.type === 'log') {
      log(`d=${p.dim} ${m.line}`);
    } else {
      log(m.type === 'done' ? `d=${p.dim} done: ${m.done} tasks, ${m.left.length} left, ${m.gaveUp.length} given up` : `d=${p.dim} FAILED: ${m.message}`);
      if (p.priority === 0 && --firstRunning === 0) {
        pool.setLaterCap(threads);
        log('the first dims are done: every thread for the others');
      }
      if (--running === 0) finish('every chain ended');
    }
  });
  w.on('error', (e) => log(`d=${p.dim} worker error: ${e.stack ?? e}`));
}

if (running === 0) finish('nothing to do');
status = setInterval(() => log(`status: ${rows} rows out, ${running} chains running, ${pool.waiting()} proof parts waiting`), 30_000);
stop = setTimeout(() => finish('deadline'), Math.max(0, deadline - Date.now()));

function finish(why: string): void {
  clearInterval(status);
  clearTimeout(stop);
  log(`end (${why}): ${rows} rows in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  process.exit(0);
}
