// Over 400 lines: the one door through which a debit is accepted; limits, request ids and card checks run in one transaction, and the wait's end decides a debit stored offline: they read best together.
import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { DebitAmount, DebitReference } from '../../shared/api/gift-cards.ts';
import { Id } from '../../shared/api/primitives.ts';
import { RecordId } from '../../shared/ipc/common.ts';
import { REQUEST_ID_REUSED } from '../../shared/ipc/errors.ts';
import {
  CallerDebitReference,
  DebitRequestId,
  debitStates,
  type HeldDebitCode,
  type DebitDelivery,
  type DebitPolicy,
  type DebitState,
  type OutboxSummary,
  ReportDate,
  StaffResolutionInput,
} from '../../shared/ipc/gift-cards.ts';
import {
  debitBodyRefusal,
  defaultProfile,
  type IntegrationProfile,
} from '../../shared/profile/index.ts';
import type { KioskDatabase } from '../storage/index.ts';
import { localDayBounds } from './day-bounds.ts';
import { InvalidDebit, OutboxError } from './errors.ts';
import { type Clock, systemClock, TypedEmitter } from '../foundation/index.ts';
import type { ConnectivityStatus, OutboxEvents } from './events.ts';
import {
  findBreach,
  type LimitBreach,
  limitBreachText,
  OfflineLimitExceeded,
  resolveLimits,
  type OfflineLimits,
} from './limits.ts';
import { CardCache, type CachedCard, cardValuesOf, cardValuesOfView } from './card-cache.ts';
import { findOfflineCardRefusal, OfflineCardRefused } from './offline-card-check.ts';
import { type DebitKey, heldReasonOf, isSettled, type OutboxDebit } from './debit.ts';
import { requestBodyOf } from './request-body.ts';
import { type OpenTotals, OutboxStore } from './store.ts';
import { Wakeup } from './wakeup.ts';

/**
 * The outbox as the kiosk sees it: accept a debit (durably, before saying yes), watch it, cancel
 * it while that is still safe, and read a summary. Sending is the sender's job (`sender.ts`).
 */

export interface OutboxOptions {
  readonly db: KioskDatabase;
  readonly clock?: Clock;
  readonly limits?: Partial<OfflineLimits>;
  /** The connectivity monitor's current verdict; `unknown` when there is no monitor (kioskctl). */
  readonly connectivity?: () => ConnectivityStatus;
  /** The kiosk's shop, sent in every debit body when set (and the profile takes one). */
  readonly shopId?: string;
  /**
   * How the service's 'not shown' shapes are read and written (the debit body, the card's
   * values): a profile, or a getter read afresh at each use. Default: the sandbox's dialect.
   */
  readonly profile?: IntegrationProfile | (() => IntegrationProfile);
  /** UUID v4 source for idempotency keys; injectable so tests can be deterministic. */
  readonly newKey?: () => string;
  /** How often `waitForOutcome` re-reads the row, for a sender running in another process. */
  readonly pollIntervalMs?: number;
  readonly onListenerError?: (error: unknown) => void;
}

export interface EnqueueInput {
  readonly giftCardId: string;
  /** EUR, positive, at most two decimals. */
  readonly amount: number;
  /** The caller's own reference (a sale number...); the outbox appends a unique suffix. */
  readonly reference?: string;
  readonly policy?: DebitPolicy;
  /**
   * The caller's id of this logical debit (UUID v4), kept until it has seen an outcome: enqueued
   * again (its reply was lost), the debit already stored comes back instead of a second one.
   * Absent: a fresh one (a caller that will not retry).
   */
  readonly requestId?: string;
  /**
   * 0: the caller will not wait for the service's answer (kioskctl without `--wait`), so the
   * debit is stored offline from its commit and every offline limit is checked before it, as when
   * the kiosk is known offline. Otherwise the caller waits with `awaitAnswer`, which decides the
   * limits when the wait ends.
   */
  readonly waitMs?: number;
}

export interface EnqueueResult {
  /** Committed to the database before this was returned. */
  readonly debit: OutboxDebit;
  readonly connectivity: ConnectivityStatus;
  readonly delivery: DebitDelivery;
  /** A debit with this request id was already stored: it is returned as it is now, nothing new. */
  readonly replayed: boolean;
}

export interface Outcome {
  /** True when the debit reached a terminal state within the wait. */
  readonly settled: boolean;
  readonly debit: OutboxDebit;
}

