// Over 400 lines: every SQL statement over the outbox's tables in one place, so the rows' invariants are read together.
import type { StatementSync } from 'node:sqlite';
import {
  type CollectionMethod,
  type DebitPolicy,
  DebitReply,
  type DebitSettledBy,
  type DebitState,
  type OutcomeUnknownReason,
  type StaffResolutionInput,
} from '../../shared/ipc/gift-cards.ts';
import { defaultProfile, resolveRecord, type RecordViewOf } from '../../shared/profile/index.ts';
import type { KioskDatabase } from '../storage/index.ts';
import type {
  DebitKey,
  FailureNote,
  NotAppliedEvidence,
  OutboxDebit,
  Transition,
} from './debit.ts';
import { ArchivedDebits } from './archive.ts';
import { OPEN, ATTENTION_STATES } from './state-sql.ts';
import type { DebitServiceTimes } from './service-times.ts';

/**
 * The outbox rows and every write made to them. Each transition is a compare-and-set on the
 * state (and the attempt number where it matters): a sender that lost its lease, a `kioskctl`
 * cancel racing the kiosk app, or a late reply to an attempt already superseded changes nothing.
 */

interface DebitRow {
  id: number;
  idempotency_key: string;
  gift_card_id: string;
  request_body: string;
  amount_cents: number;
  reference: string;
  policy: DebitPolicy;
  accepted_offline: number;
  state: DebitState;
  attempts: number;
  created_at: number;
  updated_at: number;
  first_attempt_at: number | null;
  last_attempt_at: number | null;
  may_have_reached_at: number | null;
  next_attempt_at: number;
  last_error_code: string | null;
  last_error_message: string | null;
  reply: string | null;
  new_balance: number | null;
  settled_at: number | null;
  settled_by: DebitSettledBy | null;
  acknowledged_at: number | null;
  request_id: string | null;
  staff_resolution: StaffResolutionInput['kind'] | null;
  staff_resolution_method: CollectionMethod | null;
  staff_resolved_at: number | null;
  shop_id: string | null;
  older_key_reached: number;
  key_sent_at: number | null;
  key_sent_digest: string | null;
  not_applied_evidence: NotAppliedEvidence | null;
  not_applied_at: number | null;
  outcome_unknown_since: number | null;
  outcome_unknown_code: OutcomeUnknownReason | null;
  balance_before_cents: number | null;
  balance_before_at: number | null;
  balance_now_cents: number | null;
  balance_now_at: number | null;
  staff_outcome: 'applied' | 'not_applied' | null;
  staff_outcome_by: string | null;
  staff_outcome_at: number | null;
}

function balanceOf(cents: number | null, at: number | null) {
  return cents === null || at === null ? null : { cents, at };
}

/**
 * A stored reply as the screens read it. Rows settled before the integration profile kept the
 * service's receipt or usage as it came, in the sandbox's default shapes: read through the
 * default profile.
 */
function replyOf(text: string): DebitReply {
  const stored = JSON.parse(text) as unknown;
  const parsed = DebitReply.safeParse(stored);
  if (parsed.success) return parsed.data;
  const legacy = stored as { kind?: unknown; receipt?: unknown; usage?: unknown };
  return legacy.kind === 'usage'
    ? {
        kind: 'usage',
        usage: resolveRecord(
          defaultProfile,
          'giftCardUsage',
          legacy.usage,
        ) as RecordViewOf<'giftCardUsage'>,
      }
    : {
        kind: 'receipt',
        receipt: resolveRecord(
          defaultProfile,
          'debitReceipt',
          legacy.receipt,
        ) as RecordViewOf<'debitReceipt'>,
      };
}

function toDebit(row: DebitRow): OutboxDebit {
  return {
    id: row.id,
    idempotencyKey: row.idempotency_key,
    giftCardId: row.gift_card_id,
    requestBody: row.request_body,
    shopId: row.shop_id,
    olderKeyMayHaveReached: row.older_key_reached === 1,
    amount: row.amount_cents / 100,
    amountCents: row.amount_cents,
    reference: row.reference,
    policy: row.policy,
    acceptedOffline: row.accepted_offline === 1,
    state: row.state,
    attempts: row.attempts,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    firstAttemptAt: row.first_attempt_at,
    lastAttemptAt: row.last_attempt_at,
    mayHaveReachedAt: row.may_have_reached_at,
    nextAttemptAt: row.next_attempt_at,
    lastErrorCode: row.last_error_code,
    lastErrorMessage: row.last_error_message,
    reply: row.reply === null ? null : replyOf(row.reply),
    newBalance: row.new_balance,
    settledAt: row.settled_at,
    settledBy: row.settled_by,
    acknowledgedAt: row.acknowledged_at,
    requestId: row.request_id,
    staffResolution:
      row.staff_resolution === null
        ? null
        : {
            kind: row.staff_resolution,
            method: row.staff_resolution_method,
            at: row.staff_resolved_at ?? row.updated_at,
          },
    keySentAt: row.key_sent_at,
    keySentDigest: row.key_sent_digest,
    notApplied:
      row.not_applied_evidence === null
        ? null
        : { evidence: row.not_applied_evidence, at: row.not_applied_at ?? row.updated_at },
    outcomeUnknown:
      row.outcome_unknown_since === null
        ? null
        : {
            since: row.outcome_unknown_since,
            reason: row.outcome_unknown_code ?? 'USAGES_UNVERIFIED',
          },
    balanceBefore: balanceOf(row.balance_before_cents, row.balance_before_at),
    balanceNow: balanceOf(row.balance_now_cents, row.balance_now_at),
    staffOutcome:
      row.staff_outcome === null
        ? null
        : {
            outcome: row.staff_outcome,
            by: row.staff_outcome_by ?? '',
            at: row.staff_outcome_at ?? row.updated_at,
          },
  };
}

/**
 * The SET clause that records that an attempt may have reached the service, written once: since
 * when (`may_have_reached_at`: the service's key-retention window counts from the attempt's
 * start, else `fallback`) and that start on the service's clock. The first mark stands. `when`,
 * an SQL condition, limits it to some of the rows the statement updates.
 */
function markMayHaveReached({ when = 'TRUE', fallback = 'NULL' } = {}): string {
  return `reached_service_at = CASE WHEN (${when}) AND may_have_reached_at IS NULL
                                THEN attempt_service_earliest ELSE reached_service_at END,
         may_have_reached_at = CASE WHEN (${when})
                                    THEN coalesce(may_have_reached_at, last_attempt_at, ${fallback})
                                    ELSE may_have_reached_at END`;
}

