// Over 400 lines: the loop, lease, pause and wake-ups are one state machine; attempts, failures and scheduling already live beside it.
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { OutboxSummary } from '../../shared/ipc/gift-cards.ts';
import type { ServiceClockStatus } from '../api/index.ts';
import { monotonicNow } from '../foundation/index.ts';
import { type Logger, silentLogger } from '../logging/index.ts';
import { Lease } from '../storage/index.ts';
import { DebitAttempts } from './debit-attempts.ts';
import type { FailureNote, OutboxDebit } from './debit.ts';
import type { PauseReason } from './events.ts';
import type { DebitGateway } from './gateway.ts';
import type { Outbox } from './outbox.ts';
import { defaultReconcileSettings, type ReconcileSettings } from './reconcile.ts';
import { defaultSenderRetry, RetrySchedule, type SenderRetrySettings } from './retry-schedule.ts';
import { SenderLease } from './sender-lease.ts';
import { Wakeup } from './wakeup.ts';

/**
 * The one sender of a data directory. It holds a lease row in the database (the kiosk app and
 * kioskctl never send at once; a crashed holder is replaced after the lease expires), takes the
 * head of each card's queue (FIFO per card, a few cards at once) and hands each to
 * `DebitAttempts`, which commits `sending` with the attempt number before every attempt and
 * records the answer (`attempt-failure.ts` tells what a failure means, `retry-schedule.ts` when
 * to try again). A 2xx is `applied`, with the receipt and the new balance. When the service is
 * seen again after an outage (`liftBackoff`), every waiting row is due at once.
 */

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
  /**
   * A reading of the service's clock older than this is refreshed (one cheap request) before it
   * may prove that a resend is inside the key-retention window. Default one minute.
   */
  readonly freshServiceTimeMs?: number;
  /** How often the database is re-read for rows another process committed (kioskctl enqueue). */
  readonly idlePollMs?: number;
  /**
   * How often a debit held as "outcome unknown" has its card's usages read again (it is never
   * sent meanwhile). Default 10 minutes, and never longer than the longest retry wait.
   */
  readonly unknownRecheckMs?: number;
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
  | 'lease-held'
  /**
   * Nothing open can move without a person: every card's oldest open debit is held as "outcome
   * unknown" (a card's later debits wait behind it).
   */
  | 'held';

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
  /** The service's clock against the kiosk's, and the kiosk clock's steps, for the technician. */
  readonly serviceClock: ServiceClockStatus;
}

export interface SenderStatus {
  readonly running: boolean;
  readonly holdsLease: boolean;
  readonly paused: { readonly code: string; readonly message: string } | null;
  /** Epoch ms before which nothing is sent (backoff or Retry-After); null when open. */
  readonly gateUntil: number | null;
  readonly inFlight: number;
  readonly serviceClock: ServiceClockStatus;
}

export class OutboxSender {
  readonly owner: string;
  readonly #outbox: Outbox;
  readonly #gateway: DebitGateway;
  readonly #lease: SenderLease;
  readonly #schedule: RetrySchedule;
  readonly #attempts: DebitAttempts;
  readonly #concurrency: number;
  readonly #idlePollMs: number;
  /** No retry time is further ahead than this: one that is was set before the clock went back. */
  readonly #horizonMs: number;
  readonly #logger: Logger;
  readonly #wakeup = new Wakeup();
  /** Card id → the attempt under way for it. */
  readonly #inFlight = new Map<string, Promise<void>>();
  /** The drains under way: each waits for a card's slot to end, as much as for an event. */
  readonly #drainWakeups = new Set<Wakeup>();

  #loop: Promise<void> | undefined;
  #stopping = false;
  #paused: { code: string; message: string } | null = null;
  #liftRequested = false;