/**
 * A debit over the offline limits whose answer did not come within the wait, and which may have
 * reached the service (or is being sent): it cannot be withdrawn, and it is not accepted either.
 * It stays in the outbox under its key until the service's answer; the caller asks again (the
 * same request id) to learn it.
 */
export class AnswerAwaited extends OutboxError {
  override readonly name = 'AnswerAwaited';
  readonly debit: OutboxDebit;
  readonly breach: LimitBreach;

  constructor(debit: OutboxDebit, breach: LimitBreach) {
    super(
      'OUTBOX_ANSWER_AWAITED',
      `debit ${debit.id} (${debit.amount.toFixed(2)} EUR) got no answer within the wait and ${limitBreachText(breach, null)}; it may already have reached the service, so it is kept under its key until the service answers: do not take this payment again, ask for this debit's outcome`,
    );
    this.debit = debit;
    this.breach = breach;
  }
}

/**
 * A debit over the offline limits whose answer did not come within the wait, and whose bytes may
 * have reached the service (or are on their way): it cannot be withdrawn, and it was not taken as
 * an offline debit. It is held as "outcome unknown" (OVER_OFFLINE_LIMIT) for a person: never sent
 * again by itself, never expired as "never applied"; a definitive answer to an attempt still
 * under way is recorded as such, and its card's usages, when they show it, settle it `applied`.
 */
export class OverLimitOutcomeUnknown extends OutboxError {
  override readonly name = 'OverLimitOutcomeUnknown';
  readonly debit: OutboxDebit;
  /** Null when the limits changed since it was held: it stays held all the same. */
  readonly breach: LimitBreach | null;

  constructor(debit: OutboxDebit, breach: LimitBreach | null) {
    super(
      'OUTBOX_OVER_LIMIT_OUTCOME_UNKNOWN',
      `debit ${debit.id} (${debit.amount.toFixed(2)} EUR) was not taken as an offline debit: ${breach ? limitBreachText(breach, null) : 'it is over the offline limits'}, and the service's answer did not come within the wait; it may already have reached the service, so it is held as "outcome unknown" for a person and never sent again by itself: do not take this payment again until its outcome is checked`,
    );
    this.debit = debit;
    this.breach = breach;
  }
}

/** What `rebuildBodies` did: how many rows, and which, under which key. */
export interface RebuildReport {
  readonly rebuilt: number;
  /** Rebuilt under a new key (the old one had been sent). */
  readonly newKeys: number;
  readonly debits: readonly RebuiltDebit[];
  /** Held under a key that may have reached the service: left under that key, not rebuilt. */
  readonly withheld: readonly number[];
}

export interface RebuiltDebit {
  readonly id: number;
  /** Why it could be rebuilt: held for its body or scope, or never sent. */
  readonly reason: HeldDebitCode | 'NEVER_SENT';
  readonly previousKey: string;
  /** The key it goes out under now: `previousKey` when that one was never sent. */
  readonly idempotencyKey: string;
}

/** How `#storedOfflineVerdict` found a debit whose answer is not in. */
type StoredOfflineVerdict =
  | { readonly kind: 'settled'; readonly debit: OutboxDebit }
  /** Within the limits (or decided at its commit): it may stay stored offline. */
  | { readonly kind: 'fits'; readonly debit: OutboxDebit }
  | { readonly kind: 'withdrawn'; readonly debit: OutboxDebit; readonly breach: LimitBreach }
  | { readonly kind: 'over'; readonly debit: OutboxDebit; readonly breach: LimitBreach }
  /** Over them, may have reached the service, the wait ended: held for a person. */
  | { readonly kind: 'held'; readonly debit: OutboxDebit; readonly breach: LimitBreach | null };

/** The suffix that makes every reference unique: the first 16 hex digits of the key. */
export const REFERENCE_SUFFIX_LENGTH = 17;
export const MAX_CALLER_REFERENCE_LENGTH = 64 - REFERENCE_SUFFIX_LENGTH;

/**
 * `0.1 + 0.2` is a valid amount of 0.30 EUR but would go on the wire as 0.30000000000000004:
 * an amount within float noise of whole cents is snapped to them; anything else is left as is
 * for the schema to refuse.
 */
function toCents(amount: number): number {
  if (typeof amount !== 'number' || !Number.isFinite(amount)) return amount;
  const cents = Math.round(amount * 100);
  return Math.abs(cents - amount * 100) < 1e-6 ? cents / 100 : amount;
}

