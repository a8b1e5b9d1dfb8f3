import { isCommerceApiError, type ServiceTimeBounds } from '../api/index.ts';
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
 * carries a prefix of the key).
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
 * True unless a blind resend is provably safe: nothing may have reached the service, or the
 * window, counted on the service's clock from the earliest moment the first attempt that may
 * have reached it can have started, is still open by its latest reading now. Without those
 * times (no dated reply, a row from before they were kept, a reading too old to trust, passed as
 * undefined) the usages decide. The kiosk's wall clock never does: stepped back, it would let a
 * forgotten key look remembered.
 */
export function needsReconciliation(
  debit: OutboxDebit,
  times: DebitServiceTimes,
  serviceNow: ServiceTimeBounds | undefined,
  settings: ReconcileSettings,
): boolean {
  if (debit.mayHaveReachedAt === null) return false;
  // A retired key may have applied it: the current key's window says nothing about that one.
  if (debit.olderKeyMayHaveReached) return true;
  if (times.reachedAt === null || serviceNow === undefined) return true;
  const window = Math.max(0, settings.keyRetentionMs - settings.marginMs);
  return serviceNow.latest - times.reachedAt >= window;
}

export type Reconciliation =
  /** The service applied it: the usage with our reference. */
  | { readonly result: 'found'; readonly usage: RecordViewOf<'giftCardUsage'> }
  /** The card's usages do not hold it: it was never applied. */
  | { readonly result: 'absent' }
  /** No verdict (card unreadable, usages withheld, network): try again later, do not resend. */
  | {
      readonly result: 'unknown';
      readonly code: string;
      readonly message: string;
      readonly error?: unknown;
    };

export async function reconcile(
  debit: OutboxDebit,
  gateway: DebitGateway,
): Promise<Reconciliation> {
  try {
    const lookup = await gateway.findUsage(debit.giftCardId, debit.reference);
    switch (lookup.status) {
      case 'found':
        return { result: 'found', usage: lookup.usage };
      case 'absent':
        return { result: 'absent' };
      case 'unavailable':
        // Without the usages we cannot tell "applied" from "not applied": never guess.
        return {
          result: 'unknown',
          code: 'RECONCILIATION_UNAVAILABLE',
          message: `the card's usages cannot be read (${lookup.reason}); the debit is held until they can`,
        };
    }
  } catch (error) {
    if (isCommerceApiError(error) && error.kind === 'NotFound') {
      // No such card (any more): nothing can have been debited from it.
      return { result: 'absent' };
    }
    return {
      result: 'unknown',
      code: isCommerceApiError(error) ? error.code : 'RECONCILIATION_FAILED',
      message: error instanceof Error ? error.message : String(error),
      error,
    };
  }
}
