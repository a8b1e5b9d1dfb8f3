// Over 400 lines: one attempt's whole life (send, record with retried commits, reconcile, expire, hold, recover), each step guarding the same money invariant.
import { createHash } from 'node:crypto';
import type { OutcomeUnknownReason } from '../../shared/ipc/gift-cards.ts';
import type { RecordViewOf } from '../../shared/profile/index.ts';
import type { ClockInstant, ServiceClock, ServiceTimeBounds } from '../api/index.ts';
import { monotonicNow } from '../foundation/index.ts';
import type { Logger } from '../logging/index.ts';
import { classifyFailure, isCredentialsRejected, noteOf, retryAfterOf } from './attempt-failure.ts';
import type { PauseReason } from './events.ts';
import type { FailureNote, OutboxDebit, Transition } from './debit.ts';
import type { DebitGateway } from './gateway.ts';
import { type Durability, GroupCommit } from './group-commit.ts';
import type { Outbox } from './outbox.ts';
import { neverOffline } from './limits.ts';
import {
  keyWindowOf,
  reconcile,
  type Reconciliation,
  type ReconcileSettings,
} from './reconcile.ts';
import type { RetrySchedule } from './retry-schedule.ts';
import type { SenderLease } from './sender-lease.ts';
import { type DebitServiceTimes, inFlightRemainingMs, provablyOlderThan } from './service-times.ts';
import { rebuildAfterEvidence } from './unknown-outcome.ts';
import { usagesVerified } from './usage-evidence.ts';

export interface DebitAttemptsOptions {
  readonly outbox: Outbox;
  readonly gateway: DebitGateway;
  /** The sender's lease: every write that follows a reply is made under it. */
  readonly lease: SenderLease;
  readonly schedule: RetrySchedule;
  readonly reconcile: ReconcileSettings;
  /** How long an attempted row's last attempt may still be under way (`SenderOptions`). */
  readonly inFlightGraceMs: number;
  readonly logger: Logger;
  /** The credentials were rejected: nothing may be sent until an administrator acts. */
  readonly pause: (note: FailureNote, reason?: PauseReason) => void;
  /** A reading of the service's clock older than this is refreshed before it proves anything. */
  readonly freshServiceTimeMs: number;
  /** True once the sender was asked to stop. */
  readonly stopping: () => boolean;
  /** After a stop, how long an answer that cannot be committed is still retried (the lease TTL). */
  readonly stopGraceMs: number;
  /**
   * A definitive answer was queued for the next commit, not committed yet: the card's next
   * debit may be launched now (`process` with `chained`) so that its mark shares that commit.
   */
  readonly onAnswerQueued?: (debit: OutboxDebit) => void;
  /** How long a debit held as "outcome unknown" waits before its card's usages are read again. */
  readonly unknownRecheckMs: number;
}

/** Retries of a commit that failed (the database locked, a full disk): 50 ms doubling to 2 s. */
const RECORD_RETRY_BASE_MS = 50;
const RECORD_RETRY_CAP_MS = 2_000;
/**
 * Turns of the event loop a commit of marks and answers may wait for the answers of requests
 * under way (`GroupCommit`): measured on the drain bench, two turns cut the commits by about
 * 40% (fewer fsyncs, each of which stops the whole process), more than that gained nothing.
 */
const COMMIT_WAIT_TURNS = 2;
/**
 * The service is asked its time at most `SYNC_BURST` times in `SYNC_MIN_INTERVAL_MS`: a process's
 * first reading and its confirmation, and once more after a step of the kiosk's clock.
 */
const SYNC_MIN_INTERVAL_MS = 5_000;
const SYNC_BURST = 3;
/** A row waiting for a jump of the service's clock to be confirmed or dismissed tries again. */
const UNCONFIRMED_RETRY_MS = 1_000;

type Recorded<T> = { readonly recorded: true; readonly value: T } | { readonly recorded: false };

/**
 * What the sender does to one row: send the head of a card's queue and record the answer,
 * reconcile it from the card's usages when a blind resend could debit twice, expire it at the
 * maximum age. `sending` and the attempt number are committed before a byte leaves, so after a
 * crash the row says an attempt may have happened; every later write is a compare-and-set that
 * changes nothing when another sender took the row over.
 *
 * Ages (the key-retention window, the maximum age, an attempt's time to settle) are read on the
 * service's clock (`service-times.ts`); the kiosk's wall clock only suggests when to ask it. An
 * answer that cannot be committed (the database locked by another process, a full disk) is kept
 * in memory and committed again until it is: a live sender never leaves its row `sending`.
 */