const uuidV4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** One input field through its shared schema: the parsed value, or the outbox's own refusal. */
function checkField<T>(schema: z.ZodType<T>, value: unknown, path: string): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new InvalidDebit(parsed.error.issues.map((issue) => ({ path, message: issue.message })));
}

/** A request id as stored: a UUID v4 in lower case, however it was typed. */
function requestIdOf(requestId: string | undefined): string {
  if (requestId === undefined) return randomUUID();
  return checkField(DebitRequestId, requestId, 'requestId').toLowerCase();
}

function profileGetter(
  profile: IntegrationProfile | (() => IntegrationProfile),
): () => IntegrationProfile {
  return typeof profile === 'function' ? profile : () => profile;
}

/**
 * A reconciliation looks the debit up in the card's usages by reference, so the reference must be
 * ours alone: another row, another kiosk, or a till at the same shop may reuse the caller's
 * reference, but not 64 random bits of our key.
 */
export function referenceFor(idempotencyKey: string, callerReference?: string): string {
  const suffix = idempotencyKey.replaceAll('-', '').slice(0, 16);
  return `${callerReference ?? 'kiosk'}/${suffix}`;
}

export class Outbox {
  readonly store: OutboxStore;
  /** What the kiosk last read of each card: offline debits are checked against it. */
  readonly cards: CardCache;
  readonly events: OutboxEvents;
  readonly clock: Clock;
  #limits: OfflineLimits;
  readonly #connectivity: () => ConnectivityStatus;
  #shopId: string | undefined;
  #profile: () => IntegrationProfile;
  readonly #newKey: () => string;
  readonly #pollIntervalMs: number;

  constructor(options: OutboxOptions) {
    this.store = new OutboxStore(options.db);
    this.cards = new CardCache(options.db);
    this.events = new TypedEmitter(options.onListenerError);
    this.clock = options.clock ?? systemClock;
    this.#limits = resolveLimits(options.limits);
    this.#connectivity = options.connectivity ?? (() => 'unknown');
    this.#shopId = options.shopId;
    this.#profile = profileGetter(options.profile ?? defaultProfile);
    this.#newKey = options.newKey ?? randomUUID;
    this.#pollIntervalMs = options.pollIntervalMs ?? 200;
  }

  /** The limits in force; read afresh by every enqueue and by the sender's expiry. */
  get limits(): OfflineLimits {
    return this.#limits;
  }

  /**
   * Changes some limits (an administrator's setup): they apply from the next debit accepted and
   * the sender's next expiry check. Debits already accepted stay accepted. Throws (and changes
   * nothing) when a value is invalid.
   */
  setLimits(changes: Partial<OfflineLimits>): OfflineLimits {
    const given = Object.entries(changes).filter(([, value]) => value !== undefined);
    this.#limits = resolveLimits({ ...this.#limits, ...Object.fromEntries(given) });
    return this.#limits;
  }

  /** The integration profile in force: the next debit body and card read go through it. */
  get profile(): IntegrationProfile {
    return this.#profile();
  }

  /**
   * Switches the integration profile (an administrator fixed it): debits accepted from now on
   * are written with it, and held ones are rebuilt with it when the sender resumes
   * (`rebuildBodies`).
   */
  useProfile(profile: IntegrationProfile | (() => IntegrationProfile)): void {
    this.#profile = profileGetter(profile);
  }

  /** The kiosk's shop for debits accepted from now on (an administrator changed it). */
  setShopId(shopId: string | undefined): void {
    this.#shopId = shopId;
  }

  get db(): KioskDatabase {
    return this.store.db;
  }

