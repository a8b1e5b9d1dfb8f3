/** One second of traffic under the rate limit, on the sandbox clock. */
export interface RequestRateSecond {
  /** Whole seconds since the epoch (sandbox clock). */
  readonly second: number;
  /** Requests the limiter let through. */
  readonly admitted: number;
  /** Requests it answered with 429. */
  readonly limited: number;
}

/**
 * Counts, second by second, the requests that met the rate limiter and what it answered: what a
 * fleet's load on the service looks like against the limit, 429s included. Kept in memory, one
 * entry per second that saw a request; the oldest are dropped past `maxSeconds` so a sandbox left
 * running for days stays small.
 */
export class RequestRateRecorder {
  readonly #seconds = new Map<number, { admitted: number; limited: number }>();
  readonly #maxSeconds: number;

  constructor(maxSeconds = 24 * 60 * 60) {
    this.#maxSeconds = maxSeconds;
  }

  record(atMs: number, outcome: 'admitted' | 'limited'): void {
    const second = Math.floor(atMs / 1000);
    let entry = this.#seconds.get(second);
    if (entry === undefined) {
      entry = { admitted: 0, limited: 0 };
      this.#seconds.set(second, entry);
      if (this.#seconds.size > this.#maxSeconds) {
        // Maps iterate in insertion order: the first key is the oldest second recorded.
        const oldest = this.#seconds.keys().next().value;
        if (oldest !== undefined) this.#seconds.delete(oldest);
      }
    }
    entry[outcome] += 1;
  }

  /** Seconds that saw a request, in time order, from `sinceSecond` on when given. */
  list(sinceSecond?: number): RequestRateSecond[] {
    return [...this.#seconds]
      .filter(([second]) => sinceSecond === undefined || second >= sinceSecond)
      .sort(([a], [b]) => a - b)
      .map(([second, counts]) => ({ second, ...counts }));
  }

  clear(): void {
    this.#seconds.clear();
  }
}