  constructor(options: SenderOptions) {
    this.#outbox = options.outbox;
    this.#gateway = options.gateway;
    this.owner = options.owner ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
    const leaseTtlMs = options.leaseTtlMs ?? 60_000;
    this.#lease = new SenderLease(
      new Lease(options.outbox.db, {
        name: SENDER_LEASE,
        owner: this.owner,
        ttlMs: leaseTtlMs,
        now: () => this.#outbox.clock.now(),
        isHolderAlive: options.takeOverDeadHolders === false ? undefined : localHolderAlive,
      }),
      (held) =>
        this.#outbox.events.emit('change', { type: 'sender-lease', held, owner: this.owner }),
    );
    this.#concurrency = Math.max(1, Math.trunc(options.concurrency ?? 2));
    const retry: SenderRetrySettings = {
      backoff: { ...defaultSenderRetry.backoff, ...options.retry?.backoff },
      retryAfter: { ...defaultSenderRetry.retryAfter, ...options.retry?.retryAfter },
      budget: { ...defaultSenderRetry.budget, ...options.retry?.budget },
    };
    this.#schedule = new RetrySchedule(retry, options.random ?? Math.random, () =>
      this.#outbox.clock.now(),
    );
    this.#idlePollMs = options.idlePollMs ?? 1_000;
    this.#logger = options.logger ?? silentLogger;
    const inFlightGraceMs = options.inFlightGraceMs ?? 60_000;
    this.#horizonMs = Math.max(this.#schedule.longestWaitMs, inFlightGraceMs + 1_000);
    // A recheck time beyond the horizon would be taken for one set before the clock went back.
    const unknownRecheckMs = Math.max(
      1,
      Math.min(options.unknownRecheckMs ?? 10 * 60_000, this.#horizonMs - 1_000),
    );
    this.#attempts = new DebitAttempts({
      outbox: this.#outbox,
      gateway: options.gateway,
      lease: this.#lease,
      schedule: this.#schedule,
      reconcile: { ...defaultReconcileSettings, ...options.reconcile },
      inFlightGraceMs,
      logger: this.#logger,
      pause: (note, reason) => this.#pause(note, reason),
      freshServiceTimeMs: options.freshServiceTimeMs ?? 60_000,
      stopping: () => this.#stopping,
      stopGraceMs: leaseTtlMs,
      onAnswerQueued: (debit) => this.#chainAfter(debit),
      unknownRecheckMs,
    });
  }

  get status(): SenderStatus {
    const now = this.#outbox.clock.now();
    return {
      running: this.#loop !== undefined,
      holdsLease: this.#lease.held,
      paused: this.#paused,
      gateUntil: this.#schedule.closedUntil(now),
      inFlight: this.#inFlight.size,
      serviceClock: this.#gateway.serviceClock.status(),
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

  /**
   * Sends now what is due (staff's "send now", a person's "not applied, send again"). An enqueue
   * needs no call: its `accepted` event wakes the loop, once.
   */
  wake(): void {
    this.#wakeup.wake();
  }

  /**
   * The service answers again after an outage (a probe succeeded): the backoff gate opens and
   * every waiting row is due now, instead of at the end of a backoff of up to minutes.
   */
  liftBackoff(): void {
    this.#liftRequested = true;
    this.#wakeup.wake();
  }

  /**
   * An administrator fixed the credentials, the account's scopes or the integration profile:
   * pending bodies are rebuilt with the profile now in force (a changed body under a new key,
   * `Outbox.rebuildBodies`), then sending starts again.
   */
  resume(): void {
    if (!this.#paused) return;
    try {
      const { rebuilt, newKeys, withheld } = this.#outbox.rebuildBodies();
      if (rebuilt > 0) this.#logger.info('outbox.sender.bodies_rebuilt', { rebuilt, newKeys });
      if (withheld.length > 0) {
        // Their key may have reached the service: a new key could be a second debit.
        this.#logger.warn('outbox.sender.rebuild_withheld', { ids: withheld });
      }
    } catch (error) {
      // Not rebuilt, not sent wrong: the next refusal holds them again.
      this.#logger.error('outbox.sender.rebuild_failed', { error });
    }
    this.#paused = null;
    this.#outbox.events.emit('change', { type: 'sender-resumed' });
    this.#wakeup.wake();
  }

  /**
   * Runs the sender until the outbox is empty (`untilEmpty`), or until every row that is due has
   * been tried once, or the timeout, or a pause; then reports. Starts and stops the loop itself
   * when it was not running.
   */
  async drain(options: { untilEmpty?: boolean; timeoutMs: number }): Promise<DrainReport> {
    const clock = this.#outbox.clock;
    // On the monotonic clock: a step of the wall clock neither ends a drain nor stretches it.
    const started = monotonicNow(clock);
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
    const off = this.#outbox.events.on('change', (event) => {
      if (event.type === 'state-changed') {
        if (event.to === 'sending') counts.attempts += 1;
        else if (event.to === 'applied') counts.applied += 1;
        else if (event.to === 'refused') counts.refused += 1;
        else if (event.to === 'failed') counts.failed += 1;
        else if (event.to === 'expired') counts.expired += 1;
        else if (event.to === 'pending' && event.from === 'sending') counts.retriesScheduled += 1;
        // Two a debit: while a slot is busy its end wakes the drain anyway, and each wake costs
        // a timer and an abort.
        if (this.#inFlight.size > 0) return;
      }
      wakeup.wake();
    });
    // A card's slot ends after its last event: without this wake the drain would see its end
    // only at its next poll, long after the last answer.
    this.#drainWakeups.add(wakeup);
    const ownLoop = this.#loop === undefined;
    this.start();
    let result: DrainResult;
    try {
      for (;;) {
        const now = clock.now();
        const elapsed = monotonicNow(clock);
        if (this.#lease.checked && !this.#lease.held) {
          result = 'lease-held';
          break;
        }
        if (this.#paused) {
          result = 'paused';
          break;
        }
        if (this.#lease.checked && this.#inFlight.size === 0) {
          const summary = this.#outbox.store.summary();
          if (summary.openCount === 0) {
            result = 'empty';
            break;
          }
          if (summary.outcomeUnknownCount > 0 && this.#outbox.store.everyHeadHeld()) {
            result = 'held';
            break;
          }
          if (!options.untilEmpty && this.#nothingDue(now)) {
            result = 'idle';
            break;
          }
        }
        if (elapsed >= deadline) {
          result = 'timeout';
          break;
        }
        await wakeup.sleep(clock, Math.min(50, deadline - elapsed));
      }
    } finally {
      off();
      this.#drainWakeups.delete(wakeup);
      if (ownLoop) await this.stop();
    }
    return {
      result,
      elapsedMs: Math.round(monotonicNow(clock) - started),
      ...counts,
      leaseOwner: this.#lease.holder()?.owner ?? null,
      summary: this.#outbox.summary(),
      serviceClock: this.#gateway.serviceClock.status(),
    };
  }

  #nothingDue(now: number): boolean {
    if (this.#schedule.closedUntil(now) !== null) return true;
    return this.#outbox.store.dueHeadRefs(now, 1, this.#horizonMs).length === 0;
  }

  async #run(): Promise<void> {
    const off = this.#outbox.events.on('change', (event) => {
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
      try {
        this.#lease.release();
      } catch (error) {
        this.#logger.warn('outbox.sender.release_failed', { error });
      }
    }
  }

  /** One pass: lease, expiry, and launching due heads. Returns how long to sleep. */
  #tick(): number {
    const clock = this.#outbox.clock;
    let now = clock.now();
    if (!this.#lease.held) {
      if (!this.#lease.take(now)) return Math.min(this.#lease.renewEveryMs, this.#idlePollMs);
      this.#attempts.recoverInterrupted(now);
    } else if (!this.#lease.renewIfDue(now)) {
      return 0;
    }
    if (this.#paused) return this.#lease.renewEveryMs;

    if (this.#liftRequested) {
      this.#schedule.lift();
      const due = this.#outbox.db.transaction(() => this.#outbox.store.makePendingDue(now));
      this.#liftRequested = false;
      this.#logger.info('outbox.sender.backoff_lifted', { waiting: due });
    }
    this.#attempts.expireNeverAttempted();
    if (this.#attempts.wantsServiceTime()) {
      // The wall clock says a row may be past the maximum age: only the service can tell.
      void this.#attempts.serviceNow(true).then(
        () => this.#wakeup.wake(),
        (error: unknown) => this.#logger.warn('outbox.sender.service_time_failed', { error }),
      );
    }
    now = clock.now();
    const gateUntil = this.#schedule.closedUntil(now);
    if (gateUntil !== null) return Math.min(gateUntil - now, this.#lease.renewEveryMs);

    const free = this.#concurrency - this.#inFlight.size;
    if (free > 0) {
      const heads = this.#outbox.store.dueHeadRefs(
        now,
        this.#concurrency + this.#inFlight.size,
        this.#horizonMs,
      );
      let launched = 0;
      for (const ref of heads) {
        if (launched >= free) break;
        if (ref.state !== 'pending' || this.#inFlight.has(ref.giftCardId)) continue;
        const head = this.#outbox.store.get(ref.id);
        if (head?.state !== 'pending') continue;
        launched += 1;
        this.#launch(head, false);
      }
    }
    // An attempt that finishes wakes the loop; otherwise sleep until the next row is due.
    if (this.#inFlight.size > 0) return this.#lease.renewEveryMs;
    const nextDue = this.#outbox.store.nextDueAt(clock.now(), this.#horizonMs);
    const cap = Math.min(this.#idlePollMs, this.#lease.renewEveryMs);
    return nextDue === undefined ? cap : Math.max(0, Math.min(nextDue - clock.now(), cap));
  }

  /** Card's slot: the attempt, after the one it may follow in the same commit (`#chainAfter`). */
  #launch(head: OutboxDebit, chained: boolean): void {
    const card = head.giftCardId;
    const previous = this.#inFlight.get(card);
    const attempt = this.#attempts
      .process(head, { chained })
      .catch((error: unknown) => this.#logger.error('outbox.sender.attempt_crashed', { error }));
    const work: Promise<void> = (
      previous ? Promise.all([previous, attempt]).then(() => undefined) : attempt
    ).finally(() => {
      // A successor chained in holds the card's slot now, and wakes the loop when it ends.
      if (this.#inFlight.get(card) !== work) return;
      this.#inFlight.delete(card);
      this.#wakeup.wake();
      for (const drain of this.#drainWakeups) drain.wake();
    });
    this.#inFlight.set(card, work);
  }

  /**
   * A card's answer waits in the group commit: its next debit, if due, is launched now, so that
   * its `sending` mark goes into that same commit after the answer (one commit a debit instead
   * of two; the mark holds only if the answer made it the card's head). Not while another card
   * waits for a slot: a card with a long queue must not keep the others waiting.
   */
  #chainAfter(settled: OutboxDebit): void {
    if (this.#stopping || this.#paused || !this.#lease.held) return;
    const card = settled.giftCardId;
    if (!this.#inFlight.has(card)) return;
    const now = this.#outbox.clock.now();
    if (this.#schedule.closedUntil(now) !== null) return;
    const busy = [...this.#inFlight.keys()];
    if (this.#outbox.store.hasDueHeadBesides(busy, now, this.#horizonMs)) return;
    const next = this.#outbox.store.nextOpenAfter(card, settled.id);
    if (next?.state !== 'pending') return;
    const due = next.nextAttemptAt <= now || next.nextAttemptAt > now + this.#horizonMs;
    if (due) this.#launch(next, true);
  }

  #pause(note: FailureNote, reason: PauseReason = 'credentials-rejected'): void {
    if (this.#paused) return;
    this.#paused = { code: note.code, message: note.message };
    this.#logger.error('outbox.sender.paused', { code: note.code });
    this.#outbox.events.emit('change', {
      type: 'sender-paused',
      reason,
      needsAdministrator: true,
      code: note.code,
      message: note.message,
    });
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
