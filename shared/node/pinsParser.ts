/**
 * The consumer-pin parser of the language server's workspace scans, on a worker thread
 * (dist/pinsWorker.js, started with the first neighbour and unref'd: it never keeps the server
 * alive). Without the bundle (sources run unbuilt) or once the worker fails, files are parsed on
 * this thread, between two event-loop turns, as before.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import { type ConsumerPin, pinsFromNeighbour } from '../serving/pins';
import type { PinsReply, PinsRequest } from './pinsProtocol';

type Parsed = { pins: ConsumerPin[]; notes: string[] };

/** Where dist/pinsWorker.js is: beside this bundle (dist/*.js), or the repo's dist/ when running TS sources. */
function workerScript(): string | undefined {
  return [join(__dirname, 'pinsWorker.js'), resolve(__dirname, '../../dist/pinsWorker.js')].find((p) => existsSync(p));
}

const onThisThread = (name: string, text: string, path: string): Promise<Parsed> =>
  new Promise((r) => setImmediate(() => r(pinsFromNeighbour(name, text, path))));

export class PinsParser {
  private worker: Worker | undefined;
  private failed = false;
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve(p: Parsed): void; reject(e: Error): void }>();

  constructor(
    private readonly script: string | undefined = workerScript(),
    private readonly log: (line: string) => void = () => undefined,
  ) {}

  /** The pins and notes of one neighbour (pins.ts's pinsFromNeighbour), parsed on the worker. */
  readonly parse = (name: string, text: string, path: string): Promise<Parsed> => {
    const worker = this.started();
    if (!worker) return onThisThread(name, text, path);
    const id = this.nextId++;
    return new Promise<Parsed>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      worker.postMessage({ id, name, text, path } satisfies PinsRequest);
    });
  };

  dispose(): Promise<number> | undefined {
    const w = this.worker;
    this.worker = undefined;
    this.fail(new Error('the pins worker stopped'));
    return w?.terminate();
  }

  private started(): Worker | undefined {
    if (this.worker || this.failed || !this.script) return this.worker;
    try {
      const w = new Worker(this.script);
      w.on('message', (m: PinsReply) => {
        const p = this.waiting.get(m.id);
        this.waiting.delete(m.id);
        if (!p) return;
        if ('error' in m) p.reject(new Error(m.error));
        else p.resolve({ pins: m.pins, notes: m.notes });
      });
      w.on('error', (e) => this.broken(e));
      w.on('exit', (code) => {
        if (this.worker === w) this.broken(new Error(`the pins worker exited with code ${code}`));
      });
      // After the listeners: adding a 'message' listener refs the worker's port again.
      w.unref();
      this.worker = w;
    } catch (e) {
      this.broken(e as Error);
    }
    return this.worker;
  }

  /** From here on files are parsed on this thread; those in flight fail (their scan says so and is tried again later). */
  private broken(e: Error): void {
    this.failed = true;
    this.worker = undefined;
    this.log(`the pins worker failed, parsing on the server's thread: ${e?.message ?? e}`);
    this.fail(e);
  }

  private fail(e: Error): void {
    const waiting = [...this.waiting.values()];
    this.waiting.clear();
    for (const p of waiting) p.reject(e);
  }
}
