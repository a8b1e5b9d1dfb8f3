import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { GiftCardDebitReceipt } from '../../shared/api/gift-cards.ts';
import { type AnyApiError, isCommerceApiError } from '../api/errors.ts';
import { backoffDelay, failureKindOf, RetryBudget, type RetryPolicy } from '../api/retry-policy.ts';
import { type Logger, silentLogger } from '../logging/redacting-logger.ts';
import { Lease } from '../storage/lease.ts';
import type { DebitGateway } from './gateway.ts';
import type { Outbox, OutboxSummary } from './outbox.ts';
import {
  defaultReconcileSettings,
  needsReconciliation,
  reconcile,
  type ReconcileSettings,
} from './reconcile.ts';
import type { FailureNote, OutboxDebit, Transition } from './store.ts';
import { Wakeup } from './wakeup.ts';

/**
 * The one sender of a data directory. It holds a lease row in the database (the kiosk app and
 * kioskctl never send at once; a crashed holder is replaced after the lease expires), takes the
 * head of each card's queue (FIFO per card), commits `sending` with the attempt number before
 * every attempt, and records the answer:
 *
 *   2xx → applied (receipt and new balance)      409 → refused (terminal, the service's code kept)
 *   other 4xx → failed (terminal)                 401 → renewed once inside the client; if the
 *   CredentialsRejected → the sender pauses        account itself is refused, CredentialsRejected
 *     until an administrator resumes it            429 → Retry-After (capped) + jitter
 *   500, 503, timeouts, resets → full-jitter exponential backoff, bounded, and a retry budget
 *
 * Nothing is deleted before a definitive answer. A transient failure pauses every card (a global
 * gate), not just the row: they all share one service, and hammering it with the other cards'
 * rows while it is down or rate-limiting helps nobody.
 *
 * Backoff, Retry-After handling and the budget are the client's (`electron/api/retry-policy.ts`)
 * with the outbox's own numbers: the client gives up after a few tries because a person waits,
 * the outbox never gives up and waits longer between tries.
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

export interface SenderOptions {
  readonly outbox: Outbox;
  readonly gateway: DebitGateway;
  /** Uniform in [0, 1): backoff and Retry-After jitter. */
  readonly random?: () => number;
  /** Unique per process; the default names the host and pid. */
  readonly owner?: string;
  /** Longer than the client's response timeout: a live holder is never mistaken for a dead one. */
  readonly leaseTtlMs?: number;
  /**
   * Take the lease at once from a holder that was a process of this machine and no longer
   * exists (the kiosk app after a crash), instead of waiting for its expiry. Default true.
   */
  readonly takeOverDeadHolders?: boolean;
  /** Cards sent in parallel (each card still one debit at a time, in order). */
  readonly concurrency?: number;
  readonly retry?: {
    readonly backoff?: Partial<SenderRetrySettings['backoff']>;
    readonly retryAfter?: Partial<SenderRetrySettings['retryAfter']>;
    readonly budget?: Partial<SenderRetrySettings['budget']>;
  };
  readonly reconcile?: Partial<ReconcileSettings>;
  /**
   * Before an attempted row can expire, its last attempt must be this old: a request the client
   * gave up on may still be processed by the service for a while.
   */
  readonly inFlightGraceMs?: number;
  /** How often the database is re-read for rows another process committed (kioskctl enqueue). */
  readonly idlePollMs?: number;
  readonly logger?: Logger;
}

export const SENDER_LEASE = 'outbox-sender';

export type DrainResult =
  /** Nothing open is left. */
  | 'empty'
  /** Every due row was tried once; what is left waits for a retry time. */
  | 'idle'
  | 'timeout'
  /** The credentials were rejected: an administrator must act. */
  | 'paused'
  /** Another process holds the sender lease. */
  | 'lease-held';

export interface DrainReport {
  readonly result: DrainResult;
  readonly elapsedMs: number;
  readonly attempts: number;
  readonly applied: number;
  readonly refused: number;
  readonly failed: number;
  readonly expired: number;
  readonly retriesScheduled: number;
  readonly leaseOwner: string | null;
  readonly summary: OutboxSummary;
}

export interface SenderStatus {
  readonly running: boolean;
  readonly holdsLease: boolean;
  readonly paused: { readonly code: string; readonly message: string } | null;
  /** Epoch ms before which nothing is sent (backoff or Retry-After); null when open. */
  readonly gateUntil: number | null;
  readonly inFlight: number;
}

