/**
 * The analysis asks bound questions synchronously (BoundOracle); exact answers can take seconds.
 * This oracle answers from its cache, and on a miss returns `undefined`, starts the computation
 * off-thread (through a BoundComputer, i.e. the b* engine's worker pool) and tells its listener
 * when the answer is in, so the server re-validates: the other findings show at once, the bound
 * finding follows.
 */
import type { BoundOracle } from '../shared/service/types';
import type { InspectorMap, InspectorThresholdProof } from '../shared/inspector/mapResolution';
import { enUS } from '../shared/core/format';

/** The asynchronous engine behind the oracle (the b* engine, or a test double). */
export interface BoundComputer {
  /** `onProgress` (optional) receives the fraction done, an estimate in [0, 1]. */
  bstar(length: number, headDim: number, onProgress?: (fraction: number) => void): Promise<number>;
  threshold(length: number, headDim: number): Promise<number>;
  lmax(base: number, headDim: number, length: number): Promise<number | null>;
  /** The ±10% neighbourhood proof: null when proven, else a base there that is not valid. */
  robust(candidate: number, headDim: number, length: number): Promise<number | null>;
  /** L_max over a log grid of bases in [from, to] (the Inspector's chart); hosts without the map job leave it out. */
  validityMap?(from: number, to: number, headDim: number, length: number): Promise<InspectorMap>;
  /** How far the threshold is proven (neighbourhood proofs chained down from certifiedAbove); optional like the map. */
  thresholdProof?(length: number, headDim: number): Promise<InspectorThresholdProof>;
  dispose?(): void | Promise<void>;
}

type Answer = number | null | InspectorMap | InspectorThresholdProof;
interface Failure {
  error: string;
}

export interface BoundActivity {
  /** Computations running or queued. */
  pending: number;
  /** The question being answered, e.g. `b*(131072, 128)`. */
  label?: string;
  /** How far the labelled computation is (an estimate in [0, 1]), when it reports it. */
  fraction?: number;
}

export class CachedBoundOracle implements BoundOracle {
  private readonly answers = new Map<string, Answer | Failure>();
  private readonly inFlight = new Map<string, string>();
  /** Incremented whenever an answer arrives; analyses made before it may be stale. */
  epoch = 0;

  constructor(
    private computer: BoundComputer,
    private readonly onSettled: (key: string) => void,
    private readonly onActivity: (a: BoundActivity) => void = () => {},
    private readonly maxEntries = 2048,
  ) {}

  /** Swap the engine (bound backend setting changed); cached answers stay valid. */
  setComputer(computer: BoundComputer): void {
    const old = this.computer;
    this.computer = computer;
    void old.dispose?.();
  }

  /** Stops the engine's workers (shutdown). */
  async dispose(): Promise<void> {
    await this.computer.dispose?.();
  }

  bstar(length: number, headDim: number): number | undefined {
    const key = `b*(${length}, ${headDim})`;
    return (this.ask(key, () => this.computer.bstar(length, headDim, (f) => this.progress(key, f))) as number | undefined) ?? undefined;
  }

  threshold(length: number, headDim: number): number | undefined {
    return (this.ask(`threshold(${length}, ${headDim})`, () => this.computer.threshold(length, headDim)) as number | undefined) ?? undefined;
  }

  lmax(base: number, headDim: number, length: number): number | null | undefined {
    return this.ask(`L_max(${base}, ${headDim}, ${length})`, () => this.computer.lmax(base, headDim, length)) as number | null | undefined;
  }

  robust(candidate: number, headDim: number, length: number): number | null | undefined {
    return this.ask(`robust(${candidate}, ${headDim}, ${length})`, () => this.computer.robust(candidate, headDim, length)) as number | null | undefined;
  }

  /** The engine's validity map for the Inspector; undefined while it computes, or when the host has no map job. */
  validityMap(from: number, to: number, headDim: number, length: number): InspectorMap | undefined {
    const computer = this.computer;
    if (!computer.validityMap) return undefined;
    const key = `map(${from}…${to}, ${headDim}, ${length})`;
    return (this.ask(key, () => computer.validityMap!(from, to, headDim, length)) as InspectorMap | undefined) ?? undefined;
  }

