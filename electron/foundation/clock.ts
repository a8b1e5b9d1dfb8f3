import { performance } from 'node:perf_hooks';

/**
 * Time as a dependency: token expiry, Retry-After dates, backoff sleeps and the retry budget all
 * read it, so tests drive them with a fake clock instead of waiting.
 */
export interface Clock {
  /** Epoch milliseconds: the kiosk's wall clock, which an administrator or NTP may step. */
  now(): number;
  /** Resolves after `ms`; rejects with the signal's reason when it aborts first. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /**
   * Milliseconds from an arbitrary origin that only moves forward at the pace of real time (it
   * may stand still while the machine sleeps): what tells a step of `now()` from time passing.
   * Absent: `performance.now()`.
   */
  monotonic?(): number;
}

/** The clock's monotonic reading, `performance.now()` when it has none of its own. */
export function monotonicNow(clock: Clock): number {
  return clock.monotonic ? clock.monotonic() : performance.now();
}

export const systemClock: Clock = {
  now: () => Date.now(),
  monotonic: () => performance.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) {
        reject(signal.reason);
        return;
      }
      const onAbort = () => {
        clearTimeout(timer);
        reject(signal?.reason);
      };
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
};
