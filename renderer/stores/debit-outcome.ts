import type { DebitGiftCardReply, DebitView } from '../../shared/ipc/gift-cards.ts';

/**
 * What staff need to know about a debit, from main's view of it:
 * - `applied`: the service recorded it (its new balance, when known);
 * - `refused`: the service said no (its reason is `debit.lastError`);
 * - `storedOffline`: kept on this kiosk and sent when the service answers again;
 * - `waiting`: sent, the answer has not come yet;
 * - `failed`, `expired`, `cancelled`: over without being applied.
 */
export type DebitOutcome =
  'applied' | 'refused' | 'storedOffline' | 'waiting' | 'failed' | 'expired' | 'cancelled';

export function outcomeOf(
  debit: DebitView,
  delivery: DebitGiftCardReply['delivery'] | null,
): DebitOutcome {
  switch (debit.state) {
    case 'applied':
    case 'refused':
    case 'failed':
    case 'expired':
    case 'cancelled':
      return debit.state;
    case 'pending':
    case 'sending':
      // A debit that met a failure is on the retry path: for the counter it is stored offline.
      return debit.acceptedOffline || delivery === 'stored-offline' || debit.lastError !== null
        ? 'storedOffline'
        : 'waiting';
  }
}