  /** Whether the engine behind the oracle proves thresholds (the browser server's does not). */
  get provesThresholds(): boolean {
    return this.computer.thresholdProof !== undefined;
  }

  /** The threshold's proof for the Inspector; undefined while it runs, or when the host has no such job. */
  thresholdProof(length: number, headDim: number): InspectorThresholdProof | undefined {
    const computer = this.computer;
    if (!computer.thresholdProof) return undefined;
    return (
      (this.ask(`thresholdProof(${length}, ${headDim})`, () => computer.thresholdProof!(length, headDim)) as InspectorThresholdProof | undefined) ?? undefined
    );
  }

  /** Cached answer without scheduling anything (hovers, describe). */
  peek(kind: 'bstar' | 'threshold', length: number, headDim: number): number | undefined;
  peek(kind: 'lmax', length: number, headDim: number, base: number): number | null | undefined;
  peek(kind: 'bstar' | 'threshold' | 'lmax', length: number, headDim: number, base?: number): number | null | undefined {
    const key =
      kind === 'bstar' ? `b*(${length}, ${headDim})` : kind === 'threshold' ? `threshold(${length}, ${headDim})` : `L_max(${base}, ${headDim}, ${length})`;
    const a = this.answers.get(key);
    return a === undefined || isFailure(a) ? undefined : (a as number | null);
  }

  /** Why a question could not be answered, if it failed. */
  failure(key: string): string | undefined {
    const a = this.answers.get(key);
    return a !== undefined && isFailure(a) ? a.error : undefined;
  }

  get pending(): number {
    return this.inFlight.size;
  }

  /** Resolves when nothing is computing (or at once). */
  idle(): Promise<void> {
    if (this.inFlight.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }
  private idleWaiters: (() => void)[] = [];

  private ask(key: string, compute: () => Promise<Answer>): Answer | undefined {
    const cached = this.answers.get(key);
    if (cached !== undefined) {
      // Refresh LRU order.
      this.answers.delete(key);
      this.answers.set(key, cached);
      return isFailure(cached) ? undefined : cached;
    }
    if (!this.inFlight.has(key)) this.start(key, compute);
    return undefined;
  }

  private progress(key: string, fraction: number): void {
    if (this.inFlight.has(key)) this.onActivity({ pending: this.inFlight.size, label: readableKey(key), fraction });
  }

  private start(key: string, compute: () => Promise<Answer>): void {
    this.inFlight.set(key, key);
    this.onActivity({ pending: this.inFlight.size, label: readableKey(key) });
    let promise: Promise<Answer>;
    try {
      promise = compute();
    } catch (e) {
      promise = Promise.reject(e);
    }
    promise.then(
      (value) => this.settle(key, value),
      (e) => this.settle(key, { error: (e as Error)?.message ?? String(e) }),
    );
  }

  private settle(key: string, answer: Answer | Failure): void {
    this.inFlight.delete(key);
    this.answers.set(key, answer);
    while (this.answers.size > this.maxEntries) this.answers.delete(this.answers.keys().next().value as string);
    this.epoch++;
    const next = this.inFlight.keys().next();
    this.onActivity({ pending: this.inFlight.size, label: next.done ? undefined : readableKey(next.value) });
    this.onSettled(key);
    if (this.inFlight.size === 0) {
      const waiters = this.idleWaiters;
      this.idleWaiters = [];
      waiters.forEach((w) => w());
    }
  }
}

function isFailure(a: Answer | Failure): a is Failure {
  return a !== null && typeof a === 'object' && 'error' in a;
}

/** `L_max(59400.00000000001, 128, 32768)` → `L_max(59400, 128, 32768)`: keys stay exact, labels read well. */
function readableKey(key: string): string {
  return key.replace(/\d+(?:\.\d+)?(?:e[+-]?\d+)?/g, (n) => {
    const v = Number(n);
    return Number.isFinite(v) ? enUS(v, { maximumSignificantDigits: 7, useGrouping: false }) : n;
  });
}