type Failure = { readonly error: unknown; readonly debit: OutboxDebit };

export class OutboxSender {
  readonly owner: string;
  readonly #outbox: Outbox;
  readonly #gateway: DebitGateway;
  readonly #random: () => number;
  readonly #lease: Lease;
  readonly #concurrency: number;
  readonly #retry: SenderRetrySettings;
  readonly #budget: RetryBudget;
  readonly #reconcile: ReconcileSettings;
  readonly #inFlightGraceMs: number;
  readonly #idlePollMs: number;
  readonly #renewEveryMs: number;
  readonly #logger: Logger;
  readonly #wakeup = new Wakeup();
  /** Card id → the attempt under way for it. */
  readonly #inFlight = new Map<string, Promise<void>>();

  #loop: Promise<void> | undefined;
  #stopping = false;
  #holdsLease = false;
  #leaseCheckedOnce = false;
  #lastRenewAt = 0;
  #paused: { code: string; message: string } | null = null;
  #gateUntil = 0;
  #failuresInARow = 0;

  constructor(options: SenderOptions) {
    this.#outbox = options.outbox;
    this.#gateway = options.gateway;
    this.#random = options.random ?? Math.random;
    this.owner = options.owner ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
    const leaseTtlMs = options.leaseTtlMs ?? 60_000;
    this.#lease = new Lease(options.outbox.db, {
      name: SENDER_LEASE,
      owner: this.owner,
      ttlMs: leaseTtlMs,
      now: () => this.#outbox.clock.now(),
      isHolderAlive: options.takeOverDeadHolders === false ? undefined : localHolderAlive,
    });
    this.#renewEveryMs = Math.max(1, Math.floor(leaseTtlMs / 3));
    this.#concurrency = Math.max(1, Math.trunc(options.concurrency ?? 2));
    this.#retry = {
      backoff: { ...defaultSenderRetry.backoff, ...options.retry?.backoff },
      retryAfter: { ...defaultSenderRetry.retryAfter, ...options.retry?.retryAfter },
      budget: { ...defaultSenderRetry.budget, ...options.retry?.budget },
    };
    this.#budget = new RetryBudget(this.#retry.budget, () => this.#outbox.clock.now());
    this.#reconcile = { ...defaultReconcileSettings, ...options.reconcile };
    this.#inFlightGraceMs = options.inFlightGraceMs ?? 60_000;
    this.#idlePollMs = options.idlePollMs ?? 1_000;
    this.#logger = options.logger ?? silentLogger;
  }

  get status(): SenderStatus {
    const now = this.#outbox.clock.now();
    return {
      running: this.#loop !== undefined,
      holdsLease: this.#holdsLease,
      paused: this.#paused,
      gateUntil: this.#gateUntil > now ? this.#gateUntil : null,
      inFlight: this.#inFlight.size,
    };
  }

  /** Starts the background loop (idempotent). It waits for the lease if another process has it. */
  start(): void {
    if (this.#loop) return;
    this.#stopping = false;
    this.#loop = this.#run().finally(() => {
      this.#loop = undefined;
    });
  }

  /** Lets attempts under way finish and record their answer, then releases the lease. */
  async stop(): Promise<void> {
    this.#stopping = true;
    this.#wakeup.wake();
    await this.#loop;
  }

  /** Sends now what is due (after an enqueue, or when connectivity comes back). */
  wake(): void {
    this.#wakeup.wake();
  }

  /** An administrator fixed the credentials: send again. */
  resume(): void {
    if (!this.#paused) return;
    this.#paused = null;
    this.#outbox.events.emit({ type: 'sender-resumed' });
    this.#wakeup.wake();
  }

  /**
   * Runs the sender until the outbox is empty (`untilEmpty`), or until every row that is due has
   * been tried once, or the timeout, or a pause; then reports. Starts and stops the loop itself
   * when it was not running.
   */
  async drain(options: { untilEmpty?: boolean; timeoutMs: number }): Promise<DrainReport> {
    const clock = this.#outbox.clock;
    const started = clock.now();
    const deadline = started + Math.max(0, options.timeoutMs);
    const counts = {
      attempts: 0,
      applied: 0,
      refused: 0,
      failed: 0,
      expired: 0,
      retriesScheduled: 0,
    };
    const wakeup = new Wakeup();
    const off = this.#outbox.events.on((event) => {
      if (event.type === 'state-changed') {
        if (event.to === 'sending') counts.attempts += 1;
        else if (event.to === 'applied') counts.applied += 1;
        else if (event.to === 'refused') counts.refused += 1;
        else if (event.to === 'failed') counts.failed += 1;
        else if (event.to === 'expired') counts.expired += 1;
        else if (event.to === 'pending' && event.from === 'sending') counts.retriesScheduled += 1;
      }
      wakeup.wake();
    });
    const ownLoop = this.#loop === undefined;
    this.start();
    let result: DrainResult;
    try {
      for (;;) {
        const now = clock.now();
        if (this.#leaseCheckedOnce && !this.#holdsLease) {
          result = 'lease-held';
          break;
        }
        if (this.#paused) {
          result = 'paused';
          break;
        }
        if (this.#leaseCheckedOnce && this.#inFlight.size === 0) {
          const summary = this.#outbox.store.summary();
          if (summary.pendingCount === 0) {
            result = 'empty';
            break;
          }
          if (!options.untilEmpty && this.#nothingDue(now)) {
            result = 'idle';
            break;
          }
        }
        if (now >= deadline) {
          result = 'timeout';
          break;
        }
        await wakeup.sleep(clock, Math.min(50, deadline - now));
      }
    } finally {
      off();
      if (ownLoop) await this.stop();
    }
    return {
      result,
      elapsedMs: clock.now() - started,
      ...counts,
      leaseOwner: this.#lease.holder()?.owner ?? null,
      summary: this.#outbox.summary(),
    };
  }

  #nothingDue(now: number): boolean {
    if (now < this.#gateUntil) return true;
    return this.#outbox.store.dueHeads(now, 1).length === 0;
  }

  async #run(): Promise<void> {
    const off = this.#outbox.events.on((event) => {
      if (event.type === 'accepted') this.#wakeup.wake();
    });
    try {
      while (!this.#stopping) {
        let sleepMs: number;
        try {
          sleepMs = this.#tick();
        } catch (error) {
          // SQLITE_BUSY beyond the busy timeout, a disk error...: keep the rows, try again later.
          this.#logger.error('outbox.sender.tick_failed', { error });
          sleepMs = this.#idlePollMs;
        }
        if (this.#stopping) break;
        await this.#wakeup.sleep(this.#outbox.clock, sleepMs);
      }
      await Promise.allSettled([...this.#inFlight.values()]);
    } finally {
      off();
      if (this.#holdsLease) {
        try {
          this.#lease.release();
        } catch (error) {
          this.#logger.warn('outbox.sender.release_failed', { error });
        }
        this.#setLease(false);
      }
      this.#leaseCheckedOnce = false;
    }
  }

  /** One pass: lease, expiry, and launching due heads. Returns how long to sleep. */
  #tick(): number {
    const clock = this.#outbox.clock;
    let now = clock.now();
    if (!this.#holdsLease) {
      const acquired = this.#lease.tryAcquire();
      this.#leaseCheckedOnce = true;
      if (!acquired) return Math.min(this.#renewEveryMs, this.#idlePollMs);
      this.#lastRenewAt = now;
      this.#setLease(true);
      // Whatever the previous holder left in `sending` is sent again, same key and body.
      const recovered = this.#outbox.db.transaction(() =>
        this.#outbox.store.recoverInterrupted(now),
      );
      for (const transition of recovered) this.#emitTransition(transition, 'INTERRUPTED');
    } else if (now - this.#lastRenewAt >= this.#renewEveryMs) {
      if (!this.#lease.renew()) {
        this.#setLease(false);
        return 0;
      }
      this.#lastRenewAt = now;
    }
    if (this.#paused) return this.#renewEveryMs;

    this.#expireNeverAttempted(now);
    now = clock.now();
    if (now < this.#gateUntil) return Math.min(this.#gateUntil - now, this.#renewEveryMs);

    const free = this.#concurrency - this.#inFlight.size;
    if (free > 0) {
      const heads = this.#outbox.store.dueHeads(now, this.#concurrency + this.#inFlight.size);
      let launched = 0;
      for (const head of heads) {
        if (launched >= free) break;
        if (head.state !== 'pending' || this.#inFlight.has(head.giftCardId)) continue;
        launched += 1;
        const card = head.giftCardId;
        const work = this.#process(head)
          .catch((error: unknown) => this.#logger.error('outbox.sender.attempt_crashed', { error }))
          .finally(() => {
            this.#inFlight.delete(card);
            this.#wakeup.wake();
          });
        this.#inFlight.set(card, work);
      }
    }
    // An attempt that finishes wakes the loop; otherwise sleep until the next row is due.
    if (this.#inFlight.size > 0) return this.#renewEveryMs;
    const nextDue = this.#outbox.store.nextDueAt();
    const cap = Math.min(this.#idlePollMs, this.#renewEveryMs);
    return nextDue === undefined ? cap : Math.max(0, Math.min(nextDue - clock.now(), cap));
  }

  #setLease(held: boolean): void {
    if (this.#holdsLease === held) return;
    this.#holdsLease = held;
    this.#outbox.events.emit({ type: 'sender-lease', held, owner: this.owner });
  }

  #expireNeverAttempted(now: number): void {
    const cutoff = now - this.#outbox.limits.maxAgeMs;
    // A read first: this runs at every pass, and a write transaction would take the lock that a
    // kioskctl enqueue in another process is waiting for.
    if (!this.#outbox.store.hasNeverAttemptedSince(cutoff)) return;
    const expired = this.#outbox.db.transaction(() =>
      this.#outbox.store.expireNeverAttempted(
        cutoff,
        now,
        expiryNote(this.#outbox.limits.maxAgeMs),
      ),
    );
    for (const transition of expired) this.#emitTransition(transition, 'EXPIRED');
  }

  async #process(head: OutboxDebit): Promise<void> {
    const clock = this.#outbox.clock;
    const now = clock.now();
    if (now - head.createdAt >= this.#outbox.limits.maxAgeMs) {
      await this.#expireAttempted(head);
      return;
    }
    if (needsReconciliation(head, now, this.#reconcile)) {
      const verdict = await this.#reconcileBeforeResend(head);
      if (verdict !== 'absent') return;
    }

    // `sending` and the attempt number are committed, under a still-valid lease, before a byte
    // leaves: after a crash the row says an attempt may have happened.
    const marked = this.#outbox.db.transaction(() => {
      if (!this.#lease.renew()) return 'lease-lost' as const;
      return this.#outbox.store.markSending(head.id, head.attempts, clock.now());
    });
    if (marked === 'lease-lost') {
      this.#setLease(false);
      return;
    }
    if (!marked) return; // cancelled, expired or taken meanwhile
    this.#lastRenewAt = clock.now();
    this.#emitTransition(marked, 'ATTEMPT');
    const debit = marked.debit;

    let receipt: GiftCardDebitReceipt;
    try {
      receipt = await this.#gateway.debit(
        debit.giftCardId,
        debit.idempotencyKey,
        debit.requestBody,
      );
    } catch (error) {
      await this.#onFailure({ error, debit });
      return;
    }
    this.#failuresInARow = 0;
    this.#settle(debit, {
      state: 'applied',
      reply: { kind: 'receipt', receipt },
      newBalance: receipt.balance,
      by: 'service',
    });
  }

  #settle(debit: OutboxDebit, outcome: Parameters<Outbox['store']['settleAttempt']>[2]): void {
    const now = this.#outbox.clock.now();
    // An `applied` lost to a power cut is found again (the row is resent with the same key and
    // the service replays its receipt, or reconciled from the usages): it may skip the fsync, the
    // second of each attempt. A refusal may not: resent after the key is forgotten, a debit staff
    // were told was refused could go through.
    const transition = this.#outbox.db.transaction(
      () => this.#outbox.store.settleAttempt(debit.id, debit.attempts, outcome, now),
      { durability: outcome.state === 'applied' ? 'deferred' : 'full' },
    );
    if (transition) {
      this.#emitTransition(
        transition,
        outcome.state === 'applied' ? 'APPLIED' : outcome.error.code,
      );
    } else {
      // A successor took the row over after our lease lapsed; it will get the same answer.
      this.#logger.warn('outbox.sender.stale_answer', { id: debit.id, attempt: debit.attempts });
    }
  }

  async #onFailure({ error, debit }: Failure): Promise<void> {
    const note = noteOf(error);
    if (!isCommerceApiError(error)) {
      this.#logger.error('outbox.sender.unexpected_failure', { id: debit.id, error });
      this.#retryLater(debit, note, undefined, true);
      return;
    }
    const typed = error as AnyApiError;
    switch (typed.kind) {
      case 'Conflict':
        // A business answer (INSUFFICIENT_BALANCE, GIFT_CARD_INACTIVE, ...): final, never retried.
        this.#failuresInARow = 0;
        this.#settle(debit, { state: 'refused', error: note });
        return;
      case 'InvalidRequest':
      case 'Forbidden':
      case 'NotFound':
        this.#failuresInARow = 0;
        this.#settle(debit, { state: 'failed', error: note });
        return;
      case 'CredentialsRejected':
        // Not processed (the service refused who we are): back to pending, due at once after a
        // resume, and nobody sends anything until an administrator acts.
        this.#reschedule(
          debit,
          { nextAttemptAt: this.#outbox.clock.now(), error: note, mayHaveReached: false },
          'CREDENTIALS_REJECTED',
        );
        this.#pause(note);
        return;
      case 'ContractViolation': {
        // A reply we cannot read may still be an applied debit, and a resend replays the same
        // unreadable reply: ask the card's usages instead, and tell staff either way.
        this.#retryLater(debit, note, undefined, true);
        const current = this.#outbox.find(debit.id);
        if (current?.state !== 'pending') return;
        const verdict = await this.#reconcileBeforeResend(current);
        if (verdict !== 'found') {
          this.#outbox.events.emit({
            type: 'attention-required',
            debit: this.#outbox.get(debit.id),
            code: note.code,
            message: note.message,
          });
        }
        return;
      }
      case 'RateLimited':
      case 'ServiceUnavailable':
        this.#retryLater(debit, note, typed.retryAfterMs, true);
        return;
      case 'NetworkError':
      case 'Timeout':
      case 'InternalError':
      case 'Unauthorized':
        this.#retryLater(debit, note, undefined, failureKindOf(typed) !== 'not-sent');
        return;
    }
  }

  /** No definitive answer: the row goes back to `pending` with a retry time; every card waits. */
  #retryLater(
    debit: OutboxDebit,
    note: FailureNote,
    retryAfterMs: number | undefined,
    mayHaveReached: boolean,
  ): void {
    const delay = this.#nextDelay(retryAfterMs);
    const nextAttemptAt = this.#outbox.clock.now() + delay;
    this.#gateUntil = Math.max(this.#gateUntil, nextAttemptAt);
    this.#reschedule(debit, { nextAttemptAt, error: note, mayHaveReached }, 'RETRY_SCHEDULED');
  }

  #nextDelay(retryAfterMs: number | undefined): number {
    this.#failuresInARow += 1;
    let delay: number;
    if (retryAfterMs !== undefined) {
      const { capMs, jitterMs } = this.#retry.retryAfter;
      delay = Math.min(retryAfterMs, capMs) + Math.floor(this.#random() * jitterMs);
    } else {
      delay = backoffDelay(this.#retry.backoff, this.#failuresInARow, this.#random);
    }
    if (!this.#budget.tryTake()) {
      // Out of retry tokens: wait until one is back rather than dropping anything.
      const rate = this.#retry.budget.refillPerSecond;
      const missing = 1 - this.#budget.available();
      const refillMs = rate > 0 ? Math.ceil((missing / rate) * 1000) : this.#retry.backoff.capMs;
      delay = Math.max(delay, refillMs);
    }
    return delay;
  }

  #reschedule(
    debit: OutboxDebit,
    retry: { nextAttemptAt: number; error: FailureNote; mayHaveReached: boolean },
    reason: string,
  ): void {
    const now = this.#outbox.clock.now();
    // Lost to a power cut, the row is still `sending` and is sent again: no fsync needed.
    const transition = this.#outbox.db.transaction(
      () => this.#outbox.store.rescheduleAttempt(debit.id, debit.attempts, retry, now),
      { durability: 'deferred' },
    );
    if (transition) this.#emitTransition(transition, `${reason}:${retry.error.code}`);
  }

  #pause(note: FailureNote): void {
    if (this.#paused) return;
    this.#paused = { code: note.code, message: note.message };
    this.#logger.error('outbox.sender.paused', { code: note.code });
    this.#outbox.events.emit({
      type: 'sender-paused',
      reason: 'credentials-rejected',
      needsAdministrator: true,
      code: note.code,
      message: note.message,
    });
  }

  /** 'absent' means: go on and resend with the same key. */
  async #reconcileBeforeResend(head: OutboxDebit): Promise<'found' | 'absent' | 'unknown'> {
    const verdict = await reconcile(head, this.#gateway);
    if (verdict.result === 'found') {
      this.#failuresInARow = 0;
      const now = this.#outbox.clock.now();
      const transition = this.#outbox.db.transaction(() =>
        this.#lease.renew()
          ? this.#outbox.store.markReconciled(head.id, verdict.usage, now)
          : undefined,
      );
      if (transition) this.#emitTransition(transition, 'RECONCILED');
      return 'found';
    }
    if (verdict.result === 'absent') return 'absent';
    this.#holdAfterUnknownVerdict(head, verdict);
    return 'unknown';
  }

  #holdAfterUnknownVerdict(
    head: OutboxDebit,
    verdict: { code: string; message: string; error?: unknown },
  ): void {
    if (isCommerceApiError(verdict.error) && verdict.error.kind === 'CredentialsRejected') {
      this.#pause({ code: verdict.code, message: verdict.message });
      return;
    }
    const retryAfterMs =
      isCommerceApiError(verdict.error) &&
      (verdict.error.kind === 'RateLimited' || verdict.error.kind === 'ServiceUnavailable')
        ? (verdict.error as { retryAfterMs?: number | undefined }).retryAfterMs
        : undefined;
    const nextAttemptAt = this.#outbox.clock.now() + this.#nextDelay(retryAfterMs);
    this.#gateUntil = Math.max(this.#gateUntil, nextAttemptAt);
    const note = { code: verdict.code, message: verdict.message };
    const postponed = this.#outbox.db.transaction(() =>
      this.#outbox.store.postpone(head.id, nextAttemptAt, note, this.#outbox.clock.now()),
    );
    if (postponed && verdict.code === 'RECONCILIATION_UNAVAILABLE') {
      this.#outbox.events.emit({
        type: 'attention-required',
        debit: postponed,
        code: note.code,
        message: note.message,
      });
    }
  }

  /**
   * Max age reached for a row that was attempted: if no attempt can have reached the service it
   * simply expires; otherwise the card's usages decide (found: applied; absent: expired). The
   * row is never declared expired while the service might have it.
   */
  async #expireAttempted(head: OutboxDebit): Promise<void> {
    const clock = this.#outbox.clock;
    const note = expiryNote(this.#outbox.limits.maxAgeMs);
    if (head.mayHaveReachedAt !== null) {
      const settleAt = (head.lastAttemptAt ?? head.createdAt) + this.#inFlightGraceMs;
      if (clock.now() < settleAt) {
        this.#outbox.db.transaction(() =>
          this.#outbox.store.postpone(
            head.id,
            settleAt,
            {
              code: 'EXPIRY_PENDING',
              message: 'waiting for the last attempt to settle before expiring',
            },
            clock.now(),
          ),
        );
        return;
      }
      const verdict = await this.#reconcileBeforeResend(head);
      if (verdict !== 'absent') return;
    }
    const transition = this.#outbox.db.transaction(() =>
      this.#lease.renew() ? this.#outbox.store.expire(head.id, clock.now(), note) : undefined,
    );
    if (transition) this.#emitTransition(transition, 'EXPIRED');
  }

  #emitTransition(transition: Transition, reason: string): void {
    const { debit, from } = transition;
    this.#logger.info('outbox.debit.state', {
      id: debit.id,
      from,
      to: debit.state,
      reason,
      attempts: debit.attempts,
    });
    this.#outbox.events.emit({ type: 'state-changed', debit, from, to: debit.state, reason });
  }
}

/**
 * Owners are `host:pid:random`. A holder on this host whose pid is gone is dead; anything else
 * (another host, a pid that exists, even if reused) is left to the lease expiry.
 */
export function localHolderAlive(owner: string): boolean | undefined {
  const [host, pidText] = owner.split(':');
  if (host !== hostname() || pidText === undefined || !/^\d+$/.test(pidText)) return undefined;
  try {
    process.kill(Number(pidText), 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH' ? false : true;
  }
}

function noteOf(error: unknown): FailureNote {
  if (isCommerceApiError(error)) return { code: error.code, message: error.message };
  return { code: 'UNEXPECTED', message: error instanceof Error ? error.message : String(error) };
}

function expiryNote(maxAgeMs: number): FailureNote {
  return {
    code: 'EXPIRED',
    message: `not sent within the maximum age of ${Math.round(maxAgeMs / 60_000)} min; the service never applied it`,
  };
}
