import type {
  CollectionMethod,
  DebitPolicy,
  DebitReply,
  DebitSettledBy,
  DebitState,
  OutcomeUnknownReason,
  StaffResolutionInput,
} from '../../shared/ipc/gift-cards.ts';
import {
  HeldDebitCode,
  isOpenDebitState,
  attentionDebitStates,
} from '../../shared/ipc/gift-cards.ts';

/**
 * One debit of the outbox as main keeps it: the exact body and key sent on every attempt, and
 * what happened to it. The states, policies and replies are the contract's (`shared/ipc`), so the
 * outbox and the screens always agree on them.
 */

/** Settled: in a final state, which is every state but the open ones. */
export function isSettled(state: DebitState): boolean {
  return !isOpenDebitState(state);
}

export interface OutboxDebit {
  /** Local id, increasing: FIFO order within a card. */
  readonly id: number;
  /**
   * UUID v4, sent as `Idempotency-Key` on every attempt. It changes only with the body, when a
   * debit held for a 400 or 403 is rebuilt with a fixed integration profile (the retired ones
   * stay in `outbox_debit_keys`).
   */
  readonly idempotencyKey: string;
  readonly giftCardId: string;
  /** The exact JSON text sent on every attempt under the current key. */
  readonly requestBody: string;
  /** The shop the debit was accepted for (put in the body where the profile says); null: none. */
  readonly shopId: string | null;
  /**
   * A retired key of this row may have reached the service: the card's usages are read before
   * every send under a newer key, whose own retention window cannot vouch for the older one.
   */
  readonly olderKeyMayHaveReached: boolean;
  /** EUR, as in the body. */
  readonly amount: number;
  readonly amountCents: number;
  /** Unique per row (it carries a key prefix), so a reconciliation can find it in the usages. */
  readonly reference: string;
  readonly policy: DebitPolicy;
  readonly acceptedOffline: boolean;
  readonly state: DebitState;
  readonly attempts: number;
  /** Epoch milliseconds, from the outbox clock. */
  readonly createdAt: number;
  readonly updatedAt: number;
  readonly firstAttemptAt: number | null;
  readonly lastAttemptAt: number | null;
  readonly mayHaveReachedAt: number | null;
  readonly nextAttemptAt: number;
  readonly lastErrorCode: string | null;
  readonly lastErrorMessage: string | null;
  readonly reply: DebitReply | null;
  /** The balance the service computed after this debit; null when not known (reconciled). */
  readonly newBalance: number | null;
  readonly settledAt: number | null;
  readonly settledBy: DebitSettledBy | null;
  readonly acknowledgedAt: number | null;
  /** The caller's id of this logical debit (UUID v4); null on rows accepted before there were any. */
  readonly requestId: string | null;
  /** What staff recorded about a refused, failed or expired debit; null until then. */
  readonly staffResolution: StaffResolutionRecord | null;
  /**
   * When the current key first went out (outbox clock), recorded in the transaction that marked
   * it `sending`; null: it never left the kiosk. A fact, never inferred from times.
   */
  readonly keySentAt: number | null;
  /** SHA-256 of the body the current key first went out with; null when unknown. */
  readonly keySentDigest: string | null;
  /** The positive evidence that no attempt so far was applied, once there is some. */
  readonly notApplied: { readonly evidence: NotAppliedEvidence; readonly at: number } | null;
  /** Held for a person: an attempt may have reached the service and nothing proves the outcome. */
  readonly outcomeUnknown: {
    readonly since: number;
    readonly reason: OutcomeUnknownReason;
  } | null;
  /** The card's balance as last read before the first attempt (cents, outbox clock). */
  readonly balanceBefore: BalanceRecord | null;
  /** The card's balance as last read from the service while held. */
  readonly balanceNow: BalanceRecord | null;
  /** What staff said of a debit whose outcome was unknown: who and when. */
  readonly staffOutcome: {
    readonly outcome: 'applied' | 'not_applied';
    readonly by: string;
    readonly at: number;
  } | null;
}

/**
 * What proves that no attempt so far was applied: the service's definitive answer to the key
 * (a 400 to the very bytes it would have replayed), the card's usages read where the contract
 * check verified they are filled, or a person.
 */
export type NotAppliedEvidence = 'answer' | 'usages' | 'staff';