/**
 * The id of each card's head (its oldest open row), found card by card down the open rows'
 * index (a skip-scan): two index seeks a card, where a GROUP BY reads every open row, and a
 * kiosk back from a long outage has thousands. `ORDER BY ... LIMIT 1` rather than min(): with
 * the state condition, min() reads the whole range.
 */
const OPEN_CARDS = `WITH RECURSIVE cards(card) AS (
    SELECT (SELECT gift_card_id FROM outbox_debits INDEXED BY outbox_debits_open
            WHERE ${OPEN} ORDER BY gift_card_id LIMIT 1)
    UNION ALL
    SELECT (SELECT gift_card_id FROM outbox_debits INDEXED BY outbox_debits_open
            WHERE ${OPEN} AND gift_card_id > cards.card
            ORDER BY gift_card_id LIMIT 1)
    FROM cards WHERE cards.card IS NOT NULL
  )`;
const OPEN_HEADS = `${OPEN_CARDS}, heads(id) AS (
    SELECT (SELECT id FROM outbox_debits INDEXED BY outbox_debits_open
            WHERE ${OPEN} AND gift_card_id = cards.card
            ORDER BY gift_card_id, id LIMIT 1)
    FROM cards WHERE cards.card IS NOT NULL
  )`;

/** A card's head as the sender's pass sees it, before it reads the whole row. */
export interface HeadRef {
  readonly id: number;
  readonly giftCardId: string;
  readonly state: DebitState;
}

export interface NewDebit {
  readonly idempotencyKey: string;
  readonly giftCardId: string;
  readonly requestBody: string;
  /** The shop put in the body, kept apart so a rebuilt body carries the same one. */
  readonly shopId?: string | null;
  readonly amountCents: number;
  readonly reference: string;
  readonly policy: DebitPolicy;
  readonly acceptedOffline: boolean;
  readonly createdAt: number;
  /** The caller's id of this logical debit; at most one row carries it. */
  readonly requestId?: string;
}

export interface OpenTotals {
  readonly count: number;
  readonly amountCents: number;
}

export interface StoreSummary {
  readonly openCount: number;
  /** Open rows held for a person, their outcome unknown (counted in `openCount` too). */
  readonly outcomeUnknownCount: number;
  readonly openAmountCents: number;
  readonly oldestOpenAt: number | null;
  readonly sendingCount: number;
  readonly attention: Readonly<Record<'refused' | 'failed' | 'expired', number>>;
}

export class OutboxStore {
  readonly db: KioskDatabase;
  /** Settled rows past their retention (archive.ts): read where a settled row may be asked for. */
  readonly #archived: ArchivedDebits;
  readonly #statements = new Map<string, StatementSync>();
  /** Every open row up to this id carries its service time (`hasUndatedOpen`). */
  #datedThrough = 0;
  /** Other connections' commits (`PRAGMA data_version`) when no open row lacked its date. */
  #allDatedAt: number | undefined;
  /** `hasDueHeadBesides`'s last reading: for which busy cards, when, and the others' due time. */
  #othersDue:
    | {
        readonly busy: string;
        readonly version: number;
        readonly readAt: number;
        readonly at: number;
      }
    | undefined;
  /** `PRAGMA data_version` as read in this turn of the event loop (`#othersVersion`). */
  #versionThisTurn: number | undefined;
  /** The earliest service time of a never-attempted row, and when it was read. */
  #neverAttemptedFloor: { readonly version: number; readonly at: number } | undefined;

  constructor(db: KioskDatabase) {
    this.db = db;
    this.#archived = new ArchivedDebits(db);
  }

