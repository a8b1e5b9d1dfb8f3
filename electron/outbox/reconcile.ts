import { isCommerceApiError } from '../api/index.ts';
import type { GiftCardUsage } from '../../shared/api/gift-cards.ts';
import type { DebitGateway } from './gateway.ts';
import type { OutboxDebit } from './debit.ts';

/**
 * The service remembers an `Idempotency-Key` for a limited time (24 h by default). Within that
 * window a resend with the same key is safe: the service replays its first answer. After it, the
 * key is forgotten and a resend would debit again if the first attempt had in fact been applied
 * (a reply lost to a reset, a kiosk killed mid-request). So a row that may have reached the
 * service and is older than the window is looked up in the card's usages by its reference
 * (unique per row: it carries a prefix of the key) before anything is sent.
 */
export interface ReconcileSettings {
  /** The service's key-retention window. */
  readonly keyRetentionMs: number;
  /** Reconcile this much before the window closes: the kiosk's and the service's clocks differ. */
  readonly marginMs: number;
}

export const defaultReconcileSettings: ReconcileSettings = {
  keyRetentionMs: 24 * 60 * 60 * 1000,
  marginMs: 10 * 60 * 1000,
};

/**
 * True when a blind resend could debit twice: an earlier attempt may have reached the service,
 * and that was long enough ago for the service to have forgotten the key. The window is counted
 * from the earliest such attempt, which can only be earlier than when the service stored the key.
 */
export function needsReconciliation(
  debit: OutboxDebit,
  now: number,
  settings: ReconcileSettings,
): boolean {
  if (debit.mayHaveReachedAt === null) return false;
  return now - debit.mayHaveReachedAt >= Math.max(0, settings.keyRetentionMs - settings.marginMs);
}

export type Reconciliation =
  /** The service applied it: the usage with our reference. */
  | { readonly result: 'found'; readonly usage: GiftCardUsage }
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
