import {
  type DebitView,
  GIFT_CARD_CODE_UNRECOGNISED,
  type giftCardMessages,
  type ListDebitsRequest,
} from '../../../shared/ipc/gift-cards.ts';
import { COUNTER_WAIT_MS } from '../../../shared/ipc/counter-wait.ts';
import { giftCardIdFromScan } from '../../../shared/profile/index.ts';
import { type CommerceApiClient, isCommerceApiError } from '../../api/index.ts';
import { IpcFailure, type KioskHandlers } from '../../ipc/index.ts';
import {
  cachedGiftCardLookupOf,
  giftCardLookupOf,
  type Outbox,
  type OutboxDebit,
  type OutboxSender,
} from '../../outbox/index.ts';
import { dayReportView, debitView, debitWithCardView, senderView } from '../views.ts';

export interface GiftCardHandlerDeps {
  readonly client: Pick<CommerceApiClient, 'getGiftCard'> & {
    readonly connectivity: Pick<CommerceApiClient['connectivity'], 'state'>;
  };
  readonly outbox: Outbox;
  readonly sender: OutboxSender;
}

/** Gift-card look-ups, and debits through the durable outbox. */
export function giftCardHandlers({
  client,
  outbox,
  sender,
}: GiftCardHandlerDeps): Pick<KioskHandlers, keyof typeof giftCardMessages> {
  const withCard = (debit: OutboxDebit): DebitView => debitWithCardView(debit, outbox);
  return {
    getGiftCard: async (request) => {
      const giftCardId =
        'code' in request ? giftCardIdFromScan(outbox.profile, request.code) : request.giftCardId;
      if (giftCardId === null) {
        throw new IpcFailure(
          GIFT_CARD_CODE_UNRECOGNISED,
          "this code does not match the integration profile's gift-card scan rule",
        );
      }
      const cached = () =>
        cachedGiftCardLookupOf(outbox.profile, giftCardId, outbox.knownCard(giftCardId));
      // Kept (without personal data) so that offline a debit is checked against this balance.
      const read = client
        .getGiftCard({
          params: { giftCardId },
          query: request.include === undefined ? {} : { include: request.include.join(',') },
        })
        .then((card) => {
          outbox.recordCard(card);
          return card;
        });
      // Known offline: the last read at once; the read goes on and refreshes the cache if it can.
      if (client.connectivity.state === 'offline') {
        read.catch(() => undefined);
        return cached();
      }
      // Not known: the counter waits COUNTER_WAIT_MS, then shows what the kiosk knows while the
      // read goes on in the background (its retries, the client's own timeouts).
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise<'late'>((resolve) => {
        timer = setTimeout(() => resolve('late'), COUNTER_WAIT_MS);
      });
      let card;
      try {
        card = await Promise.race([read, late]);
      } catch (error) {
        // Unreachable: staff can still debit offline, checked against the last read of it.
        if (isUnreachable(error)) return cached();
        throw error;
      } finally {
        clearTimeout(timer);
      }
      if (card === 'late') {
        read.catch(() => undefined);
        return cached();
      }
      return giftCardLookupOf(outbox.profile, card, giftCardId);
    },
    listRecentCards: (request) => ({
      cards: outbox.recentCards(request.limit ?? RECENT_CARDS).map((card) => ({
        id: card.giftCardId,
        maskedNumber: card.maskedNumber ?? '',
        readAt: new Date(card.readAt).toISOString(),
      })),
    }),
    debitGiftCard: async (request) => {
      const waitMs = request.waitMs ?? 0;
      // A retry of the same confirmation (its reply was lost) gets the debit already stored.
      // The card checks run whatever the connectivity; without a wait the offline limits too.
      const accepted = outbox.enqueue({
        requestId: request.requestId,
        giftCardId: request.giftCardId,
        amount: request.amount,
        policy: request.policy,
        ...(request.reference === undefined ? {} : { reference: request.reference }),
        waitMs,
      });
      // No wake here: the sender wakes on the outbox's `accepted` event, whoever enqueued.
      // No answer within the wait: the outbox decides the offline limits now, and a debit that
      // breaks them is refused (withdrawn, nothing sent) or kept for the service's answer
      // (OUTBOX_ANSWER_AWAITED: the screen asks again), never shown as stored offline.
      const outcome = await outbox.awaitAnswer(accepted.debit.id, waitMs);
      return {
        debit: debitView(seenAtTheCounter(outbox, outcome, accepted.replayed)),
        delivery: accepted.delivery,
        connectivity: accepted.connectivity,
        settled: outcome.settled,
        replayed: accepted.replayed,
      };
    },
    listDebits: (request) => ({
      debits: debitsOf(outbox, request.view, request.limit ?? 50).map(withCard),
    }),
    sendOutboxNow: () => {
      sender.wake();
      return { sender: senderView(sender.status) };
    },
    cancelDebit: (request) => debitView(outbox.cancel(request.debitId)),
    acknowledgeDebit: (request) => debitView(outbox.acknowledge(request.debitId)),
    resolveDebit: (request) => withCard(outbox.resolve(request.debitId, request.resolution)),
    getDayReport: (request) => dayReportView(outbox, request.date),
    getOutboxSummary: () => ({
      ...outbox.summary(),
      sender: senderView(sender.status),
      limits: { ...outbox.limits },
    }),
  };
}

/**
 * Refused (or failed) within the counter's wait, the reply puts it on screen in front of the
 * customer: it does not need attention after the fact, so no alert asks how it was collected.
 * A request sent again (its first reply lost) may reach staff after the customer left: it stays.
 */
function seenAtTheCounter(
  outbox: Outbox,
  outcome: { readonly settled: boolean; readonly debit: OutboxDebit },
  replayed: boolean,
): OutboxDebit {
  const { debit } = outcome;
  const onTheSpot = outcome.settled && !replayed && debit.acknowledgedAt === null;
  if (!onTheSpot || (debit.state !== 'refused' && debit.state !== 'failed')) return debit;
  return outbox.acknowledge(debit.id);
}

/** A short list: staff pick from it at a glance. */
const RECENT_CARDS = 5;

function isUnreachable(error: unknown): boolean {
  return (
    isCommerceApiError(error) &&
    (error.kind === 'NetworkError' ||
      error.kind === 'Timeout' ||
      error.kind === 'ServiceUnavailable')
  );
}

function debitsOf(outbox: Outbox, view: ListDebitsRequest['view'], limit: number): OutboxDebit[] {
  switch (view) {
    case 'open':
      return [...outbox.list({ state: 'pending' }), ...outbox.list({ state: 'sending' })]
        .sort((a, b) => a.id - b.id)
        .slice(0, limit);
    case 'attention':
      return outbox.attention(limit);
    case 'recent':
      return outbox.recent(limit);
  }
}