  /**
   * Validates, checks the policy and the limits, commits one `pending` row, and only then
   * returns: a debit the caller was told about survives a crash one instruction later. The
   * limits are read in the same IMMEDIATE transaction as the insert, so two processes accepting
   * at once cannot both squeeze under a limit.
   *
   * One request id, one row: when a row already carries it, that debit is returned (whatever its
   * state, without the policy and limit checks it passed when accepted) if it is the same card,
   * amount and reference, and REQUEST_ID_REUSED is thrown otherwise. The kiosk's shop is not
   * compared: an administrator changing it does not make a retry another debit.
   */
  enqueue(input: EnqueueInput): EnqueueResult {
    const policy = input.policy ?? 'prefer_online';
    if (policy !== 'prefer_online' && policy !== 'require_online') {
      throw new InvalidDebit([
        { path: 'policy', message: 'must be prefer_online or require_online' },
      ]);
    }
    // The rules of the IPC message, so kioskctl and every other caller get the same verdict.
    const giftCardId = checkField(RecordId, input.giftCardId, 'giftCardId');
    const reference =
      input.reference === undefined
        ? undefined
        : checkField(CallerDebitReference, input.reference, 'reference');

    const requestId = requestIdOf(input.requestId);
    if (
      input.waitMs !== undefined &&
      (typeof input.waitMs !== 'number' || !Number.isFinite(input.waitMs) || input.waitMs < 0)
    ) {
      throw new InvalidDebit([{ path: 'waitMs', message: 'must be a number of ms >= 0' }]);
    }

    // A profile that has not decided the debit body is never used for money (reads still work).
    const refusal = debitBodyRefusal(this.profile);
    if (refusal !== null) throw new InvalidDebit([{ path: 'profile', message: refusal }]);
    const idempotencyKey = this.#mintKey();
    const amount = checkField(DebitAmount, toCents(input.amount), 'amount');
    const shopId = this.#shopId === undefined ? null : checkField(Id, this.#shopId, 'shopId');
    const amountCents = Math.round(amount * 100);
    const callerReference = reference ?? 'kiosk';
    const ownReference = checkField(
      DebitReference,
      referenceFor(idempotencyKey, reference),
      'reference',
    );
    // The exact bytes sent on every attempt, in the shape the integration profile gives.
    const requestBody = requestBodyOf(this.profile, {
      amount,
      currency: 'EUR',
      reference: ownReference,
      shopId,
    });
    // The row of an earlier enqueue of this request, if it is this same debit (its reference
    // carries its own key's suffix: only the caller's part is compared).
    const sameDebit = (existing: OutboxDebit): OutboxDebit => {
      if (
        existing.giftCardId !== giftCardId ||
        existing.amountCents !== amountCents ||
        existing.reference.slice(0, -REFERENCE_SUFFIX_LENGTH) !== callerReference
      ) {
        throw new OutboxError(
          REQUEST_ID_REUSED,
          `request id ${requestId} is debit ${existing.id} (${existing.amount.toFixed(2)} EUR on another card, amount or reference); nothing was stored`,
        );
      }
      return existing;
    };

    const connectivity = this.#connectivity();
    // Sent at once with a caller waiting for the answer: the offline per-debit cap is decided
    // when that wait ends (`awaitAnswer`). Otherwise the debit is stored offline from its commit.
    const online = connectivity === 'online' && input.waitMs !== 0;

    const { debit, replayed } = this.db.transaction(() => {
      const existing = this.store.findByRequestId(requestId);
      if (existing) return { debit: sameDebit(existing), replayed: true };
      if (policy === 'require_online' && connectivity === 'offline') {
        throw new OutboxError(
          'OUTBOX_OFFLINE',
          'this debit requires the service and the kiosk is offline; nothing was stored',
        );
      }
      const breach = findBreach({
        limits: this.limits,
        amountCents,
        online,
        overall: this.store.openTotals(),
        card: this.store.openTotals(giftCardId),
      });
      if (breach) throw new OfflineLimitExceeded(breach);
      // On every debit, whatever the connectivity says: the link may have dropped seconds ago
      // without the kiosk knowing, and then the service refuses a debit the card cannot cover
      // only after the customer left. The pending amounts are read here, in this transaction,
      // so every process's open debits on the card count.
      const card = this.cards.get(giftCardId);
      const refusal = findOfflineCardRefusal({
        profile: this.profile,
        card,
        amountCents,
        pendingCents: card ? this.cards.unreflectedCents(giftCardId, card.readAt) : 0,
        unknownCard: this.limits.unknownCardOffline ?? 'refuse',
      });
      if (refusal) throw new OfflineCardRefused(refusal);
      const inserted = this.store.insert({
        idempotencyKey,
        giftCardId,
        requestBody,
        shopId,
        amountCents,
        reference: ownReference,
        policy,
        acceptedOffline: !online,
        createdAt: this.clock.now(),
        requestId,
      });
      if (inserted) return { debit: inserted, replayed: false };
      // The unique index has the last word: another connection stored this request first.
      return { debit: sameDebit(this.store.findByRequestId(requestId)!), replayed: true };
    });
    if (!replayed) this.events.emit('change', { type: 'accepted', debit, connectivity });
    return {
      debit,
      connectivity,
      delivery: connectivity === 'offline' ? 'stored-offline' : 'send-now',
      replayed,
    };
  }