export class DebitAttempts {
  readonly #outbox: Outbox;
  readonly #gateway: DebitGateway;
  readonly #lease: SenderLease;
  readonly #schedule: RetrySchedule;
  readonly #reconcile: ReconcileSettings;
  readonly #inFlightGraceMs: number;
  readonly #logger: Logger;
  readonly #pause: (note: FailureNote, reason?: PauseReason) => void;
  readonly #serviceClock: ServiceClock;
  readonly #freshServiceTimeMs: number;
  readonly #stopping: () => boolean;
  readonly #stopGraceMs: number;
  readonly #onAnswerQueued: (debit: OutboxDebit) => void;
  readonly #unknownRecheckMs: number;
  /** `sending` marks and answers of one turn share a commit. */
  readonly #commits: GroupCommit;
  /** The group commit's transaction in which the lease was last renewed, and whether it was. */
  #leaseRenewal = { transaction: -1, held: false };
  /** Debit requests sent and not answered yet. */
  #awaitingReplies = 0;
  #syncing: Promise<void> | undefined;
  /** When (monotonic) the service was last asked its time, within the last interval. */
  #syncTimes: readonly number[] = [];

  constructor(options: DebitAttemptsOptions) {
    this.#outbox = options.outbox;
    this.#gateway = options.gateway;
    this.#lease = options.lease;
    this.#schedule = options.schedule;
    this.#reconcile = options.reconcile;
    this.#inFlightGraceMs = options.inFlightGraceMs;
    this.#logger = options.logger;
    this.#pause = options.pause;
    this.#serviceClock = options.gateway.serviceClock;
    this.#freshServiceTimeMs = options.freshServiceTimeMs;
    this.#stopping = options.stopping;
    this.#stopGraceMs = options.stopGraceMs;
    this.#onAnswerQueued = options.onAnswerQueued ?? (() => {});
    this.#unknownRecheckMs = options.unknownRecheckMs;
    this.#commits = new GroupCommit(options.outbox.db, {
      replyDue: () => this.#awaitingReplies > 0,
      maxWaitTurns: COMMIT_WAIT_TURNS,
    });
  }

  /** Whatever a previous holder of the lease left in `sending` is sent again, same key and body. */
  recoverInterrupted(now: number): void {
    const recovered = this.#outbox.db.transaction(() => this.#outbox.store.recoverInterrupted(now));
    for (const transition of recovered) this.#emitTransition(transition, 'INTERRUPTED');
  }

  /**
   * Rows never attempted within the maximum age cannot have reached the service: expired, once
   * the service's clock proves their age. Open rows not dated on it yet are dated first.
   */
  expireNeverAttempted(): void {
    const serviceNow = this.#serviceClock.now();
    this.#dateOpenRows(serviceNow);
    // Never from a single reading: a reply dated 73 h ahead expires nothing until confirmed.
    if (!serviceNow?.confirmed) return;
    const cutoff = serviceNow.earliest - this.#outbox.limits.maxAgeMs;
    // A read first: this runs at every pass, and a write transaction would take the lock that a
    // kioskctl enqueue in another process is waiting for.
    if (!this.#outbox.store.hasNeverAttemptedBefore(cutoff)) return;
    const now = this.#outbox.clock.now();
    const expired = this.#outbox.db.transaction(() =>
      this.#outbox.store.expireNeverAttempted(
        cutoff,
        now,
        expiryNote(this.#outbox.limits.maxAgeMs),
      ),
    );
    for (const transition of expired) this.#emitTransition(transition, 'EXPIRED');
  }

  /**
   * The wall clock says a never-attempted row may have reached the maximum age and the service's
   * time at hand is too old to tell: time to ask the service (`serviceNow(true)`).
   */
  wantsServiceTime(): boolean {
    if (this.#isTrusted(this.#serviceClock.now())) return false;
    const cutoff = this.#outbox.clock.now() - this.#outbox.limits.maxAgeMs;
    return this.#outbox.store.hasNeverAttemptedSince(cutoff);
  }

  /**
   * The service's time now; with `fresh`, a reading older than `freshServiceTimeMs` (a step of
   * the kiosk's wall clock makes it so), or one no second reply confirmed yet (the first of a
   * process, or a jump), is first refreshed by asking the service: one request at a time, at most
   * a few in a row, then one every few seconds.
   */
  async serviceNow(fresh: boolean): Promise<ServiceTimeBounds | undefined> {
    let reading = this.#serviceClock.now();
    if (!fresh) return reading;
    for (let asked = 0; asked < 2 && !this.#isTrusted(reading); asked += 1) {
      if (!(await this.#sync())) break;
      reading = this.#serviceClock.now();
    }
    return reading;
  }

  /**
   * A reading of the service's clock from a reply received after this call, confirmed by a
   * second one: `taken`; `unconfirmed` when the replies jumped; `unreachable` when none came.
   * One cheap request or two, before a resend under a key the service may have seen (retries
   * come after a failure and its backoff: never a flood).
   */
  async #readingTakenNow(): Promise<{
    readonly reading: ServiceTimeBounds | undefined;
    readonly outcome: 'taken' | 'unconfirmed' | 'unreachable';
  }> {
    const clock = this.#outbox.clock;
    const since = monotonicNow(clock);
    let answered = false;
    for (let asked = 0; asked < 3; asked += 1) {
      await this.#sync(true);
      const reading = this.#serviceClock.now();
      // (A few ms of slack: the wall clock behind `syncAgeMs` ticks apart from the monotonic.)
      if (reading === undefined || reading.syncAgeMs > monotonicNow(clock) - since + 5) continue;
      answered = true;
      if (reading.confirmed) return { reading, outcome: 'taken' };
    }
    return { reading: this.#serviceClock.now(), outcome: answered ? 'unconfirmed' : 'unreachable' };
  }

  /**
   * One request for the service's time (shared by concurrent callers); false when not asked
   * (`force`: always asked, a new request once the one under way, if any, is answered).
   */
  async #sync(force = false): Promise<boolean> {
    if (force && this.#syncing) await this.#syncing;
    if (!this.#syncing) {
      const at = monotonicNow(this.#outbox.clock);
      const recent = this.#syncTimes.filter((time) => at - time < SYNC_MIN_INTERVAL_MS);
      if (!force && recent.length >= SYNC_BURST) return false;
      this.#syncTimes = [...recent, at];
      this.#syncing = this.#gateway.syncServiceTime().finally(() => {
        this.#syncing = undefined;
      });
    }
    await this.#syncing;
    return true;
  }

  /**
   * One attempt on the head of a card's queue, its answer recorded. `chained`: launched while the
   * answer to the card's previous debit waits for its commit, so that this mark shares it; then
   * only the plain path is taken (marked, sent), and a debit that needs the service's time, an
   * expiry or a reconciliation first is left to the sender's next pass, once that answer is in.
   */
  async process(head: OutboxDebit, options: { readonly chained?: boolean } = {}): Promise<void> {
    const clock = this.#outbox.clock;
    const maxAgeMs = this.#outbox.limits.maxAgeMs;
    const chained = options.chained === true;
    if (head.outcomeUnknown !== null) {
      // Held for a person: never sent, never expired; only its card's usages are read again.
      if (!chained) await this.#recheckHeld(head);
      return;
    }
    // The wall clock may suggest asking the service, never decide: a step of it is no age.
    const looksOld = clock.now() - head.createdAt >= maxAgeMs;
    const mayHaveReached = head.mayHaveReachedAt !== null || head.olderKeyMayHaveReached;
    const needsTime = looksOld || mayHaveReached;
    if (chained && needsTime) return;
    // Without an age to prove, the reading at hand will do, and no await: a chained mark then
    // joins its predecessor's commit in the same turn. Without a confirmed reading (the first
    // send of a process) the service is asked first, so that the attempt is dated on one: an
    // attempt never dated can never be proven inside its key window.
    const reading = this.#serviceClock.now();
    // A key that may have reached the service is resent only on a reading of its clock taken
    // now, after that attempt: one of a minute ago says nothing of a service whose clock, and
    // with it its key retention, moved meanwhile.
    const taken = mayHaveReached && !chained ? await this.#readingTakenNow() : undefined;
    const serviceNow = taken
      ? taken.reading
      : needsTime || (!chained && !reading?.confirmed)
        ? await this.serviceNow(true)
        : reading;
    // Chained, the answer just before dates the rows once committed; undated, this row can
    // only look younger: it would expire late, never early.
    if (!chained) this.#dateOpenRows(serviceNow);
    const times = this.#outbox.store.serviceTimes(head.id);
    if (!times) return;
    if (provablyOlderThan(times, serviceNow, maxAgeMs)) {
      if (chained) return;
      await this.#expireAttempted(head, times, serviceNow);
      return;
    }
    const trusted = taken
      ? taken.outcome === 'taken'
        ? taken.reading
        : undefined
      : this.#isTrusted(serviceNow)
        ? serviceNow
        : undefined;
    const window = keyWindowOf(head, times, trusted, this.#reconcile);
    if (window === 'unreadable') {
      if (chained) return;
      // No telling whether the key is still remembered: nothing is sent, nothing decided. The
      // service unreachable, every card waits (as after a failed attempt); its clock jumping,
      // this row waits for the next reply to confirm or dismiss the jump.
      const unreachable = taken?.outcome !== 'unconfirmed';
      this.#postpone(
        head,
        unreachable ? this.#schedule.failed(undefined) : clock.now() + UNCONFIRMED_RETRY_MS,
        {
          code: 'SERVICE_TIME_UNKNOWN',
          message: unreachable
            ? "the service's time could not be read: a resend under a key it may have seen waits for it"
            : "the service's clock jumped and no second reply confirmed it yet: a resend waits for it",
        },
      );
      return;
    }
    if (window === 'closed') {
      if (chained) return;
      // Past the key window: a resend under the same key could be a second debit. The usages
      // decide; without evidence the row is held for a person.
      const verdict = await this.#reconcileBeforeResend(head);
      if (verdict !== 'absent') return;
    }

    let started = this.#serviceClock.instant();
    let timed = false;
    // Committed (fsync'd) before the request below is made; other cards' marks may share it.
    const marked = await this.#commits.run(() => {
      if (!this.#renewLeaseInCommit()) return 'lease-lost' as const;
      started = this.#serviceClock.instant();
      // Only a confirmed reading dates an attempt: one reply alone, 73 h off, would else hold the
      // key window open 73 h too long. Unconfirmed, the answer's own reply dates it.
      const reading = this.#serviceClock.boundsAt(started);
      const bounds = reading?.confirmed ? reading : undefined;
      timed = bounds !== undefined;
      return this.#outbox.store.markSending(
        head.id,
        head.attempts,
        clock.now(),
        bounds,
        head.idempotencyKey,
        digestOf(head.requestBody),
      );
    }, 'full');
    // Lost: the lease said so (the `sender-lease` event); a successor sends the row.
    if (marked === 'lease-lost' || !marked) return; // or cancelled, expired, taken meanwhile
    this.#lease.renewed(clock.now());
    this.#emitTransition(marked, 'ATTEMPT');
    const attempt = {
      debit: marked.debit,
      started,
      timed,
      firstSendOfKey: head.keySentAt === null,
    };

    let receipt: RecordViewOf<'debitReceipt'>;
    this.#awaitingReplies += 1;
    try {
      receipt = await this.#gateway.debit(
        attempt.debit.giftCardId,
        attempt.debit.idempotencyKey,
        attempt.debit.requestBody,
        { freshConnection: neverOffline(attempt.debit.amount, this.#outbox.limits) },
      );
    } catch (error) {
      this.#awaitingReplies -= 1;
      await this.#onFailure(error, attempt);
      return;
    }
    this.#awaitingReplies -= 1;
    this.#schedule.succeeded();
    await this.#settle(attempt, {
      state: 'applied',
      reply: { kind: 'receipt', receipt },
      newBalance: receipt.balance,
      by: 'service',
    });
  }

  /**
   * The lease, renewed in the transaction that marks rows `sending`: still the holder when they
   * commit. Once per transaction, however many cards' heads it marks.
   */
  #renewLeaseInCommit(): boolean {
    const transaction = this.#commits.transaction;
    if (this.#leaseRenewal.transaction !== transaction) {
      this.#leaseRenewal = { transaction, held: this.#lease.keep() };
    }
    return this.#leaseRenewal.held;
  }

  async #settle(
    attempt: Attempt,
    outcome: Parameters<Outbox['store']['settleAttempt']>[1],
  ): Promise<void> {
    const { debit } = attempt;
    // An attempt its mark could not date is dated by the answer's reading, once confirmed.
    const bounds = attempt.timed ? undefined : this.#confirmedBoundsAt(attempt.started);
    // An `applied` lost to a power cut is found again (the row is resent with the same key and
    // the service replays its receipt, or reconciled from the usages): it may skip the fsync, the
    // second of each attempt. A refusal may not: resent after the key is forgotten, a debit staff
    // were told was refused could go through.
    const written = await this.#record(
      debit,
      () => {
        if (bounds) this.#outbox.store.recordAttemptTimes(debit.id, debit.attempts, bounds);
        return this.#outbox.store.settleAttempt(debit, outcome, this.#outbox.clock.now());
      },
      outcome.state === 'applied' ? 'deferred' : 'full',
      () => this.#onAnswerQueued(debit),
    );
    if (!written.recorded) return;
    this.#dateOpenRows(this.#serviceClock.now());
    if (written.value) {
      this.#emitTransition(
        written.value,
        outcome.state === 'applied' ? 'APPLIED' : outcome.error.code,
      );
    } else {
      // A successor took the row over after our lease lapsed; it will get the same answer.
      this.#logger.warn('outbox.sender.stale_answer', { id: debit.id, attempt: debit.attempts });
    }
  }

  async #onFailure(error: unknown, attempt: Attempt): Promise<void> {
    const { debit } = attempt;
    const note = noteOf(error);
    const verdict = classifyFailure(error);
    switch (verdict.action) {
      case 'settle':
        this.#schedule.succeeded();
        await this.#settle(attempt, { state: verdict.state, error: note });
        return;
      case 'conflict': {
        this.#schedule.succeeded();
        if (!verdict.namesKey && !this.#keyMayHaveGoneWithAnotherBody(attempt)) {
          await this.#settle(attempt, { state: 'refused', error: note });
          return;
        }
        // The spec's idempotency rule 2: this key went out before with another body. That is the
        // kiosk breaking its own rule, not the customer's card: whatever the key's first use did
        // is unknown, and the row is held for a person, never refused.
        this.#logger.error('outbox.sender.key_reused', {
          id: debit.id,
          attempt: debit.attempts,
          code: note.code,
          namedByService: verdict.namesKey,
        });
        await this.#hold(debit, 'KEY_REUSED', { attempt: attempt.debit.attempts, note });
        return;
      }
      case 'pause': {
        // Back to pending, due at once after a resume, and nobody sends anything until then. A
        // 400 or 403 was not applied: the row is held, never failed, for an administrator.
        const held = verdict.note ?? note;
        await this.#reschedule(
          attempt,
          { nextAttemptAt: this.#outbox.clock.now(), error: held, mayHaveReached: false },
          verdict.reason === 'credentials-rejected' ? 'CREDENTIALS_REJECTED' : 'HELD',
        );
        if (verdict.answered) this.#recordAnswered(debit);
        this.#pause(held, verdict.reason);
        return;
      }
      case 'reconcile': {
        // A reply we cannot read may still be an applied debit, and a resend replays the same
        // unreadable reply: ask the card's usages instead; without evidence, a person decides.
        await this.#retryLater(attempt, note, undefined, true);
        const current = this.#outbox.find(debit.id);
        if (current?.state !== 'pending') return;
        const found = await this.#reconcileBeforeResend(current, 'REPLY_UNREADABLE');
        if (found === 'absent') {
          this.#outbox.events.emit('change', {
            type: 'held',
            debit: this.#outbox.get(debit.id),
            code: note.code,
            message: note.message,
          });
        }
        return;
      }
      case 'retry':
        await this.#retryLater(attempt, note, verdict.retryAfterMs, verdict.mayHaveReached);
        return;
      case 'unexpected':
        this.#logger.error('outbox.sender.unexpected_failure', { id: debit.id, error });
        await this.#retryLater(attempt, note, undefined, true);
        return;
    }
  }

  /**
   * Whether the key of this attempt may have gone out before with another body, by the kiosk's
   * own record: not if this attempt was its first send; otherwise unless the digest of the body it
   * first went out with is known and equal (rows sent before that was recorded: unknown, so yes).
   */
  #keyMayHaveGoneWithAnotherBody(attempt: Attempt): boolean {
    if (attempt.firstSendOfKey) return false;
    const sentWith = attempt.debit.keySentDigest;
    return sentWith === null || sentWith !== digestOf(attempt.debit.requestBody);
  }

  /**
   * The service itself refused these very bytes under this key (400): had it applied them under
   * it, it would have replayed that answer instead. Positive evidence for this key, committed.
   */
  #recordAnswered(debit: OutboxDebit): void {
    try {
      this.#outbox.db.transaction(() =>
        this.#outbox.store.recordNotApplied(debit.id, 'answer', this.#outbox.clock.now()),
      );
    } catch (error) {
      // Not recorded: the row keeps "may have reached", the safe side (a rebuild is withheld).
      this.#logger.warn('outbox.sender.evidence_not_recorded', { id: debit.id, error });
    }
  }

  /** No definitive answer: the row goes back to `pending` with a retry time; every card waits. */
  async #retryLater(
    attempt: Attempt,
    note: FailureNote,
    retryAfterMs: number | undefined,
    mayHaveReached: boolean,
  ): Promise<void> {
    const nextAttemptAt = this.#schedule.failed(retryAfterMs);
    await this.#reschedule(
      attempt,
      { nextAttemptAt, error: note, mayHaveReached },
      'RETRY_SCHEDULED',
    );
  }

  async #reschedule(
    attempt: Attempt,
    retry: { nextAttemptAt: number; error: FailureNote; mayHaveReached: boolean },
    reason: string,
  ): Promise<void> {
    const { debit } = attempt;
    // An attempt its mark could not date is dated by the answer's reading, once confirmed (a
    // lost reply brings none: the service is asked, or the attempt could never be proven inside
    // its key window).
    if (!attempt.timed && retry.mayHaveReached) await this.serviceNow(true);
    const bounds = attempt.timed ? undefined : this.#confirmedBoundsAt(attempt.started);
    // Lost to a power cut, the row is still `sending` and is sent again: no fsync needed.
    const written = await this.#record(
      debit,
      () => {
        if (bounds) this.#outbox.store.recordAttemptTimes(debit.id, debit.attempts, bounds);
        return this.#outbox.store.rescheduleAttempt(
          debit.id,
          debit.attempts,
          retry,
          this.#outbox.clock.now(),
        );
      },
      'deferred',
    );
    // The reply (or the token's) just dated the service's clock: date the rows before anything
    // else may stop this process.
    this.#dateOpenRows(this.#serviceClock.now());
    if (!written.recorded || !written.value) return;
    const after = written.value.debit;
    if (after.outcomeUnknown === null) {
      this.#emitTransition(written.value, `${reason}:${retry.error.code}`);
      return;
    }
    // Held while this attempt was under way (`Outbox.awaitAnswer`: over the offline limits, the
    // caller's wait over): no answer came, so no retry; it stays held for a person.
    this.#logger.warn('outbox.debit.outcome_unknown', {
      id: after.id,
      reason: after.outcomeUnknown.reason,
      attempt: debit.attempts,
    });
    this.#emitTransition(written.value, 'DEBIT_OUTCOME_UNKNOWN');
    this.#outbox.events.emit('change', {
      type: 'held',
      debit: after,
      code: 'DEBIT_OUTCOME_UNKNOWN',
      message: retry.error.message,
    });
  }

  /**
   * Commits what an attempt learnt, again and again until it is committed: the answer is only
   * in memory, and the row must not stay `sending` (its card blocked, staff shown "sending")
   * until a restart. Only a sender that was stopped gives up, after `stopGraceMs`: the row is
   * then recovered by the next sender like a crash's, resent with the same key.
   */
  async #record<T>(
    debit: OutboxDebit,
    write: () => T,
    durability: Durability,
    queued?: () => void,
  ): Promise<Recorded<T>> {
    const clock = this.#outbox.clock;
    let stoppedAt: number | undefined;
    for (let failures = 0; ;) {
      try {
        // The first try shares the turn's commit; a retry after a failure commits on its own.
        let value: T;
        if (failures === 0) {
          const committed = this.#commits.run(write, durability);
          queued?.();
          value = await committed;
        } else {
          value = this.#outbox.db.transaction(write, { durability });
        }
        if (failures > 0) {
          this.#logger.info('outbox.sender.recorded', { id: debit.id, failures });
        }
        return { recorded: true, value };
      } catch (error) {
        failures += 1;
        // At the 1st, 2nd, 4th, 8th... failure: a lock held for minutes writes a few lines.
        if ((failures & (failures - 1)) === 0) {
          this.#logger.warn('outbox.sender.record_retry', { id: debit.id, failures, error });
        }
        if (this.#stopping()) {
          const at = monotonicNow(clock);
          stoppedAt ??= at;
          if (at - stoppedAt >= this.#stopGraceMs) {
            this.#logger.error('outbox.sender.record_abandoned', { id: debit.id, failures, error });
            return { recorded: false };
          }
        }
        const delay = RECORD_RETRY_BASE_MS * 2 ** Math.min(failures - 1, 10);
        await clock.sleep(Math.min(delay, RECORD_RETRY_CAP_MS));
      }
    }
  }

  /**
   * The card's usages, before a resend that could debit twice, or an expiry. 'absent' (positive
   * evidence, now recorded) means: go on. Without evidence the row is held for a person.
   */
  async #reconcileBeforeResend(
    head: OutboxDebit,
    reason?: OutcomeUnknownReason,
  ): Promise<'found' | 'absent' | 'unknown'> {
    const verdict = await this.#readUsages(head);
    switch (verdict.result) {
      case 'found':
        await this.#markReconciled(head, verdict.usage);
        return 'found';
      case 'absent':
        this.#schedule.succeeded();
        this.#outbox.db.transaction(() =>
          this.#outbox.store.recordNotApplied(head.id, 'usages', this.#outbox.clock.now()),
        );
        return 'absent';
      case 'unproven':
        await this.#hold(head, reason ?? verdict.reason, {
          note: { code: 'DEBIT_OUTCOME_UNKNOWN', message: verdict.message },
        });
        return 'unknown';
      case 'unknown':
        this.#holdAfterUnknownVerdict(head, verdict);
        return 'unknown';
    }
  }

  /** Reads the card's usages for a row; the balance read with them is kept as evidence. */
  async #readUsages(head: OutboxDebit): Promise<Reconciliation> {
    const verdict = await reconcile(head, this.#gateway, () =>
      usagesVerified(this.#outbox.store, this.#outbox.profile),
    );
    if (verdict.result !== 'unknown' && typeof verdict.balance === 'number') {
      const cents = Math.round(verdict.balance * 100);
      try {
        this.#outbox.db.transaction(
          () => this.#outbox.store.recordBalanceNow(head.id, cents, this.#outbox.clock.now()),
          { durability: 'deferred' },
        );
      } catch (error) {
        this.#logger.warn('outbox.sender.balance_not_recorded', { id: head.id, error });
      }
    }
    return verdict;
  }

  async #markReconciled(head: OutboxDebit, usage: RecordViewOf<'giftCardUsage'>): Promise<void> {
    this.#schedule.succeeded();
    // What the usages told is an answer too: committed until it is.
    const written = await this.#record(
      head,
      () =>
        this.#lease.keep()
          ? this.#outbox.store.markReconciled(head.id, usage, this.#outbox.clock.now())
          : undefined,
      'full',
    );
    if (written.recorded && written.value) this.#emitTransition(written.value, 'RECONCILED');
  }

  /**
   * Held for a person: "outcome unknown". From `pending`, or from the attempt's `sending`
   * (`attempt`). Its usages are read again every `unknownRecheckMs`; it is never sent again,
   * never expired, until they prove something or a person records the outcome.
   */
  async #hold(
    head: OutboxDebit,
    reason: OutcomeUnknownReason,
    options: { readonly attempt?: number; readonly note?: FailureNote },
  ): Promise<void> {
    const clock = this.#outbox.clock;
    const note = {
      code: 'DEBIT_OUTCOME_UNKNOWN',
      message: options.note?.message ?? `the outcome of this debit is unknown (${reason})`,
    };
    const written = await this.#record(
      head,
      () =>
        this.#outbox.store.holdOutcomeUnknown(
          head.id,
          {
            reason,
            note,
            nextCheckAt: clock.now() + this.#unknownRecheckMs,
            ...(options.attempt === undefined ? {} : { attempt: options.attempt }),
          },
          clock.now(),
        ),
      'full',
    );
    if (!written.recorded || !written.value) return;
    const held = written.value.debit;
    if (head.outcomeUnknown === null) {
      this.#logger.warn('outbox.debit.outcome_unknown', { id: held.id, reason });
    }
    if (options.attempt !== undefined) this.#emitTransition(written.value, 'DEBIT_OUTCOME_UNKNOWN');
    this.#outbox.events.emit('change', {
      type: 'held',
      debit: held,
      code: 'DEBIT_OUTCOME_UNKNOWN',
      message: note.message,
    });
  }

  /**
   * A held row's turn: its card's usages read again. Found: applied. Absent where they are
   * verified: the hold is lifted with that evidence and the row goes on (under a new key if its
   * key was seen with another body). Otherwise it stays held, its balance now refreshed.
   */
  async #recheckHeld(head: OutboxDebit): Promise<void> {
    const verdict = await this.#readUsages(head);
    const clock = this.#outbox.clock;
    switch (verdict.result) {
      case 'found':
        await this.#markReconciled(head, verdict.usage);
        return;
      case 'absent': {
        this.#schedule.succeeded();
        if (head.outcomeUnknown?.reason === 'OVER_OFFLINE_LIMIT') {
          // Staff were told it was not taken: even proven absent, it is not sent by itself (nor
          // withdrawn: an attempt may still land). A person records the outcome.
          this.#postpone(head, clock.now() + this.#unknownRecheckMs, {
            code: 'DEBIT_OUTCOME_UNKNOWN',
            message:
              "the card's usages do not show it; over the offline limits, it is not sent again by itself: a person records the outcome",
          });
          return;
        }
        const lifted = this.#outbox.db.transaction(() => {
          const proven = this.#outbox.store.recordNotApplied(
            head.id,
            'usages',
            clock.now(),
            clock.now(),
          );
          if (proven) {
            rebuildAfterEvidence(
              this.#outbox,
              proven,
              head.outcomeUnknown?.reason === 'KEY_REUSED',
            );
          }
          return proven;
        });
        if (!lifted) return;
        this.#logger.info('outbox.debit.outcome_proven', { id: head.id, evidence: 'usages' });
        this.#outbox.events.emit('change', {
          type: 'state-changed',
          debit: this.#outbox.get(head.id),
          from: 'pending',
          to: 'pending',
          reason: 'NOT_APPLIED_BY_USAGES',
        });
        return;
      }
      case 'unproven':
      case 'unknown':
        this.#postpone(head, clock.now() + this.#unknownRecheckMs, {
          code: 'DEBIT_OUTCOME_UNKNOWN',
          message: verdict.message,
        });
        return;
    }
  }

  #postpone(head: OutboxDebit, nextAttemptAt: number, note: FailureNote): OutboxDebit | undefined {
    return this.#outbox.db.transaction(() =>
      this.#outbox.store.postpone(head.id, nextAttemptAt, note, this.#outbox.clock.now()),
    );
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
    this.#postpone(head, nextAttemptAt, { code: verdict.code, message: verdict.message });
  }

  /**
   * Max age reached (on the service's clock) for the head of a card: if no attempt can have
   * reached the service it simply expires; otherwise, once the last attempt can no longer be
   * under way, the card's usages decide (found: applied; absent where verified: expired; no
   * evidence: held as "outcome unknown"). The row is never declared expired while the service
   * might have it.
   */
  async #expireAttempted(
    head: OutboxDebit,
    times: DebitServiceTimes,
    serviceNow: ServiceTimeBounds | undefined,
  ): Promise<void> {
    const clock = this.#outbox.clock;
    const note = expiryNote(this.#outbox.limits.maxAgeMs);
    if (head.mayHaveReachedAt !== null || head.olderKeyMayHaveReached) {
      const waitMs = inFlightRemainingMs({
        times,
        serviceNow,
        lastAttemptAt: head.lastAttemptAt,
        now: clock.now(),
        graceMs: this.#inFlightGraceMs,
      });
      if (waitMs > 0) {
        this.#outbox.db.transaction(() =>
          this.#outbox.store.postpone(
            head.id,
            clock.now() + waitMs,
            {
              code: 'EXPIRY_PENDING',
              message: 'waiting for the last attempt to settle before expiring',
            },
            clock.now(),
          ),
        );
        return;
      }
      // "Never applied" only on evidence: without it the row is held, never expired.
      const verdict = await this.#reconcileBeforeResend(head);
      if (verdict !== 'absent') return;
    }
    const transition = this.#outbox.db.transaction(() =>
      this.#lease.keep() ? this.#outbox.store.expire(head.id, clock.now(), note) : undefined,
    );
    if (transition) this.#emitTransition(transition, 'EXPIRED');
  }

  /** Dates open rows accepted without a service time (`OutboxStore.dateOpenRows`). */
  #dateOpenRows(serviceNow: ServiceTimeBounds | undefined): void {
    // A single reading, 73 h behind, would date them 73 h too early: they would expire early.
    if (!serviceNow?.confirmed) return;
    try {
      if (!this.#outbox.store.hasUndatedOpen()) return;
      this.#outbox.db.transaction(() => this.#outbox.store.dateOpenRows(serviceNow.latest), {
        durability: 'deferred',
      });
    } catch (error) {
      // Dated at a later pass, a row only looks younger: it can expire late, never early.
      this.#logger.warn('outbox.sender.dating_failed', { error });
    }
  }

  #isFresh(reading: ServiceTimeBounds | undefined): reading is ServiceTimeBounds {
    return reading !== undefined && reading.syncAgeMs <= this.#freshServiceTimeMs;
  }

  /** Recent, and confirmed by a second reply: what a key window or an age is decided on. */
  #isTrusted(reading: ServiceTimeBounds | undefined): boolean {
    return this.#isFresh(reading) && reading.confirmed;
  }

  #confirmedBoundsAt(at: ClockInstant): ServiceTimeBounds | undefined {
    const bounds = this.#serviceClock.boundsAt(at);
    return bounds?.confirmed ? bounds : undefined;
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
    this.#outbox.events.emit('change', {
      type: 'state-changed',
      debit,
      from,
      to: debit.state,
      reason,
    });
  }
}

/** An attempt under way: its row as marked `sending`, and when it started. */
interface Attempt {
  readonly debit: OutboxDebit;
  readonly started: ClockInstant;
  /** Its start's service-clock bounds went into the mark: the answer need not write them. */
  readonly timed: boolean;
  /** The row's key had never gone out before this attempt (the recorded fact). */
  readonly firstSendOfKey: boolean;
}

/** The digest of a body as the row records the one its key first went out with. */
function digestOf(body: string): string {
  return createHash('sha256').update(body).digest('hex');
}

function expiryNote(maxAgeMs: number): FailureNote {
  return {
    code: 'EXPIRED',
    message: `not sent within the maximum age of ${Math.round(maxAgeMs / 60_000)} min; the service never applied it`,
  };
}
