import type { GiftCardDebitReceipt } from '../../shared/api/gift-cards.ts';
import type { Logger } from '../logging/index.ts';
import type { Lease } from '../storage/index.ts';
import { classifyFailure, isCredentialsRejected, noteOf, retryAfterOf } from './attempt-failure.ts';
import type { FailureNote, OutboxDebit, Transition } from './debit.ts';
import type { DebitGateway } from './gateway.ts';
import type { Outbox } from './outbox.ts';
import { needsReconciliation, reconcile, type ReconcileSettings } from './reconcile.ts';
import type { RetrySchedule } from './retry-schedule.ts';

export interface DebitAttemptsOptions {
  readonly outbox: Outbox;
  readonly gateway: DebitGateway;
  /** The sender's lease: every write that follows a reply is made under it. */
  readonly lease: Lease;
  readonly schedule: RetrySchedule;
  readonly reconcile: ReconcileSettings;
  /** How long an attempted row's last attempt may still be under way (`SenderOptions`). */
  readonly inFlightGraceMs: number;
  readonly logger: Logger;
  /** The lease was renewed to commit an attempt: the loop's own renewal can wait. */
  readonly onLeaseRenewed: (at: number) => void;
  readonly onLeaseLost: () => void;
  /** The credentials were rejected: nothing may be sent until an administrator acts. */
  readonly pause: (note: FailureNote) => void;
}

/**
 * What the sender does to one row: send the head of a card's queue and record the answer,
 * reconcile it from the card's usages when a blind resend could debit twice, expire it at the
 * maximum age. `sending` and the attempt number are committed before a byte leaves, so after a
 * crash the row says an attempt may have happened; every later write is a compare-and-set that
 * changes nothing when another sender took the row over.
 */
export class DebitAttempts {
  readonly #outbox: Outbox;
  readonly #gateway: DebitGateway;
  readonly #lease: Lease;
  readonly #schedule: RetrySchedule;
  readonly #reconcile: ReconcileSettings;
  readonly #inFlightGraceMs: number;
  readonly #logger: Logger;
  readonly #onLeaseRenewed: (at: number) => void;
  readonly #onLeaseLost: () => void;
  readonly #pause: (note: FailureNote) => void;

  constructor(options: DebitAttemptsOptions) {
    this.#outbox = options.outbox;
    this.#gateway = options.gateway;
    this.#lease = options.lease;
    this.#schedule = options.schedule;
    this.#reconcile = options.reconcile;
    this.#inFlightGraceMs = options.inFlightGraceMs;
    this.#logger = options.logger;
    this.#onLeaseRenewed = options.onLeaseRenewed;
    this.#onLeaseLost = options.onLeaseLost;
    this.#pause = options.pause;
  }

  /** Whatever a previous holder of the lease left in `sending` is sent again, same key and body. */
  recoverInterrupted(now: number): void {
    const recovered = this.#outbox.db.transaction(() => this.#outbox.store.recoverInterrupted(now));
    for (const transition of recovered) this.#emitTransition(transition, 'INTERRUPTED');
  }

  /** Rows never attempted within the maximum age cannot have reached the service: expired. */
  expireNeverAttempted(now: number): void {
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

  /** One attempt on the head of a card's queue, its answer recorded. */
  async process(head: OutboxDebit): Promise<void> {
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

    const marked = this.#outbox.db.transaction(() => {
      if (!this.#lease.renew()) return 'lease-lost' as const;
      return this.#outbox.store.markSending(head.id, head.attempts, clock.now());
    });
    if (marked === 'lease-lost') {
      this.#onLeaseLost();
      return;
    }
    if (!marked) return; // cancelled, expired or taken meanwhile
    this.#onLeaseRenewed(clock.now());
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
      await this.#onFailure(error, debit);
      return;
    }
    this.#schedule.succeeded();
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

  async #onFailure(error: unknown, debit: OutboxDebit): Promise<void> {
    const note = noteOf(error);
    const verdict = classifyFailure(error);
    switch (verdict.action) {
      case 'settle':
        this.#schedule.succeeded();
        this.#settle(debit, { state: verdict.state, error: note });
        return;
      case 'pause':
        // Back to pending, due at once after a resume, and nobody sends anything until then.
        this.#reschedule(
          debit,
          { nextAttemptAt: this.#outbox.clock.now(), error: note, mayHaveReached: false },
          'CREDENTIALS_REJECTED',
        );
        this.#pause(note);
        return;
      case 'reconcile': {
        // A reply we cannot read may still be an applied debit, and a resend replays the same
        // unreadable reply: ask the card's usages instead, and tell staff either way.
        this.#retryLater(debit, note, undefined, true);
        const current = this.#outbox.find(debit.id);
        if (current?.state !== 'pending') return;
        const found = await this.#reconcileBeforeResend(current);
        if (found !== 'found') {
          this.#outbox.events.emit({
            type: 'attention-required',
            debit: this.#outbox.get(debit.id),
            code: note.code,
            message: note.message,
          });
        }
        return;
      }
      case 'retry':
        this.#retryLater(debit, note, verdict.retryAfterMs, verdict.mayHaveReached);
        return;
      case 'unexpected':
        this.#logger.error('outbox.sender.unexpected_failure', { id: debit.id, error });
        this.#retryLater(debit, note, undefined, true);
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
    const nextAttemptAt = this.#schedule.failed(retryAfterMs);
    this.#reschedule(debit, { nextAttemptAt, error: note, mayHaveReached }, 'RETRY_SCHEDULED');
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

  /** 'absent' means: go on and resend with the same key. */
  async #reconcileBeforeResend(head: OutboxDebit): Promise<'found' | 'absent' | 'unknown'> {
    const verdict = await reconcile(head, this.#gateway);
    if (verdict.result === 'found') {
      this.#schedule.succeeded();
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
    if (isCredentialsRejected(verdict.error)) {
      this.#pause({ code: verdict.code, message: verdict.message });
      return;
    }
    const nextAttemptAt = this.#schedule.failed(retryAfterOf(verdict.error));
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

function expiryNote(maxAgeMs: number): FailureNote {
  return {
    code: 'EXPIRED',
    message: `not sent within the maximum age of ${Math.round(maxAgeMs / 60_000)} min; the service never applied it`,
  };
}