  /**
   * Keeps what was just read of a card, as the service returned it, read through the profile
   * (no personal data is stored); false if it has no id.
   */
  recordCard(card: unknown): boolean {
    return this.cards.record(cardValuesOf(this.profile, card), this.clock.now());
  }

  /** Keeps a card's values already read through the profile (a customer's credit, say). */
  recordCardValues(values: Parameters<typeof cardValuesOfView>[0]): boolean {
    return this.cards.record(cardValuesOfView(values), this.clock.now());
  }

  /**
   * Rebuilds, with the profile now in force, the body of the pending debits held for their shape
   * or the account's scopes (a 400 or 403: the service said it did not process them), so they go
   * out right once an administrator fixed the profile and resumed; and the body of those never
   * attempted, under their unsent key. Never a debit waiting for a retry: the service may hold its
   * key with its bytes, and the same debit under another key could be applied twice. Same bytes:
   * nothing changes. Whether a key went out is the recorded fact, never a comparison of times
   * (`OutboxStore.rebuildBody`): a body that changes under a key already sent gets a new key (the
   * old key with another body is a 409), the old one kept in the row's key history; the reference
   * stays, so the card's usages find the debit whichever key applied it. A debit whose key may
   * have reached the service without positive evidence either way is `withheld`: a new key could
   * be a second debit, so it goes on under its own key (or waits for a person).
   */
  rebuildBodies(): RebuildReport {
    const debits: RebuiltDebit[] = [];
    const withheld: number[] = [];
    const profile = this.profile;
    const refusal = debitBodyRefusal(profile);
    if (refusal !== null) throw new InvalidDebit([{ path: 'profile', message: refusal }]);
    for (const debit of this.store.list({ state: 'pending' })) {
      const held = heldReasonOf(debit);
      const requestBody = requestBodyOf(profile, {
        amount: debit.amountCents / 100,
        currency: 'EUR',
        reference: debit.reference,
        shopId: debit.shopId,
      });
      if (requestBody === debit.requestBody) continue;
      // Waiting for a retry: its key may be with the service, with these bytes. Left as it is.
      if (held === null && debit.attempts > 0) {
        withheld.push(debit.id);
        continue;
      }
      const changed = this.db.transaction(() => {
        const current = this.store.get(debit.id);
        if (current?.state !== 'pending' || current.idempotencyKey !== debit.idempotencyKey) {
          return false;
        }
        // Moved meanwhile from "held" or "never attempted" to "waiting for a retry".
        if (heldReasonOf(current) === null && current.attempts > 0) return false;
        return this.store.rebuildBody(
          current.id,
          current,
          requestBody,
          () => this.#mintKey(),
          this.clock.now(),
        );
      });
      if (changed === 'withheld') withheld.push(debit.id);
      if (changed !== 'rebuilt' && changed !== 'new-key') continue;
      debits.push({
        id: debit.id,
        reason: held?.code ?? 'NEVER_SENT',
        previousKey: debit.idempotencyKey,
        idempotencyKey: this.store.get(debit.id)?.idempotencyKey ?? debit.idempotencyKey,
      });
    }
    return {
      rebuilt: debits.length,
      newKeys: debits.filter((debit) => debit.idempotencyKey !== debit.previousKey).length,
      debits,
      withheld,
    };
  }

  /** Every key this debit was sent under, oldest first, its current one last. */
  keyHistory(id: number): DebitKey[] {
    return this.store.keyHistory(id);
  }