export interface BalanceRecord {
  readonly cents: number;
  /** Epoch milliseconds, from the outbox clock. */
  readonly at: number;
}

export interface StaffResolutionRecord {
  readonly kind: StaffResolutionInput['kind'];
  readonly method: CollectionMethod | null;
  /** Epoch milliseconds, from the outbox clock. */
  readonly at: number;
}

const attentionStates: readonly DebitState[] = attentionDebitStates;

/**
 * Refused, failed or expired and not yet resolved by staff: the money was not taken and a person
 * must say what became of it. A resolution also acknowledges the debit, so the acknowledgement
 * alone decides, as in `OutboxStore.attention`.
 */
export function needsAttention(debit: OutboxDebit): boolean {
  return attentionStates.includes(debit.state) && debit.acknowledgedAt === null;
}

/**
 * Why a pending debit waits for a person: its outcome is unknown (`DEBIT_OUTCOME_UNKNOWN`), or
 * an administrator must fix a 400 or 403 on it; null when it waits for nobody.
 */
export function heldReasonOf(
  debit: OutboxDebit,
): { readonly code: HeldDebitCode; readonly message: string } | null {
  if (debit.state !== 'pending') return null;
  if (debit.outcomeUnknown) {
    return { code: 'DEBIT_OUTCOME_UNKNOWN', message: outcomeUnknownMessage(debit) };
  }
  const code = HeldDebitCode.safeParse(debit.lastErrorCode);
  return code.success ? { code: code.data, message: debit.lastErrorMessage ?? '' } : null;
}

/** Held as "outcome unknown", for a person. */
export function isOutcomeUnknown(debit: OutboxDebit): boolean {
  return debit.state === 'pending' && debit.outcomeUnknown !== null;
}

const unknownBecause: Record<OutcomeUnknownReason, string> = {
  USAGES_UNVERIFIED:
    "the card's usages do not show it, but this service was never verified to fill them (kioskctl contract check on a card with usages): an empty list proves nothing",
  USAGES_UNREADABLE: "the card's usages cannot be read",
  KEY_REUSED:
    'the service answered 409 to a key it had seen with another body: the kiosk broke its own idempotency rule, this is not a refusal',
  REPLY_UNREADABLE: "the service's reply to it could not be read",
  OVER_OFFLINE_LIMIT:
    "it is over the offline limits and the service's answer did not come within the wait: staff were told it was not taken as an offline debit, so it is not sent again by itself",
};

/** What a person reads about a debit held as "outcome unknown" (no personal data). */
export function outcomeUnknownMessage(debit: OutboxDebit): string {
  const reason = debit.outcomeUnknown?.reason;
  const euros = (cents: number) => `${(cents / 100).toFixed(2)} EUR`;
  const at = (ms: number) => new Date(ms).toISOString();
  const facts = [
    `${debit.attempts} attempt(s), the first at ${debit.firstAttemptAt === null ? 'an unknown time' : at(debit.firstAttemptAt)}`,
    debit.balanceBefore
      ? `balance before: ${euros(debit.balanceBefore.cents)} (read ${at(debit.balanceBefore.at)})`
      : 'balance before: not read',
    debit.balanceNow
      ? `balance now: ${euros(debit.balanceNow.cents)} (read ${at(debit.balanceNow.at)})`
      : 'balance now: not read yet',
  ];
  return `an attempt may have reached the service and nothing proves whether it was applied (${reason ? unknownBecause[reason] : 'no evidence'}); it is neither sent again nor expired until a person records "applied" or "not applied, send again"; ${facts.join('; ')}`;
}

/** One Idempotency-Key a debit was sent under, with the exact body it went with. */
export interface DebitKey {
  readonly idempotencyKey: string;
  readonly requestBody: string;
  /** When it became the row's key: the first attempt for the original one, else its rebuild. */
  readonly firstUsedAt: number | null;
  /** Null for the row's current key. */
  readonly replacedAt: number | null;
}

/** A transition that happened: the row before and after, for the events. */
export interface Transition {
  readonly from: DebitState;
  readonly debit: OutboxDebit;
}

/** Why an attempt did not apply, as kept on the row for staff. */
export interface FailureNote {
  readonly code: string;
  readonly message: string;
}
