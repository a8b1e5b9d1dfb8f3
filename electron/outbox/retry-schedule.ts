import { backoffDelay, RetryBudget, type RetryPolicy } from '../api/index.ts';

/**
 * When the sender tries again after an attempt without a definitive answer. Backoff, Retry-After
 * handling and the budget are the client's (`electron/api/retry-policy.ts`) with the outbox's own
 * numbers: the client gives up after a few tries because a person waits, the outbox never gives
 * up and waits longer between tries.
 *
 * A transient failure holds back every card (a global gate), not just the row: they all share one
 * service, and hammering it with the other cards' rows while it is down or rate-limiting helps
 * nobody. The gate is lifted when the service is seen again (`lift`), and a gate or retry time
 * further ahead than the longest wait this schedule can give (`longestWaitMs`) was set before
 * the wall clock went back: it no longer holds.
 */

export interface SenderRetrySettings {
  /** Full jitter: a delay uniform in [0, min(capMs, baseMs * 2^(n-1))) after the n-th failure in a row. */
  readonly backoff: RetryPolicy['backoff'];
  /** A server-given Retry-After is honoured up to capMs, plus up to jitterMs. */
  readonly retryAfter: RetryPolicy['retryAfter'];
  /** Retries take a token; when the bucket is empty the next retry waits for a refill. */
  readonly budget: RetryPolicy['budget'];
}

export const defaultSenderRetry: SenderRetrySettings = {
  backoff: { baseMs: 1_000, capMs: 5 * 60_000 },
  retryAfter: { capMs: 10 * 60_000, jitterMs: 1_000 },
  budget: { capacity: 20, refillPerSecond: 0.2 },
};

export class RetrySchedule {
  readonly #settings: SenderRetrySettings;
  readonly #budget: RetryBudget;
  readonly #random: () => number;
  readonly #now: () => number;
  #failuresInARow = 0;
  #gateUntil = 0;

  constructor(settings: SenderRetrySettings, random: () => number, now: () => number) {
    this.#settings = settings;
    this.#budget = new RetryBudget(settings.budget, now);
    this.#random = random;
    this.#now = now;
  }

  /** Epoch ms before which nothing is sent (backoff or Retry-After); null when open. */
  closedUntil(now: number): number | null {
    if (this.#gateUntil - now > this.longestWaitMs) this.#gateUntil = 0;
    return this.#gateUntil > now ? this.#gateUntil : null;
  }

  /**
   * The longest wait `failed` can return (capped Retry-After plus its jitter, the backoff cap, or
   * waiting for a retry token), plus a second of slack.
   */
  get longestWaitMs(): number {
    const { backoff, retryAfter, budget } = this.#settings;
    const refillMs = budget.refillPerSecond > 0 ? Math.ceil(1000 / budget.refillPerSecond) : 0;
    return Math.max(backoff.capMs, retryAfter.capMs + retryAfter.jitterMs, refillMs) + 1_000;
  }

  /** The service answers again (a probe succeeded): open the gate, start the backoff over. */
  lift(): void {
    this.#gateUntil = 0;
    this.#failuresInARow = 0;
  }

  /** A definitive answer (applied, refused, found by a reconciliation): the backoff starts over. */
  succeeded(): void {
    this.#failuresInARow = 0;
  }

  /** No definitive answer: when to try again. Every card waits until then. */
  failed(retryAfterMs: number | undefined): number {
    const delay = this.#nextDelay(retryAfterMs);
    const nextAttemptAt = this.#now() + delay;
    this.#gateUntil = Math.max(this.#gateUntil, nextAttemptAt);
    return nextAttemptAt;
  }

  #nextDelay(retryAfterMs: number | undefined): number {
    this.#failuresInARow += 1;
    let delay: number;
    if (retryAfterMs !== undefined) {
      const { capMs, jitterMs } = this.#settings.retryAfter;
      delay = Math.min(retryAfterMs, capMs) + Math.floor(this.#random() * jitterMs);
    } else {
      delay = backoffDelay(this.#settings.backoff, this.#failuresInARow, this.#random);
    }
    if (!this.#budget.tryTake()) {
      // Out of retry tokens: wait until one is back rather than dropping anything.
      const rate = this.#settings.budget.refillPerSecond;
      const missing = 1 - this.#budget.available();
      const refillMs = rate > 0 ? Math.ceil((missing / rate) * 1000) : this.#settings.backoff.capMs;
      delay = Math.max(delay, refillMs);
    }
    return delay;
  }
}