  #mintKey(): string {
    const key = this.#newKey();
    if (!uuidV4.test(key)) {
      throw new Error(`the key source returned ${key}, not a lower-case UUID v4`);
    }
    return key;
  }

  /** What the kiosk last read of this card, if it ever did. */
  knownCard(giftCardId: string): CachedCard | undefined {
    return this.cards.get(giftCardId);
  }

  /** The cards this kiosk read last, newest first: masked numbers only. */
  recentCards(limit: number): ReturnType<CardCache['recent']> {
    return this.cards.recent(limit);
  }

  /** The debit stored under this request id, if any (a caller checking after a lost reply). */
  findByRequestId(requestId: string): OutboxDebit | undefined {
    return this.store.findByRequestId(requestId.toLowerCase());
  }

  find(id: number): OutboxDebit | undefined {
    return this.store.get(id);
  }

  get(id: number): OutboxDebit {
    const debit = this.store.get(id);
    if (!debit) throw new OutboxError('OUTBOX_NOT_FOUND', `no debit with id ${id}`);
    return debit;
  }

  list(filter: { state?: DebitState; afterId?: number; limit?: number } = {}): OutboxDebit[] {
    if (filter.state !== undefined && !debitStates.includes(filter.state)) {
      throw new InvalidDebit([
        { path: 'state', message: `must be one of ${debitStates.join(', ')}` },
      ]);
    }
    return this.store.list(filter);
  }

  /** The latest `limit` debits in any state, newest first. */
  recent(limit: number): OutboxDebit[] {
    return this.store.recent(limit);
  }

  summary(): OutboxSummary {
    const summary = this.store.summary();
    const { refused, failed, expired } = summary.attention;
    return {
      openCount: summary.openCount,
      openAmount: summary.openAmountCents / 100,
      oldestOpenAgeMs:
        summary.oldestOpenAt === null ? null : Math.max(0, this.clock.now() - summary.oldestOpenAt),
      sendingCount: summary.sendingCount,
      outcomeUnknown: summary.outcomeUnknownCount,
      attention: { refused, failed, expired, total: refused + failed + expired },
    };
  }

  /**
   * Staff may withdraw a debit only while the service cannot have seen it: never attempted.
   * Once an attempt started, only the service's answer (or a reconciliation) settles it.
   */
  cancel(id: number): OutboxDebit {
    const transition = this.db.transaction(() => this.store.cancel(id, this.clock.now()));
    if (!transition) {
      const debit = this.get(id);
      throw new OutboxError(
        'OUTBOX_NOT_CANCELLABLE',
        debit.attempts > 0
          ? `debit ${id} was already sent ${debit.attempts} time(s) (state ${debit.state}); only the service's answer can settle it`
          : `debit ${id} is ${debit.state}`,
      );
    }
    this.events.emit('change', {
      type: 'state-changed',
      debit: transition.debit,
      from: transition.from,
      to: 'cancelled',
      reason: 'CANCELLED_BY_STAFF',
    });
    return transition.debit;
  }

  /** Staff saw a refused, failed or expired debit: it no longer needs attention. */
  acknowledge(id: number): OutboxDebit {
    const debit = this.db.transaction(() => this.store.acknowledge(id, this.clock.now()));
    if (!debit) {
      const current = this.get(id);
      throw new OutboxError(
        'OUTBOX_INVALID_STATE',
        `debit ${id} is ${current.state}; nothing to acknowledge`,
      );
    }
    return debit;
  }

  /**
   * Staff record what they did about a debit refused, failed or expired after the customer left:
   * it leaves the alert, and the end-of-day report shows it. The first record stands; the same
   * record again (a retry after a lost reply) returns the debit unchanged.
   */
  resolve(id: number, resolution: StaffResolutionInput): OutboxDebit {
    const parsed = StaffResolutionInput.safeParse(resolution);
    if (!parsed.success) {
      throw new InvalidDebit(
        parsed.error.issues.map((issue) => ({
          path: ['resolution', ...issue.path].join('.'),
          message: issue.message,
        })),
      );
    }
    const wanted = parsed.data;
    const resolved = this.db.transaction(() => this.store.resolve(id, wanted, this.clock.now()));
    if (resolved) return resolved;
    const current = this.get(id);
    const recorded = current.staffResolution;
    const method = wanted.kind === 'collected_other_way' ? wanted.method : null;
    if (recorded && recorded.kind === wanted.kind && recorded.method === method) return current;
    throw new OutboxError(
      'OUTBOX_INVALID_STATE',
      recorded
        ? `debit ${id} was already resolved (${recorded.kind}${recorded.method ? `, ${recorded.method}` : ''})`
        : `debit ${id} is ${current.state}; only a refused, failed or expired debit is resolved`,
    );
  }

  /**
   * The debits that need attention: refused, failed or expired and not yet resolved (nor, before
   * resolutions existed, acknowledged) by staff, oldest first, at most `limit`. The alert, the
   * outbox list, the health report and the summary's `attention` count all read this one set.
   */
  attention(limit = 200): OutboxDebit[] {
    return this.store.attention(limit);
  }

  /** Every debit accepted on a local calendar day (`YYYY-MM-DD`, the kiosk's time zone). */
  acceptedOn(date: string): OutboxDebit[] {
    if (!ReportDate.safeParse(date).success) {
      throw new InvalidDebit([{ path: 'date', message: `expects YYYY-MM-DD, got "${date}"` }]);
    }
    const { from, to } = localDayBounds(date);
    return this.store.createdBetween(from, to);
  }

  /**
   * Waits at most `timeoutMs` for a terminal state. Woken by this process's events, and re-reads
   * the row every `pollIntervalMs` for a sender in another process (the kiosk app while kioskctl
   * waits). A timeout is not an error: the debit stays accepted, and `settled` says so.
   */
  async waitForOutcome(id: number, timeoutMs: number): Promise<Outcome> {
    const deadline = this.clock.now() + Math.max(0, timeoutMs);
    const wakeup = new Wakeup();
    const off = this.events.on('change', (event) => {
      if ('debit' in event && event.debit.id === id && isSettled(event.debit.state)) wakeup.wake();
    });
    try {
      for (;;) {
        const debit = this.get(id);
        if (isSettled(debit.state)) return { settled: true, debit };
        const remaining = deadline - this.clock.now();
        if (remaining <= 0) return { settled: false, debit };
        await wakeup.sleep(this.clock, Math.min(this.#pollIntervalMs, remaining));
      }
    } finally {
      off();
    }
  }

  /**
   * Waits at most `timeoutMs` for the service's definitive answer, as `waitForOutcome` does, and
   * decides what the debit is when none came: the moment it becomes "stored offline". Every
   * caller that shows a debit as accepted after a wait (the screen, `kioskctl outbox enqueue
   * --wait`) goes through here.
   *
   * A debit accepted while the kiosk looked online passed the card checks, the pending totals and
   * count before its commit, but not the offline per-debit cap: answered online it need not. That
   * rule meets "a debit is accepted only once committed, durable before sending" here, and this
   * is how both hold:
   * - the row is committed before any byte is sent, as always (a crash a moment later loses
   *   nothing), and it is not presented as accepted until its answer comes or this decides;
   * - when an attempt ends without an answer (the row waits for a retry) or the wait ends, a debit
   *   that breaks an offline limit is withdrawn (`cancelled`, OUTBOX_LIMIT_EXCEEDED: thrown as
   *   OfflineLimitExceeded) if no request of it may have reached the service: every attempt
   *   failed before its first byte went out (connection refused, connect timeout) and none is
   *   under way. The compare-and-set on `pending` keeps the sender from starting one meanwhile;
   * - a row that may have reached the service is never withdrawn: the service may have taken the
   *   money, and only its answer (or a reconciliation) settles the row. It stays under its key and
   *   AnswerAwaited is thrown: not accepted, not refused; ask again with the same request id;
   * - a debit within the limits whose wait ended becomes `acceptedOffline`: stored offline, shown
   *   as such, its limits decided once (a later change of limits does not withdraw it).
   * A debit accepted offline, or for a caller that does not wait, was decided at its commit. One
   * already settled is returned as is, but a row withdrawn earlier throws that refusal again.
   */
  async awaitAnswer(id: number, timeoutMs: number): Promise<Outcome> {
    const deadline = this.clock.now() + Math.max(0, timeoutMs);
    const wakeup = new Wakeup();
    const off = this.events.on('change', (event) => {
      if ('debit' in event && event.debit.id === id) wakeup.wake();
    });
    // The attempt count the last decision during the wait was taken at: decided once per attempt.
    let decidedAt = 0;
    try {
      for (;;) {
        const debit = this.get(id);
        if (isSettled(debit.state)) return answered(debit);
        // Held already (asked again with the same request id): that same answer, at once.
        const ended = this.clock.now() >= deadline || isHeldOverLimit(debit);
        // An attempt ended without a definitive answer: the row waits for a retry.
        const unanswered =
          debit.state === 'pending' && debit.attempts > decidedAt && !debit.acceptedOffline;
        if (ended || unanswered) {
          decidedAt = debit.attempts;
          const verdict = this.#storedOfflineVerdict(id, ended);
          if (verdict.kind === 'settled') return answered(verdict.debit);
          if (verdict.kind === 'withdrawn') {
            throw new OfflineLimitExceeded(verdict.breach, verdict.debit.id);
          }
          if (verdict.kind === 'held') {
            throw new OverLimitOutcomeUnknown(verdict.debit, verdict.breach);
          }
          if (ended) {
            if (verdict.kind === 'over') throw new AnswerAwaited(verdict.debit, verdict.breach);
            return { settled: false, debit: verdict.debit };
          }
        }
        const remaining = deadline - this.clock.now();
        await wakeup.sleep(this.clock, Math.max(0, Math.min(this.#pollIntervalMs, remaining)));
      }
    } finally {
      off();
    }
  }

  /**
   * A debit without its answer against the offline limits, as if it were being accepted offline
   * now (the other open debits as they are, this one's amount added once). `ended`: the wait is
   * over, and a debit within them is from now on accepted offline.
   */
  #storedOfflineVerdict(id: number, ended: boolean): StoredOfflineVerdict {
    const now = this.clock.now();
    const verdict = this.db.transaction((): StoredOfflineVerdict => {
      const debit = this.get(id);
      if (isSettled(debit.state)) return { kind: 'settled', debit };
      if (debit.acceptedOffline) return { kind: 'fits', debit };
      const heldBefore = isHeldOverLimit(debit);
      const others = (totals: OpenTotals): OpenTotals => ({
        count: totals.count - 1,
        amountCents: totals.amountCents - debit.amountCents,
      });
      const breach = findBreach({
        limits: this.limits,
        amountCents: debit.amountCents,
        online: false,
        overall: others(this.store.openTotals()),
        card: others(this.store.openTotals(debit.giftCardId)),
      });
      // Held already: it stays held whatever the limits are now (staff were told).
      if (heldBefore) return { kind: 'held', debit, breach: breach ?? null };
      if (!breach) {
        return {
          kind: 'fits',
          debit: (ended ? this.store.markStoredOffline(id, now) : undefined) ?? debit,
        };
      }
      const withdrawn = this.store.withdraw(id, now, {
        code: 'OUTBOX_LIMIT_EXCEEDED',
        message: limitBreachText(breach, id),
      });
      if (withdrawn) return { kind: 'withdrawn', debit: withdrawn.debit, breach };
      if (!ended) return { kind: 'over', debit, breach };
      // It may have reached the service (or is on its way) and the wait is over: not taken as an
      // offline debit, so never sent again by itself; a person decides. Mid-send, the attempt
      // keeps going: its definitive answer is recorded as such, none holds the row.
      const held = this.store.holdOverLimit(id, now, {
        code: 'DEBIT_OUTCOME_UNKNOWN',
        message: `${limitBreachText(breach, null)}: not taken as an offline debit; it may have reached the service, so it is held for a person and not sent again`,
      });
      return held ? { kind: 'held', debit: held, breach } : { kind: 'over', debit, breach };
    });
    if (verdict.kind === 'held' && verdict.debit.state === 'pending') {
      this.events.emit('change', {
        type: 'held',
        debit: verdict.debit,
        code: 'DEBIT_OUTCOME_UNKNOWN',
        message: verdict.debit.lastErrorMessage ?? 'over the offline limits, outcome unknown',
      });
    }
    if (verdict.kind === 'withdrawn') {
      this.events.emit('change', {
        type: 'state-changed',
        debit: verdict.debit,
        from: 'pending',
        to: 'cancelled',
        reason: 'OUTBOX_LIMIT_EXCEEDED',
      });
    }
    return verdict;
  }
}

/** A settled debit as `awaitAnswer` gives it: one the outbox withdrew is that refusal again. */
function answered(debit: OutboxDebit): Outcome {
  if (isWithdrawn(debit)) {
    throw new OutboxError(
      'OUTBOX_LIMIT_EXCEEDED',
      debit.lastErrorMessage ?? `debit ${debit.id} was withdrawn`,
    );
  }
  return { settled: true, debit };
}

/** Held by `awaitAnswer` (or to be, once its attempt ends without an answer): for a person. */
export function isHeldOverLimit(debit: OutboxDebit): boolean {
  return !isSettled(debit.state) && debit.outcomeUnknown?.reason === 'OVER_OFFLINE_LIMIT';
}

/** Withdrawn by `awaitAnswer`: over an offline limit, and nothing of it reached the service. */
export function isWithdrawn(debit: OutboxDebit): boolean {
  return debit.state === 'cancelled' && debit.lastErrorCode === 'OUTBOX_LIMIT_EXCEEDED';
}
