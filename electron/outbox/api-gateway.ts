import {
  giftCardUsagesQuery,
  defaultProfile,
  type IntegrationProfile,
  type RecordViewOf,
  resolveRecord,
} from '../../shared/profile/index.ts';
import { COUNTER_CONNECT_MS } from '../../shared/ipc/counter-wait.ts';
import { type CommerceApiClient, JsonText, type RetryPolicyOverrides } from '../api/index.ts';
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

/** What the client's gift-card calls take and give, as far as the gateway relies on it. */
type DebitCall = (
  args: {
    params: { giftCardId: string };
    headers: { 'Idempotency-Key': string };
    body: JsonText;
  },
  options?: { freshConnection?: boolean; connectTimeoutMs?: number },
) => Promise<unknown>;
type CardCall = (args: {
  params: { giftCardId: string };
  query: Record<string, string>;
}) => Promise<unknown>;

/**
 * The debit body, the receipt and the card's usages are not shown in the contract: the gateway
 * reads and writes them through the integration profile in force at each call (`profile` is
 * read afresh, so an administrator's switch applies to the next request).
 */
export function createApiGateway(
  client: CommerceApiClient,
  profile: () => IntegrationProfile = () => defaultProfile,
): DebitGateway {
  // The body and replies are the profile's business, not the client's types.
  const debitGiftCard = client.debitGiftCard.bind(client) as unknown as DebitCall;
  const getGiftCard = client.getGiftCard.bind(client) as unknown as CardCall;
  return {
    debit: async (giftCardId, idempotencyKey, requestBody, options) => {
      // The stored text itself, never re-serialised: these exact bytes go out on every attempt.
      const reply = await debitGiftCard(
        {
          params: { giftCardId },
          headers: { 'Idempotency-Key': idempotencyKey },
          body: new JsonText(requestBody),
        },
        // A connection of its own opens within the counter's wait, or the attempt ends unsent
        // before it: a debit over the offline limits is then withdrawn, not held for a person.
        options?.freshConnection === true
          ? { freshConnection: true, connectTimeoutMs: COUNTER_CONNECT_MS }
          : { freshConnection: false },
      );
      return resolveRecord(profile(), 'debitReceipt', reply) as RecordViewOf<'debitReceipt'>;
    },

    findUsage: async (giftCardId, reference) => {
      const current = profile();
      if (current.giftCardDebit.body.reference === null) {
        return {
          status: 'unavailable',
          reason: 'the integration profile sends no reference, so no usage can be told ours',
        };
      }
      const card = await getGiftCard({
        params: { giftCardId },
        query: giftCardUsagesQuery(current),
      });
      const view = resolveRecord(current, 'giftCard', card) as RecordViewOf<'giftCard'>;
      const { usages } = view;
      const balance = typeof view.balance === 'number' ? view.balance : null;
      if (usages === null) {
        return {
          balance,
          status: 'unavailable',
          reason:
            'the card came without usages where the integration profile looks for them (the account may need sales:read, or the profile records.giftCard.usages is wrong)',
        };
      }
      const usage = usages.find((entry) => entry.reference === reference);
      if (usage) return { status: 'found', usage, balance };
      // A usage whose reference the profile cannot read may be ours: never guess "absent".
      if (usages.some((entry) => entry.reference === null)) {
        return {
          balance,
          status: 'unavailable',
          reason:
            'some usages carry no reference where the integration profile looks (records.giftCardUsage.reference)',
        };
      }
      return { status: 'absent', balance };
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
