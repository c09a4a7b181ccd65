/**
 * Worker-thread entry (bundled to dist/pinsWorker.js): reads the consumer pins of the language
 * server's neighbour files (shared/serving/pins.ts) off the main thread. A 2 MB lock or
 * requirements file takes the parser hundreds of milliseconds; here that delays only the scan.
 */
import { parentPort } from 'node:worker_threads';
import { pinsFromNeighbour } from '../serving/pins';
import type { PinsReply, PinsRequest } from './pinsProtocol';

parentPort?.on('message', (m: PinsRequest) => {
  let reply: PinsReply;
  try {
    reply = { id: m.id, ...pinsFromNeighbour(m.name, m.text, m.path) };
  } catch (e) {
    reply = { id: m.id, error: (e as Error)?.message ?? String(e) };
  }
  parentPort?.postMessage(reply);
});
