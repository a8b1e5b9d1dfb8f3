/**
 * The sandbox clock: real time plus an offset that only moves forward. Every time-based rule of
 * the sandbox (token expiry, change-feed window ends, idempotency-key retention, rate-limit refill,
 * timestamps of new records) reads this clock, so a test can jump ahead instead of waiting.
 */
export class SandboxClock {
  #offsetMs: number;
  readonly #realNow: () => number;

  /** `start`: the sandbox time at construction (default: real now). */
  constructor(start?: Date, realNow: () => number = Date.now) {
    this.#realNow = realNow;
    this.#offsetMs = start === undefined ? 0 : start.getTime() - realNow();
  }

  nowMs(): number {
    return this.#realNow() + this.#offsetMs;
  }

  now(): Date {
    return new Date(this.nowMs());
  }

  /** Moves the clock forward; the sandbox clock never goes back. */
  advance(ms: number): Date {
    if (!Number.isFinite(ms) || ms < 0)
      throw new RangeError(`cannot advance the clock by ${ms} ms`);
    this.#offsetMs += ms;
    return this.now();
  }
}
