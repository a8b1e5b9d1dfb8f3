import type { Clock } from '../../../../electron/foundation/clock.ts';

/**
 * A clock whose sleeps return at once and move time forward by the amount asked: retries run
 * instantly while every computed delay is recorded for the test to check.
 */
export class FakeClock implements Clock {
  #now: number;
  readonly sleeps: number[] = [];

  constructor(start = Date.parse('2025-06-01T09:00:00Z')) {
    this.#now = start;
  }

  now(): number {
    return this.#now;
  }

  advance(ms: number): void {
    this.#now += ms;
  }

  async sleep(ms: number, signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted();
    this.sleeps.push(ms);
    this.#now += ms;
  }
}

/** A deterministic `random()` that plays back the given values in a loop. */
export function sequence(...values: number[]): () => number {
  let index = 0;
  return () => {
    const value = values[index % values.length] ?? 0;
    index += 1;
    return value;
  };
}