  /**
   * Moves whenever another connection (kioskctl) commits; this connection's own writes leave it
   * alone, so a fact read under one value holds until it moves or this store changes it.
   */
  #othersVersion(): number {
    // Read once per turn of the event loop (the sender asks up to three times a debit, and the
    // pragma costs as much as a row read): a commit by another process during the turn is seen
    // at the next one. Every fact kept under a version was read after it, so a version read a
    // little early only makes the fact be read again sooner.
    if (this.#versionThisTurn === undefined) {
      this.#versionThisTurn = (
        this.#sql('PRAGMA data_version').get() as { data_version: number }
      ).data_version;
      setImmediate(() => {
        this.#versionThisTurn = undefined;
      });
    }
    return this.#versionThisTurn;
  }

  #sql(text: string): StatementSync {
    let statement = this.#statements.get(text);
    if (!statement) {
      statement = this.db.connection.prepare(text);
      this.#statements.set(text, statement);
    }
    return statement;
  }

  /**
   * The new row, or undefined when a row already carries its request id: the unique index
   * decides, so of two processes inserting the same request only one row is ever written.
   */
  insert(debit: NewDebit): OutboxDebit | undefined {
    this.#allDatedAt = undefined;
    this.#othersDue = undefined;
    this.#neverAttemptedFloor = undefined;
    const row = this.#sql(
      `INSERT INTO outbox_debits (idempotency_key, gift_card_id, request_body, amount_cents, reference,
         policy, accepted_offline, state, attempts, created_at, updated_at, next_attempt_at, request_id,
         shop_id)
       VALUES (?, ?, ?, ?, ?, ?, ?, 'pending', 0, ?, ?, ?, ?, ?)
       ON CONFLICT (request_id) WHERE request_id IS NOT NULL DO NOTHING RETURNING *`,
    ).get(
      debit.idempotencyKey,
      debit.giftCardId,
      debit.requestBody,
      debit.amountCents,
      debit.reference,
      debit.policy,
      debit.acceptedOffline ? 1 : 0,
      debit.createdAt,
      debit.createdAt,
      debit.createdAt,
      debit.requestId ?? null,
      debit.shopId ?? null,
    ) as DebitRow | undefined;
    return row ? toDebit(row) : undefined;
  }

  findByRequestId(requestId: string): OutboxDebit | undefined {
    const row = (this.#sql(`SELECT * FROM outbox_debits WHERE request_id = ?`).get(requestId) ??
      this.#archived.byRequestId(requestId)) as DebitRow | undefined;
    return row ? toDebit(row) : undefined;
  }

  get(id: number): OutboxDebit | undefined {
    const row = (this.#sql(`SELECT * FROM outbox_debits WHERE id = ?`).get(id) ??
      this.#archived.get(id)) as DebitRow | undefined;
    return row ? toDebit(row) : undefined;
  }

  /** Live and archived rows together, by id (an open state reads no archive). */
  list(filter: { state?: DebitState; afterId?: number; limit?: number } = {}): OutboxDebit[] {
    const live = this.#sql(
      `SELECT * FROM outbox_debits WHERE (?1 IS NULL OR state = ?1) AND id > ?2 ORDER BY id LIMIT ?3`,
    ).all(filter.state ?? null, filter.afterId ?? 0, filter.limit ?? -1) as unknown as DebitRow[];
    const archived = this.#archived.list(filter) as unknown as DebitRow[];
    const rows =
      archived.length === 0
        ? live
        : [...live, ...archived].sort((a, b) => a.id - b.id).slice(0, filter.limit ?? undefined);
    return rows.map(toDebit);
  }

  /** The latest `limit` rows in any state, newest first. */
  recent(limit: number): OutboxDebit[] {
    const rows = this.#sql(`SELECT * FROM outbox_debits ORDER BY id DESC LIMIT ?`).all(
      limit,
    ) as unknown as DebitRow[];
    return rows.map(toDebit);
  }

  openTotals(giftCardId?: string): OpenTotals {
    const row = (
      giftCardId === undefined
        ? this.#sql(
            `SELECT count(*) AS count, coalesce(sum(amount_cents), 0) AS cents FROM outbox_debits
             WHERE ${OPEN}`,
          ).get()
        : this.#sql(
            `SELECT count(*) AS count, coalesce(sum(amount_cents), 0) AS cents FROM outbox_debits
             WHERE ${OPEN} AND gift_card_id = ?`,
          ).get(giftCardId)
    ) as { count: number; cents: number };
    return { count: row.count, amountCents: row.cents };
  }

  summary(): StoreSummary {
    const open = this.#sql(
      `SELECT count(*) AS count, coalesce(sum(amount_cents), 0) AS cents, min(created_at) AS oldest,
         coalesce(sum(state = 'sending'), 0) AS sending,
         coalesce(sum(outcome_unknown_since IS NOT NULL), 0) AS unknown
       FROM outbox_debits WHERE ${OPEN}`,
    ).get() as {
      count: number;
      cents: number;
      oldest: number | null;
      sending: number;
      unknown: number;
    };
    const attention = { refused: 0, failed: 0, expired: 0 };
    const rows = this.#sql(
      `SELECT state, count(*) AS count FROM outbox_debits
       WHERE ${ATTENTION_STATES} AND acknowledged_at IS NULL GROUP BY state`,
    ).all() as { state: 'refused' | 'failed' | 'expired'; count: number }[];
    for (const row of rows) attention[row.state] = row.count;
    return {
      openCount: open.count,
      outcomeUnknownCount: open.unknown,
      openAmountCents: open.cents,
      oldestOpenAt: open.oldest,
      sendingCount: open.sending,
      attention,
    };
  }

  /**
   * The head of each card's queue (its oldest open row), due by `now`, oldest due first.
   * Only heads are ever sent: a card's debits reach the service in the order they were accepted.
   * A retry time more than `horizonMs` ahead was set before the wall clock went back (no wait
   * is that long): it is due now, or a step back of two days would hold the card for two days.
   */
  dueHeads(now: number, limit: number, horizonMs = Number.MAX_SAFE_INTEGER): OutboxDebit[] {
    const rows = this.#sql(
      `${OPEN_HEADS} SELECT d.* FROM heads JOIN outbox_debits AS d ON d.id = heads.id
       WHERE d.next_attempt_at <= ?1 OR d.next_attempt_at > ?1 + ?2
       ORDER BY CASE WHEN d.next_attempt_at > ?1 + ?2 THEN ?1 ELSE d.next_attempt_at END, d.id
       LIMIT ?3`,
    ).all(now, horizonMs, limit) as unknown as DebitRow[];
    return rows.map(toDebit);
  }

  /**
   * `dueHeads` as ids, cards and states only: the sender reads this at every pass and needs
   * whole rows only for the heads it launches (a row read costs more than finding it).
   */
  dueHeadRefs(now: number, limit: number, horizonMs = Number.MAX_SAFE_INTEGER): HeadRef[] {
    const rows = this.#sql(
      `${OPEN_HEADS} SELECT d.id, d.gift_card_id, d.state FROM heads
         JOIN outbox_debits AS d ON d.id = heads.id
       WHERE d.next_attempt_at <= ?1 OR d.next_attempt_at > ?1 + ?2
       ORDER BY CASE WHEN d.next_attempt_at > ?1 + ?2 THEN ?1 ELSE d.next_attempt_at END, d.id
       LIMIT ?3`,
    ).all(now, horizonMs, limit) as unknown as {
      id: number;
      gift_card_id: string;
      state: DebitState;
    }[];
    return rows.map((row) => ({ id: row.id, giftCardId: row.gift_card_id, state: row.state }));
  }

  /**
   * Whether a card other than `busyCards` has a head due by `now` and not being sent: the cards
   * are walked as in `dueHeads`, but only the others' heads are read.
   */
  hasDueHeadBesides(
    busyCards: readonly string[],
    now: number,
    horizonMs = Number.MAX_SAFE_INTEGER,
  ): boolean {
    // Asked after every answer while cards are chained: when the others' heads are next due is
    // kept for the same busy cards until an insert or a write that makes rows due sooner (both
    // forget it), another process's commit (the version moves) or a clock that went back. Any
    // other write only takes rows out or puts them later: the kept time is then early, and
    // errs on the side of letting the other cards in.
    const busy = JSON.stringify([...busyCards].sort());
    const version = this.#othersVersion();
    const known = this.#othersDue;
    if (known?.busy === busy && known.version === version && now >= known.readAt) {
      return known.at <= now;
    }
    const row = this.#sql(
      `${OPEN_CARDS} SELECT min(CASE WHEN d.next_attempt_at > ?1 + ?2 THEN ?1 ELSE d.next_attempt_at END) AS at
       FROM cards JOIN outbox_debits AS d ON d.id = (
         SELECT id FROM outbox_debits INDEXED BY outbox_debits_open
         WHERE ${OPEN} AND gift_card_id = cards.card
         ORDER BY gift_card_id, id LIMIT 1)
       WHERE cards.card IS NOT NULL AND cards.card NOT IN (SELECT value FROM json_each(?3))
         AND d.state = 'pending'`,
    ).get(now, horizonMs, busy) as { at: number | null };
    const at = row.at ?? Number.POSITIVE_INFINITY;
    this.#othersDue = { busy, version, readAt: now, at };
    return at <= now;
  }

  /**
   * Whether nothing open can move without a person: every card's head (its oldest open row) is
   * held as "outcome unknown" (the rows behind one wait for it). False when nothing is open.
   */
  everyHeadHeld(): boolean {
    const row = this.#sql(
      `${OPEN_HEADS} SELECT count(*) AS heads, coalesce(sum(d.outcome_unknown_since IS NOT NULL), 0) AS held
       FROM heads JOIN outbox_debits AS d ON d.id = heads.id`,
    ).get() as { heads: number; held: number };
    return row.heads > 0 && row.heads === row.held;
  }

  /** The card's next open row after `afterId` (its head once `afterId` is settled). */
  nextOpenAfter(giftCardId: string, afterId: number): OutboxDebit | undefined {
    const row = this.#sql(
      `SELECT * FROM outbox_debits INDEXED BY outbox_debits_open
       WHERE ${OPEN} AND gift_card_id = ? AND id > ?
       ORDER BY gift_card_id, id LIMIT 1`,
    ).get(giftCardId, afterId) as DebitRow | undefined;
    return row ? toDebit(row) : undefined;
  }

  /** When the next head becomes due (see `dueHeads`); undefined when nothing is open. */
  nextDueAt(now: number, horizonMs = Number.MAX_SAFE_INTEGER): number | undefined {
    const row = this.#sql(
      `${OPEN_HEADS} SELECT min(CASE WHEN d.next_attempt_at > ?1 + ?2 THEN ?1 ELSE d.next_attempt_at END) AS at
       FROM heads JOIN outbox_debits AS d ON d.id = heads.id`,
    ).get(now, horizonMs) as { at: number | null };
    return row.at ?? undefined;
  }

  /** The service came back: every waiting row is due now (returns how many were waiting). */
  makePendingDue(now: number): number {
    this.#othersDue = undefined;
    const result = this.#sql(
      `UPDATE outbox_debits SET next_attempt_at = ?1 WHERE state = 'pending' AND next_attempt_at > ?1`,
    ).run(now);
    return Number(result.changes);
  }

  /** The row's times on the service clock (migration 005). */
  serviceTimes(id: number): DebitServiceTimes | undefined {
    const row = this.#sql(
      `SELECT created_service_at, attempt_service_earliest, attempt_service_latest, reached_service_at
       FROM outbox_debits WHERE id = ?`,
    ).get(id) as
      | {
          created_service_at: number | null;
          attempt_service_earliest: number | null;
          attempt_service_latest: number | null;
          reached_service_at: number | null;
        }
      | undefined;
    if (!row) return undefined;
    const { attempt_service_earliest: earliest, attempt_service_latest: latest } = row;
    return {
      createdAt: row.created_service_at,
      lastAttempt: earliest === null || latest === null ? null : { earliest, latest },
      reachedAt: row.reached_service_at,
    };
  }

  /**
   * Asked after every reply, so only rows above `#datedThrough` are looked at: below it every
   * row was dated or closed when last looked at, and neither ever comes undone (a date is never
   * cleared, a closed row never reopens, ids only grow).
   */
  hasUndatedOpen(): boolean {
    // Undated rows come only from inserts: none of ours since (`insert` forgets this), none of
    // another process's (the version would have moved).
    const version = this.#othersVersion();
    if (this.#allDatedAt === version) return false;
    const row = this.#sql(
      `SELECT (SELECT max(id) FROM outbox_debits) AS top, EXISTS (
         SELECT 1 FROM outbox_debits WHERE id > ?
           AND ${OPEN} AND created_service_at IS NULL) AS undated`,
    ).get(this.#datedThrough) as { top: number | null; undated: number };
    if (row.undated === 1) return true;
    this.#datedThrough = row.top ?? 0;
    this.#allDatedAt = version;
    return false;
  }

  /**
   * Open rows accepted without a service time (by a process that had no dated reply yet) were
   * accepted before `latest`, the latest reading of the service's clock now: an age counted from
   * there can only be too short, so such a row expires late, never early.
   */
  dateOpenRows(latest: number): number {
    this.#neverAttemptedFloor = undefined;
    const result = this.#sql(
      `UPDATE outbox_debits SET created_service_at = ?
       WHERE ${OPEN} AND created_service_at IS NULL`,
    ).run(latest);
    return Number(result.changes);
  }

  /**
   * The service-clock bounds of the attempt under way, once known (the first reply of a process
   * may come only with the attempt itself). Kept only where the row still has none.
   */
  recordAttemptTimes(
    id: number,
    attempt: number,
    bounds: { readonly earliest: number; readonly latest: number },
  ): void {
    this.#sql(
      `UPDATE outbox_debits SET attempt_service_earliest = coalesce(attempt_service_earliest, ?),
         attempt_service_latest = coalesce(attempt_service_latest, ?)
       WHERE id = ? AND state = 'sending' AND attempts = ?`,
    ).run(bounds.earliest, bounds.latest, id, attempt);
  }

  /**
   * Rows a crashed sender left in `sending`: back to `pending`, due now, with the same key and
   * body. Whether that attempt reached the service is unknown, so it counts as maybe delivered.
   */
  recoverInterrupted(now: number): Transition[] {
    this.#othersDue = undefined;
    const rows = this.#sql(
      `UPDATE outbox_debits SET state = 'pending', next_attempt_at = min(next_attempt_at, ?1),
         ${markMayHaveReached({ fallback: '?1' })},
         last_error_code = 'INTERRUPTED',
         last_error_message = 'the previous sender stopped during this attempt; it is sent again with the same key',
         updated_at = ?1
       WHERE state = 'sending' RETURNING *`,
    ).all(now) as unknown as DebitRow[];
    return rows.map((row) => ({ from: 'sending', debit: toDebit(row) }));
  }

  /**
   * Before an attempt: `sending`, attempt count + 1, and the service-clock bounds of its start
   * when known. Fails when the row moved meanwhile. The same commit records, as facts, that the
   * current key went out (and the digest of the body it first went out with), and at the first
   * attempt the card's balance as this kiosk last read it (evidence for a person, if its outcome
   * is ever unknown). A row held as "outcome unknown" is never marked.
   */
  markSending(
    id: number,
    expectedAttempts: number,
    now: number,
    serviceBounds?: { readonly earliest: number; readonly latest: number },
    expectedKey?: string,
    bodyDigest?: string,
  ): Transition | undefined {
    // The key is compared too: rebuilt meanwhile (another process resumed held debits), the
    // decision to send, taken on the old key, may have skipped the usages the new one needs read.
    // And the row must be its card's head: the sender may queue a card's next mark in the commit
    // of its previous answer, and that answer may not make it.
    const row = this.#sql(
      `UPDATE outbox_debits SET state = 'sending', attempts = attempts + 1,
         first_attempt_at = coalesce(first_attempt_at, ?1), last_attempt_at = ?1, updated_at = ?1,
         attempt_service_earliest = ?2, attempt_service_latest = ?3,
         key_sent_digest = CASE WHEN key_sent_at IS NULL THEN ?7 ELSE key_sent_digest END,
         key_sent_at = coalesce(key_sent_at, ?1),
         balance_before_cents = CASE WHEN attempts = 0 THEN (SELECT balance_cents FROM outbox_card_cache
           WHERE gift_card_id = outbox_debits.gift_card_id) ELSE balance_before_cents END,
         balance_before_at = CASE WHEN attempts = 0 THEN (SELECT read_at FROM outbox_card_cache
           WHERE gift_card_id = outbox_debits.gift_card_id AND balance_cents IS NOT NULL)
           ELSE balance_before_at END
       WHERE id = ?4 AND state = 'pending' AND attempts = ?5
         AND (?6 IS NULL OR idempotency_key = ?6) AND outcome_unknown_since IS NULL
         AND NOT EXISTS (
           SELECT 1 FROM outbox_debits AS earlier INDEXED BY outbox_debits_open
           WHERE earlier.${OPEN}
             AND earlier.gift_card_id = outbox_debits.gift_card_id AND earlier.id < ?4)
       RETURNING *`,
    ).get(
      now,
      serviceBounds?.earliest ?? null,
      serviceBounds?.latest ?? null,
      id,
      expectedAttempts,
      expectedKey ?? null,
      bodyDigest ?? null,
    ) as DebitRow | undefined;
    return row ? { from: 'pending', debit: toDebit(row) } : undefined;
  }

  /**
   * A definitive answer to the attempt `sending` is (the row as `markSending` made it): applied,
   * refused or failed. The compare-and-set on the state and attempt number proves the row is
   * still that attempt's (only leaving `sending` changes a sending row's fields), so the settled
   * row is built from it and the answer in hand, not read back and its reply parsed again.
   */
  settleAttempt(
    sending: OutboxDebit,
    outcome:
      | { state: 'applied'; reply: DebitReply; newBalance: number | null; by: DebitSettledBy }
      | { state: 'refused' | 'failed'; error: FailureNote },
    now: number,
  ): Transition | undefined {
    const { id, attempts } = sending;
    const changed =
      outcome.state === 'applied'
        ? this.#sql(
            `UPDATE outbox_debits SET state = 'applied', reply = ?, new_balance = ?, settled_at = ?,
               settled_by = ?, updated_at = ?, last_error_code = NULL, last_error_message = NULL,
               outcome_unknown_since = NULL, outcome_unknown_code = NULL,
               ${markMayHaveReached()}
             WHERE id = ? AND state = 'sending' AND attempts = ?`,
          ).run(
            JSON.stringify(outcome.reply),
            outcome.newBalance,
            now,
            outcome.by,
            now,
            id,
            attempts,
          )
        : this.#sql(
            `UPDATE outbox_debits SET state = ?, last_error_code = ?, last_error_message = ?,
               settled_at = ?, settled_by = 'service', updated_at = ?,
               outcome_unknown_since = NULL, outcome_unknown_code = NULL,
               ${markMayHaveReached()}
             WHERE id = ? AND state = 'sending' AND attempts = ?`,
          ).run(outcome.state, outcome.error.code, outcome.error.message, now, now, id, attempts);
    if (Number(changed.changes) !== 1) return undefined;
    const settled = {
      ...sending,
      state: outcome.state,
      settledAt: now,
      updatedAt: now,
      mayHaveReachedAt: sending.mayHaveReachedAt ?? sending.lastAttemptAt,
    };
    return {
      from: 'sending',
      debit:
        outcome.state === 'applied'
          ? {
              ...settled,
              reply: outcome.reply,
              newBalance: outcome.newBalance,
              settledBy: outcome.by,
              lastErrorCode: null,
              lastErrorMessage: null,
            }
          : {
              ...settled,
              settledBy: 'service',
              lastErrorCode: outcome.error.code,
              lastErrorMessage: outcome.error.message,
            },
    };
  }

  /** No definitive answer: back to `pending`, due at `nextAttemptAt`, the error kept for staff. */
  rescheduleAttempt(
    id: number,
    attempt: number,
    retry: { nextAttemptAt: number; error: FailureNote; mayHaveReached: boolean },
    now: number,
  ): Transition | undefined {
    const row = this.#sql(
      `UPDATE outbox_debits SET state = 'pending', next_attempt_at = ?, last_error_code = ?,
         last_error_message = ?, updated_at = ?,
         ${markMayHaveReached({ when: '?5' })}
       WHERE id = ?6 AND state = 'sending' AND attempts = ?7 RETURNING *`,
    ).get(
      retry.nextAttemptAt,
      retry.error.code,
      retry.error.message,
      now,
      retry.mayHaveReached ? 1 : 0,
      id,
      attempt,
    ) as DebitRow | undefined;
    return row ? { from: 'sending', debit: toDebit(row) } : undefined;
  }

  /** Postpones a pending row without an attempt (reconciliation could not read the card). */
  postpone(
    id: number,
    nextAttemptAt: number,
    error: FailureNote,
    now: number,
  ): OutboxDebit | undefined {
    const row = this.#sql(
      `UPDATE outbox_debits SET next_attempt_at = ?, last_error_code = ?, last_error_message = ?,
         updated_at = ?
       WHERE id = ? AND state = 'pending' RETURNING *`,
    ).get(nextAttemptAt, error.code, error.message, now, id) as DebitRow | undefined;
    return row ? toDebit(row) : undefined;
  }

  /**
   * A pending row's body rebuilt with the integration profile now in force. Whether its current
   * key went out is the recorded fact (`key_sent_at`), never a comparison of times:
   * - never sent: the body changes under the same key (`rebuilt`);
   * - sent, and no attempt under it may have reached the service (or positive evidence says none
   *   was applied, which cleared that mark): a new key (`newKey()`), the old one retired to the
   *   row's key history with its exact body (`new-key`); `forceNewKey` asks for one even when
   *   the body is the same (the service saw the key with another body);
   * - sent, and an attempt under it may have reached the service without evidence either way, or
   *   held as "outcome unknown": nothing changes (`withheld`). A new key would be a second debit
   *   if the first was applied; the row goes on under its key, or waits for a person.
   * False when the row is no longer pending or changed meanwhile.
   */
  rebuildBody(
    id: number,
    expected: { readonly idempotencyKey: string; readonly attempts: number },
    requestBody: string,
    newKey: () => string,
    now: number,
    options: { readonly forceNewKey?: boolean } = {},
  ): 'rebuilt' | 'new-key' | 'withheld' | false {
    const before = this.get(id);
    if (
      !before ||
      before.state !== 'pending' ||
      before.idempotencyKey !== expected.idempotencyKey ||
      before.attempts !== expected.attempts
    )
      return false;
    if (before.outcomeUnknown !== null) return 'withheld';
    if (requestBody === before.requestBody && !options.forceNewKey) return false;
    const sent = before.keySentAt !== null;
    if (sent && before.mayHaveReachedAt !== null) return 'withheld';
    if (!sent && !options.forceNewKey) {
      const changed = this.#sql(
        `UPDATE outbox_debits SET request_body = ?, updated_at = ?
         WHERE id = ? AND state = 'pending' AND idempotency_key = ? AND attempts = ?
           AND key_sent_at IS NULL`,
      ).run(requestBody, now, id, expected.idempotencyKey, expected.attempts);
      return Number(changed.changes) === 1 ? 'rebuilt' : false;
    }
    const key = newKey();
    const previous = this.keyHistory(id).at(-2);
    const changed = this.#sql(
      `UPDATE outbox_debits SET request_body = ?, idempotency_key = ?, key_sent_at = NULL,
         key_sent_digest = NULL, updated_at = ?
       WHERE id = ? AND state = 'pending' AND idempotency_key = ? AND attempts = ?
         AND may_have_reached_at IS NULL AND outcome_unknown_since IS NULL`,
    ).run(requestBody, key, now, id, expected.idempotencyKey, expected.attempts);
    if (Number(changed.changes) !== 1) return false;
    this.#sql(
      `INSERT INTO outbox_debit_keys
         (debit_id, idempotency_key, request_body, first_used_at, replaced_at, may_have_reached)
       VALUES (?, ?, ?, ?, ?, 0)`,
    ).run(
      id,
      before.idempotencyKey,
      before.requestBody,
      previous?.replacedAt ?? before.firstAttemptAt,
      now,
    );
    return 'new-key';
  }

  /**
   * Every key this row was sent under, oldest first, its current key last (`replacedAt` null).
   */
  keyHistory(id: number): DebitKey[] {
    const retired = [
      ...this.#sql(
        `SELECT idempotency_key, request_body, first_used_at, replaced_at FROM outbox_debit_keys
         WHERE debit_id = ? ORDER BY replaced_at, rowid`,
      ).all(id),
      ...this.#archived.related(id, 'outbox_debit_keys'),
    ] as unknown as {
      idempotency_key: string;
      request_body: string;
      first_used_at: number | null;
      replaced_at: number;
    }[];
    const keys: DebitKey[] = retired.map((row) => ({
      idempotencyKey: row.idempotency_key,
      requestBody: row.request_body,
      firstUsedAt: row.first_used_at,
      replacedAt: row.replaced_at,
    }));
    const current = this.get(id);
    if (current) {
      keys.push({
        idempotencyKey: current.idempotencyKey,
        requestBody: current.requestBody,
        firstUsedAt: keys.at(-1)?.replacedAt ?? current.firstAttemptAt,
        replacedAt: null,
      });
    }
    return keys;
  }

  /** A reconciliation found the debit in the card's usages: applied, without a new attempt. */
  markReconciled(
    id: number,
    usage: RecordViewOf<'giftCardUsage'>,
    now: number,
  ): Transition | undefined {
    const row = this.#sql(
      `UPDATE outbox_debits SET state = 'applied', reply = ?, new_balance = NULL, settled_at = ?,
         settled_by = 'reconciliation', updated_at = ?, last_error_code = NULL, last_error_message = NULL
       WHERE id = ? AND state = 'pending' RETURNING *`,
    ).get(JSON.stringify({ kind: 'usage', usage } satisfies DebitReply), now, now, id) as
      DebitRow | undefined;
    return row ? { from: 'pending', debit: toDebit(row) } : undefined;
  }

  /** Staff cancel: only a row never attempted, so the service cannot have seen it. */
  cancel(id: number, now: number): Transition | undefined {
    const row = this.#sql(
      `UPDATE outbox_debits SET state = 'cancelled', settled_at = ?, settled_by = 'staff', updated_at = ?
       WHERE id = ? AND state = 'pending' AND attempts = 0 RETURNING *`,
    ).get(now, now, id) as DebitRow | undefined;
    return row ? { from: 'pending', debit: toDebit(row) } : undefined;
  }

  /**
   * The wait for an answer ended and this debit breaks an offline limit (`Outbox.awaitAnswer`):
   * withdrawn, but only while no request under any of its keys may have reached the service
   * (every attempt failed before a byte went out) and none is under way. Never a row the
   * service may hold: that one waits for the service's answer.
   */
  withdraw(id: number, now: number, error: FailureNote): Transition | undefined {
    const row = this.#sql(
      `UPDATE outbox_debits SET state = 'cancelled', settled_at = ?, settled_by = NULL,
         last_error_code = ?, last_error_message = ?, updated_at = ?
       WHERE id = ? AND state = 'pending' AND may_have_reached_at IS NULL
         AND older_key_reached = 0
         AND NOT EXISTS (SELECT 1 FROM outbox_debit_keys WHERE debit_id = ? AND may_have_reached = 1)
       RETURNING *`,
    ).get(now, error.code, error.message, now, id, id) as DebitRow | undefined;
    return row ? { from: 'pending', debit: toDebit(row) } : undefined;
  }

  /**
   * The wait for an answer ended without one and the debit fits the offline limits: from now on
   * it counts as accepted offline (the customer leaves without the service's word).
   */
  markStoredOffline(id: number, now: number): OutboxDebit | undefined {
    const row = this.#sql(
      `UPDATE outbox_debits SET accepted_offline = 1, updated_at = ?
       WHERE id = ? AND ${OPEN} AND accepted_offline = 0 RETURNING *`,
    ).get(now, id) as DebitRow | undefined;
    return row ? toDebit(row) : undefined;
  }

  /**
   * The caller's wait ended without the service's answer on a debit over the offline limits that
   * may have reached the service (`Outbox.awaitAnswer`): held as "outcome unknown"
   * (OVER_OFFLINE_LIMIT) for a person, never sent again by itself. A `pending` row is held at once
   * (its usages read when due: found, it is applied). A `sending` row keeps its attempt: a
   * definitive answer to it (2xx, 4xx) is recorded as such and clears the hold
   * (`settleAttempt`); ended without one, it goes back to `pending` held (`rescheduleAttempt`,
   * `recoverInterrupted` keep the columns). The first reason and time are kept. Undefined when
   * the row is settled, or was accepted offline (its limits decided at its commit).
   */
  holdOverLimit(id: number, now: number, note: FailureNote): OutboxDebit | undefined {
    const row = this.#sql(
      `UPDATE outbox_debits SET outcome_unknown_since = coalesce(outcome_unknown_since, ?1),
         outcome_unknown_code = coalesce(outcome_unknown_code, 'OVER_OFFLINE_LIMIT'),
         next_attempt_at = CASE WHEN state = 'pending' THEN min(next_attempt_at, ?1)
                                ELSE next_attempt_at END,
         last_error_code = CASE WHEN state = 'pending' THEN ?2 ELSE last_error_code END,
         last_error_message = CASE WHEN state = 'pending' THEN ?3 ELSE last_error_message END,
         ${markMayHaveReached({ when: "state = 'pending'", fallback: '?1' })},
         updated_at = ?1
       WHERE id = ?4 AND ${OPEN} AND accepted_offline = 0 RETURNING *`,
    ).get(now, note.code, note.message, id) as DebitRow | undefined;
    return row ? toDebit(row) : undefined;
  }

  /** Max age passed and the service surely does not have it: expired, terminal, shown to staff. */
  expire(id: number, now: number, error: FailureNote): Transition | undefined {
    // Never a row that may have reached the service without evidence: that one is held.
    const row = this.#sql(
      `UPDATE outbox_debits SET state = 'expired', settled_at = ?, settled_by = 'expiry',
         last_error_code = ?, last_error_message = ?, updated_at = ?
       WHERE id = ? AND state = 'pending' AND may_have_reached_at IS NULL
         AND older_key_reached = 0 AND outcome_unknown_since IS NULL RETURNING *`,
    ).get(now, error.code, error.message, now, id) as DebitRow | undefined;
    return row ? { from: 'pending', debit: toDebit(row) } : undefined;
  }

  /**
   * Held for a person: an attempt may have reached the service and nothing proves whether it was
   * applied. From `pending` (a reconciliation without a verdict) or from the attempt's own
   * `sending` (a 409 for a reused key, with `attempt`). The row stays open, so its card's later
   * debits wait behind it and the limits still count it; it is only looked at again at
   * `nextCheckAt` (its usages read, never sent). The first reason and time are kept.
   */
  holdOutcomeUnknown(
    id: number,
    hold: {
      readonly reason: OutcomeUnknownReason;
      readonly note: FailureNote;
      readonly nextCheckAt: number;
      /** The attempt the hold answers (the row is `sending`); absent: a pending row. */
      readonly attempt?: number;
    },
    now: number,
  ): Transition | undefined {
    const row = this.#sql(
      `UPDATE outbox_debits SET state = 'pending', next_attempt_at = ?1, last_error_code = ?2,
         last_error_message = ?3, updated_at = ?4,
         outcome_unknown_since = coalesce(outcome_unknown_since, ?4),
         outcome_unknown_code = CASE WHEN outcome_unknown_code IN ('KEY_REUSED', 'OVER_OFFLINE_LIMIT')
                                     THEN outcome_unknown_code ELSE ?5 END,
         ${markMayHaveReached({ fallback: '?4' })}
       WHERE id = ?6 AND (CASE WHEN ?7 IS NULL THEN state = 'pending'
                               ELSE state = 'sending' AND attempts = ?7 END)
       RETURNING *`,
    ).get(
      hold.nextCheckAt,
      hold.note.code,
      hold.note.message,
      now,
      hold.reason,
      id,
      hold.attempt ?? null,
    ) as DebitRow | undefined;
    return row
      ? { from: hold.attempt === undefined ? 'pending' : 'sending', debit: toDebit(row) }
      : undefined;
  }

  /**
   * Positive evidence that no attempt so far was applied: the service's definitive answer to the
   * current key (`answer`: it covers that key only), the card's usages read where the contract
   * check verified they are filled (`usages`), or a person (`staff`): both cover every key the row
   * ever used. What "may have reached the service" marked is cleared (the key window of a later
   * attempt counts from that attempt), and so is a hold. Only a pending row, and never one held
   * as OVER_OFFLINE_LIMIT but by a person: staff were told that debit was not taken, so evidence
   * that would send it again is for a person to act on (`resolveUnknownOutcome`).
   */
  recordNotApplied(
    id: number,
    evidence: NotAppliedEvidence,
    now: number,
    nextAttemptAt?: number,
  ): OutboxDebit | undefined {
    const row = this.#sql(
      `UPDATE outbox_debits SET may_have_reached_at = NULL, reached_service_at = NULL,
         older_key_reached = CASE WHEN ?1 = 'answer' THEN older_key_reached ELSE 0 END,
         not_applied_evidence = ?1, not_applied_at = ?2, outcome_unknown_since = NULL,
         outcome_unknown_code = NULL, next_attempt_at = coalesce(?3, next_attempt_at), updated_at = ?2
       WHERE id = ?4 AND state = 'pending'
         AND (?1 = 'staff' OR outcome_unknown_code IS NOT 'OVER_OFFLINE_LIMIT') RETURNING *`,
    ).get(evidence, now, nextAttemptAt ?? null, id) as DebitRow | undefined;
    return row ? toDebit(row) : undefined;
  }

  /** The card's balance as just read from the service, kept on an open row as evidence. */
  recordBalanceNow(id: number, cents: number, now: number): void {
    this.#sql(
      `UPDATE outbox_debits SET balance_now_cents = ?, balance_now_at = ?
       WHERE id = ? AND ${OPEN}`,
    ).run(cents, now, id);
  }

  /**
   * Staff say a debit held as "outcome unknown" was applied: settled `applied` by staff, with who
   * and when; nothing is sent. Undefined when the row is not held (any more).
   */
  staffApplied(id: number, by: string, now: number): Transition | undefined {
    const row = this.#sql(
      `UPDATE outbox_debits SET state = 'applied', settled_at = ?1, settled_by = 'staff',
         updated_at = ?1, staff_outcome = 'applied', staff_outcome_by = ?2, staff_outcome_at = ?1,
         last_error_code = NULL, last_error_message = NULL
       WHERE id = ?3 AND state = 'pending' AND outcome_unknown_since IS NOT NULL RETURNING *`,
    ).get(now, by, id) as DebitRow | undefined;
    return row ? { from: 'pending', debit: toDebit(row) } : undefined;
  }

  /**
   * Staff say a debit held as "outcome unknown" was not applied: that is the positive evidence
   * (`staff`, covering every key), the hold is lifted with who and when, and it is due now.
   */
  staffNotApplied(id: number, by: string, now: number): OutboxDebit | undefined {
    const held = this.#sql(
      `UPDATE outbox_debits SET staff_outcome = 'not_applied', staff_outcome_by = ?, staff_outcome_at = ?
       WHERE id = ? AND state = 'pending' AND outcome_unknown_since IS NOT NULL`,
    ).run(by, now, id);
    if (Number(held.changes) !== 1) return undefined;
    return this.recordNotApplied(id, 'staff', now, now);
  }

  /** The contract check's verdict on the card's usages for one profile fingerprint (the latest). */
  recordUsageCheck(check: {
    readonly fingerprint: string;
    readonly profileName: string;
    readonly verified: boolean;
    readonly detail: string;
    readonly checkedAt: number;
  }): void {
    this.#sql(
      `INSERT INTO outbox_usage_checks (fingerprint, profile_name, verified, detail, checked_at)
       VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (fingerprint) DO UPDATE SET profile_name = excluded.profile_name,
         verified = excluded.verified, detail = excluded.detail, checked_at = excluded.checked_at`,
    ).run(
      check.fingerprint,
      check.profileName,
      check.verified ? 1 : 0,
      check.detail,
      check.checkedAt,
    );
  }

  usageCheck(
    fingerprint: string,
  ):
    | { readonly verified: boolean; readonly detail: string; readonly checkedAt: number }
    | undefined {
    const row = this.#sql(
      `SELECT verified, detail, checked_at FROM outbox_usage_checks WHERE fingerprint = ?`,
    ).get(fingerprint) as { verified: number; detail: string; checked_at: number } | undefined;
    return row
      ? { verified: row.verified === 1, detail: row.detail, checkedAt: row.checked_at }
      : undefined;
  }

  /** By the kiosk's wall clock only: a hint to ask the service its time, never a verdict. */
  hasNeverAttemptedSince(cutoff: number): boolean {
    return (
      this.#sql(
        `SELECT 1 FROM outbox_debits WHERE state = 'pending' AND attempts = 0 AND created_at <= ? LIMIT 1`,
      ).get(cutoff) !== undefined
    );
  }

  /** Never-attempted rows accepted, on the service's clock, by `serviceCutoff`. */
  hasNeverAttemptedBefore(serviceCutoff: number): boolean {
    // Asked at every pass of the sender: the earliest such time is kept, and a cutoff below it
    // needs no read. Only an insert or a dating can lower it (both forget it) or another
    // process's commit (the version moves); every other write only takes rows out.
    const version = this.#othersVersion();
    const floor = this.#neverAttemptedFloor;
    if (floor?.version === version && serviceCutoff < floor.at) return false;
    const row = this.#sql(
      `SELECT min(created_service_at) AS at FROM outbox_debits WHERE state = 'pending' AND attempts = 0`,
    ).get() as { at: number | null };
    this.#neverAttemptedFloor = { version, at: row.at ?? Number.POSITIVE_INFINITY };
    return row.at !== null && row.at <= serviceCutoff;
  }

  /**
   * Never-attempted rows accepted, on the service's clock, by `serviceCutoff`: they cannot have
   * reached the service. Rows without a service time are never expired here.
   */
  expireNeverAttempted(serviceCutoff: number, now: number, error: FailureNote): Transition[] {
    const rows = this.#sql(
      `UPDATE outbox_debits SET state = 'expired', settled_at = ?, settled_by = 'expiry',
         last_error_code = ?, last_error_message = ?, updated_at = ?
       WHERE state = 'pending' AND attempts = 0 AND created_service_at <= ? RETURNING *`,
    ).all(now, error.code, error.message, now, serviceCutoff) as unknown as DebitRow[];
    return rows.map((row) => ({ from: 'pending', debit: toDebit(row) }));
  }

  /** Staff's record for a debit that needs attention; the first one stands (undefined: none written). */
  resolve(id: number, resolution: StaffResolutionInput, now: number): OutboxDebit | undefined {
    const row = this.#sql(
      `UPDATE outbox_debits SET staff_resolution = ?, staff_resolution_method = ?,
         staff_resolved_at = ?, acknowledged_at = coalesce(acknowledged_at, ?), updated_at = ?
       WHERE id = ? AND ${ATTENTION_STATES} AND staff_resolution IS NULL
       RETURNING *`,
    ).get(
      resolution.kind,
      resolution.kind === 'collected_other_way' ? resolution.method : null,
      now,
      now,
      now,
      id,
    ) as DebitRow | undefined;
    return row ? toDebit(row) : undefined;
  }

  /**
   * The debits that need attention, oldest first. Recording a resolution also acknowledges the
   * debit (`resolve`), so `acknowledged_at IS NULL` alone says "nothing recorded by staff". Never
   * archived (archiving takes only acknowledged ones), so the live table alone; `LIMIT` in SQL,
   * one range of the index of these states (migration 16).
   */
  attention(limit: number): OutboxDebit[] {
    const rows = this.#sql(
      `SELECT * FROM outbox_debits WHERE ${ATTENTION_STATES}
         AND acknowledged_at IS NULL ORDER BY id LIMIT ?`,
    ).all(limit) as unknown as DebitRow[];
    return rows.map(toDebit);
  }

  /** Debits accepted in [from, to) (epoch ms, the outbox clock), oldest first. */
  createdBetween(from: number, to: number): OutboxDebit[] {
    const live = this.#sql(
      `SELECT * FROM outbox_debits WHERE created_at >= ? AND created_at < ? ORDER BY created_at, id`,
    ).all(from, to) as unknown as DebitRow[];
    const archived = this.#archived.createdBetween(from, to) as unknown as DebitRow[];
    const rows =
      archived.length === 0
        ? live
        : [...live, ...archived].sort((a, b) => a.created_at - b.created_at || a.id - b.id);
    return rows.map(toDebit);
  }

  acknowledge(id: number, now: number): OutboxDebit | undefined {
    const row = this.#sql(
      `UPDATE outbox_debits SET acknowledged_at = coalesce(acknowledged_at, ?), updated_at = ?
       WHERE id = ? AND ${ATTENTION_STATES} RETURNING *`,
    ).get(now, now, id) as DebitRow | undefined;
    return row ? toDebit(row) : undefined;
  }
}
