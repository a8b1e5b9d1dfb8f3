import type { GiftCardDebit } from '../../shared/api/gift-cards.ts';
import type { CommerceApiClient, RetryPolicyOverrides } from '../api/index.ts';
import type { ConnectivityStatus } from './events.ts';
import type { DebitGateway } from './gateway.ts';

/**
 * The real Commerce API client behind the sender's port.
 *
 * Give the outbox a client built with `outboxClientRetry`: the client then makes one HTTP attempt
 * per debit call (its 401 renew-and-resend still happens inside), and every retry goes through the
 * sender, which commits `sending` and the attempt number first. A client with its default policy
 * also works (it resends the same key and bytes), but the rows would under-count attempts.
 */
export const outboxClientRetry: RetryPolicyOverrides = {
  rules: { idempotentWrite: { maxAttempts: 1 } },
};

export function createApiGateway(client: CommerceApiClient): DebitGateway {
  return {
    debit: (giftCardId, idempotencyKey, requestBody) =>
      // The stored text was produced by the same schema and JSON.stringify the client applies,
      // so the client re-serialises it to exactly these bytes on every attempt.
      client.debitGiftCard({
        params: { giftCardId },
        headers: { 'Idempotency-Key': idempotencyKey },
        body: JSON.parse(requestBody) as GiftCardDebit,
      }),

    findUsage: async (giftCardId, reference) => {
      const card = await client.getGiftCard({
        params: { giftCardId },
        query: { include: 'usages' },
      });
      if (card.usages === undefined) {
        return {
          status: 'unavailable',
          reason: 'the service left the usages out (the integration account needs sales:read)',
        };
      }
      const usage = card.usages.find((entry) => entry.reference === reference);
      return usage ? { status: 'found', usage } : { status: 'absent' };
    },

    serviceClock: client.serviceClock,

    syncServiceTime: async () => {
      try {
        // Any reply is dated, an error status included: only the Date matters here.
        await client.health();
      } catch {
        // Unreachable: the reading stays what it was, and decisions stay on the safe side.
      }
    },
  };
}

/** The client's connectivity monitor as the outbox reads it. */
export function connectivityOf(client: CommerceApiClient): () => ConnectivityStatus {
  return () => client.connectivity.state;
}
