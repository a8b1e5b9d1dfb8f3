import { isCommerceApiError, type ServiceTimeBounds } from '../api/index.ts';
import type { OutcomeUnknownReason } from '../../shared/ipc/gift-cards.ts';
import type { RecordViewOf } from '../../shared/profile/index.ts';
import type { DebitGateway } from './gateway.ts';
import type { OutboxDebit } from './debit.ts';
import type { DebitServiceTimes } from './service-times.ts';

/**
 * The service remembers an `Idempotency-Key` for a limited time (24 h by default). Within that
 * window a resend with the same key is safe: the service replays its first answer. After it, the
 * key is forgotten and a resend would debit again if the first attempt had in fact been applied
 * (a reply lost to a reset, a kiosk killed mid-request). So a row that may have reached the
 * service is resent blindly only when the service's own clock proves the window still open;
 * otherwise it is first looked up in the card's usages by its reference (unique per row: it
 * carries a prefix of the key). No evidence is not proof: "not among the usages" counts as "never
 * applied" only where the contract check verified this service fills them; otherwise the debit
 * is held as "outcome unknown" for a person, never resent, never expired.
 */
export interface ReconcileSettings {
  /** The service's key-retention window. */
  readonly keyRetentionMs: number;
  /** Reconcile this much before the window closes: the service may count from a bit earlier. */
  readonly marginMs: number;
}

export const defaultReconcileSettings: ReconcileSettings = {
  keyRetentionMs: 24 * 60 * 60 * 1000,
  marginMs: 10 * 60 * 1000,
};

/**
 * Where a resend under the row's current key stands against the service's key window:
 * - `clear`: nothing may have reached the service (or positive evidence says none of it was
 *   applied, which clears that mark): sending is safe;
 * - `open`: counted on the service's clock from the earliest moment the first attempt that may
 *   have reached it can have started, the window is still open by its latest reading now;
 * - `closed`: past it, or it cannot be proven open whatever the clock says (a retired key may
 *   have reached the service; the attempt was never dated; a confirmed reading of the service's
 *   time that comes before the row's last attempt cannot be right);
 * - `unreadable`: no reading to tell (none, too old, or not confirmed by a second reply).
 * The kiosk's wall clock never decides: stepped back, it would let a forgotten key look
 * remembered.
 */
export type KeyWindow = 'clear' | 'open' | 'closed' | 'unreadable';

export function keyWindowOf(
  debit: OutboxDebit,
  times: DebitServiceTimes,
  serviceNow: ServiceTimeBounds | undefined,
  settings: ReconcileSettings,
): KeyWindow {
  // A retired key may have applied it: the current key's window says nothing about that one.
  if (debit.olderKeyMayHaveReached) return 'closed';
  if (debit.mayHaveReachedAt === null) return 'clear';
  if (times.reachedAt === null) return 'closed';
  if (serviceNow === undefined || !serviceNow.confirmed) return 'unreadable';
  if (times.lastAttempt && serviceNow.latest < times.lastAttempt.earliest) return 'closed';
  const window = Math.max(0, settings.keyRetentionMs - settings.marginMs);
  return serviceNow.latest - times.reachedAt >= window ? 'closed' : 'open';
}

/** True unless a blind resend is provably safe (`keyWindowOf` is `clear` or `open`). */
export function needsReconciliation(
  debit: OutboxDebit,
  times: DebitServiceTimes,
  serviceNow: ServiceTimeBounds | undefined,
  settings: ReconcileSettings,
): boolean {
  const window = keyWindowOf(debit, times, serviceNow, settings);
  return window === 'closed' || window === 'unreadable';
}

export type Reconciliation =
  /** The service applied it: the usage with our reference. */
  | {
      readonly result: 'found';
      readonly usage: RecordViewOf<'giftCardUsage'>;
      readonly balance: number | null;
    }
  /**
   * Positive evidence that it was never applied: not among usages this service is known to fill
   * where this profile reads them (the contract check verified it), or no such card.
   */
  | { readonly result: 'absent'; readonly balance: number | null }
  /**
   * The card was read but proves nothing: its usages do not show the debit and were never
   * verified to be filled, or cannot be read. Held for a person: never resent, never expired.
   */
  | {
      readonly result: 'unproven';
      readonly reason: Extract<OutcomeUnknownReason, 'USAGES_UNVERIFIED' | 'USAGES_UNREADABLE'>;
      readonly message: string;
      readonly balance: number | null;
    }
  /** No reading at all (network, a refusal of the read): try again later, do not resend. */
  | {
      readonly result: 'unknown';
      readonly code: string;
      readonly message: string;
      readonly error?: unknown;
    };

/**
 * Looks the debit up in its card's usages by its reference (unique per row, whichever key
 * applied it). `verified`: the contract check found this service's usages filled where the
 * profile in force reads them (`usage-evidence.ts`); without it, "not among the usages" is no
 * evidence at all.
 */
export async function reconcile(
  debit: OutboxDebit,
  gateway: DebitGateway,
  verified: () => boolean,
): Promise<Reconciliation> {
  try {
    const lookup = await gateway.findUsage(debit.giftCardId, debit.reference);
    const balance = lookup.balance ?? null;
    switch (lookup.status) {
      case 'found':
        return { result: 'found', usage: lookup.usage, balance };
      case 'absent':
        if (verified()) return { result: 'absent', balance };
        return {
          result: 'unproven',
          reason: 'USAGES_UNVERIFIED',
          message:
            "the debit is not among the card's usages, but this service was never verified to fill them where the integration profile reads them (kioskctl contract check, on a card with usages): that proves nothing",
          balance,
        };
      case 'unavailable':
        // Without the usages we cannot tell "applied" from "not applied": never guess.
        return {
          result: 'unproven',
          reason: 'USAGES_UNREADABLE',
          message: `the card's usages cannot be read (${lookup.reason})`,
          balance,
        };
    }
  } catch (error) {
    if (isCommerceApiError(error) && error.kind === 'NotFound') {
      // No such card (any more): nothing can have been debited from it.
      return { result: 'absent', balance: null };
    }
    return {
      result: 'unknown',
      code: isCommerceApiError(error) ? error.code : 'RECONCILIATION_FAILED',
      message: error instanceof Error ? error.message : String(error),
      error,
    };
  }
}
