import type {
  CollectionMethod,
  DebitPolicy,
  DebitReply,
  DebitResolvedBy,
  DebitState,
  StaffResolutionInput,
} from '../../shared/ipc/gift-cards.ts';
import { HeldDebitCode } from '../../shared/ipc/gift-cards.ts';

/**
 * One debit of the outbox as main keeps it: the exact body and key sent on every attempt, and
 * what happened to it. The states, policies and replies are the contract's (`shared/ipc`), so the
 * outbox and the screens always agree on them.
 */

const terminalStates: readonly DebitState[] = [
  'applied',
  'refused',
  'failed',
  'expired',
  'cancelled',
];

export function isTerminal(state: DebitState): boolean {
  return terminalStates.includes(state);
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
  readonly resolvedAt: number | null;
  readonly resolvedBy: DebitResolvedBy | null;
  readonly acknowledgedAt: number | null;
  /** The caller's id of this logical debit (UUID v4); null on rows accepted before there were any. */
  readonly requestId: string | null;
  /** What staff recorded about a refused, failed or expired debit; null until then. */
  readonly staffResolution: StaffResolutionRecord | null;
}

export interface StaffResolutionRecord {
  readonly kind: StaffResolutionInput['kind'];
  readonly method: CollectionMethod | null;
  /** Epoch milliseconds, from the outbox clock. */
  readonly at: number;
}

/** Refused, failed or expired: the money was not taken by this debit. */
export const uncollectedStates: readonly DebitState[] = ['refused', 'failed', 'expired'];

/** An uncollected debit staff have neither resolved nor (before resolutions existed) seen. */
export function isUnresolved(debit: OutboxDebit): boolean {
  return (
    uncollectedStates.includes(debit.state) &&
    debit.staffResolution === null &&
    debit.acknowledgedAt === null
  );
}

/** Why a pending debit waits for an administrator (a 400 or 403 on it), or null. */
export function heldReasonOf(
  debit: OutboxDebit,
): { readonly code: HeldDebitCode; readonly message: string } | null {
  if (debit.state !== 'pending') return null;
  const code = HeldDebitCode.safeParse(debit.lastErrorCode);
  return code.success ? { code: code.data, message: debit.lastErrorMessage ?? '' } : null;
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
