/** Messages between the workspace scans' parser (pinsParser.ts, main thread) and dist/pinsWorker.js. */
import type { ConsumerPin } from '../serving/pins';

export interface PinsRequest {
  id: number;
  /** The file's name (it decides the format), its text, its path (for notes). */
  name: string;
  text: string;
  path: string;
}

export type PinsReply = { id: number; pins: ConsumerPin[]; notes: string[] } | { id: number; error: string };
