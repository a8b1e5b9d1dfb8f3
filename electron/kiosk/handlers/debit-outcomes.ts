import { type debitOutcomeMessages, isOpenDebitState } from '../../../shared/ipc/gift-cards.ts';
import type { CommerceApiClient } from '../../api/index.ts';
import type { KioskHandlers } from '../../ipc/index.ts';
import {
  giftCardLookupOf,
  resolveUnknownOutcome,
  type Outbox,
  type OutboxSender,
} from '../../outbox/index.ts';
import { debitWithCardView } from '../views.ts';

export interface DebitOutcomeHandlerDeps {
  readonly client: Pick<CommerceApiClient, 'getGiftCard'>;
  readonly outbox: Outbox;
  readonly sender: Pick<OutboxSender, 'wake'>;
}

/**
 * A debit held as "outcome unknown": what the kiosk knows of it, the card's balance read from the
 * service now (evidence for the person deciding, never acted on by the kiosk itself), and the
 * person's word on it, with who and when.
 */
export function debitOutcomeHandlers({
  client,
  outbox,
  sender,
}: DebitOutcomeHandlerDeps): Pick<KioskHandlers, keyof typeof debitOutcomeMessages> {
  const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
  return {
    getDebitEvidence: async (request) => {
      const debit = outbox.get(request.debitId);
      let balanceNow: { amount: number; at: string } | null = null;
      if (isOpenDebitState(debit.state)) {
        try {
          const card = await client.getGiftCard({
            params: { giftCardId: debit.giftCardId },
            query: {},
          });
          const balance = giftCardLookupOf(outbox.profile, card, debit.giftCardId).balance;
          outbox.recordCard(card);
          if (typeof balance === 'number') {
            const now = outbox.clock.now();
            balanceNow = { amount: balance, at: iso(now)! };
            outbox.db.transaction(() =>
              outbox.store.recordBalanceNow(debit.id, Math.round(balance * 100), now),
            );
          }
        } catch {
          // Unreachable or refused: the evidence shows the last balance read while held.
        }
      }
      return {
        debit: debitWithCardView(outbox.get(debit.id), outbox),
        keys: outbox.keyHistory(debit.id).map((key) => ({
          key: key.idempotencyKey.slice(0, 8),
          firstUsedAt: iso(key.firstUsedAt),
          replacedAt: iso(key.replacedAt),
        })),
        firstAttemptAt: iso(debit.firstAttemptAt),
        balanceNow,
      };
    },
    resolveUnknownDebit: (request) => {
      const debit = resolveUnknownOutcome(outbox, request.debitId, {
        outcome: request.outcome,
        by: request.by,
      });
      if (request.outcome === 'not_applied') sender.wake();
      return debitWithCardView(debit, outbox);
    },
  };
}
