import type { Lease, LeaseHolder } from '../storage/index.ts';

/**
 * The data directory's sender lease as the sender holds it: whether this process holds it, when
 * it was last renewed, and the one rule for keeping it. The sender's loop takes and renews it and
 * its attempts keep it in the transactions whose writes depend on it, both through here; whoever
 * finds it lost says so once (`onChange`, the `sender-lease` event).
 */
export class SenderLease {
  readonly #lease: Lease;
  /** A third of the lease's life: two renewals may fail before a live holder loses it. */
  readonly renewEveryMs: number;
  readonly #onChange: (held: boolean) => void;
  #held = false;
  #checked = false;
  #lastRenewAt = 0;

  constructor(lease: Lease, onChange: (held: boolean) => void) {
    this.#lease = lease;
    this.renewEveryMs = Math.max(1, Math.floor(lease.ttlMs / 3));
    this.#onChange = onChange;
  }

  /** This process holds it (as far as it last knew). */
  get held(): boolean {
    return this.#held;
  }

  /** It was asked for at least once since the sender started: `held` is an answer. */
  get checked(): boolean {
    return this.#checked;
  }

  holder(): LeaseHolder | undefined {
    return this.#lease.holder();
  }

  /** The loop's pass while not holding it: taken if free, expired or its holder dead. */
  take(now: number): boolean {
    const acquired = this.#lease.tryAcquire();
    this.#checked = true;
    if (acquired) {
      this.#lastRenewAt = now;
      this.#set(true);
    }
    return acquired;
  }

  /**
   * The loop's pass while holding it: renewed once a third of its life went by (or the clock
   * went back, which would otherwise postpone the renewal by as much). False: lost.
   */
  renewIfDue(now: number): boolean {
    if (now - this.#lastRenewAt < this.renewEveryMs && now >= this.#lastRenewAt) return true;
    if (!this.keep()) return false;
    this.#lastRenewAt = now;
    return true;
  }

  /**
   * Still the holder: renewed, or, lapsed without anyone taking it (a forward step of the wall
   * clock makes it look lapsed), taken again; never from a live successor. Joins an enclosing
   * transaction, so the writes that depend on it commit with it.
   */
  keep(): boolean {
    const kept = this.#lease.renew() || this.#lease.tryAcquire();
    if (!kept) this.#set(false);
    return kept;
  }

  /** Kept in a transaction that committed: the loop's own renewal can wait. */
  renewed(at: number): void {
    this.#lastRenewAt = at;
  }

  /** The sender stops: the lease is given back (a failure is the caller's to log). */
  release(): void {
    try {
      if (this.#held) this.#lease.release();
    } finally {
      this.#set(false);
      this.#checked = false;
    }
  }

  #set(held: boolean): void {
    if (this.#held === held) return;
    this.#held = held;
    this.#onChange(held);
  }
}
