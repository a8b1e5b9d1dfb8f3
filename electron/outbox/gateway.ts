import type { GiftCardDebitReceipt, GiftCardUsage } from '../../shared/api/gift-cards.ts';
import type { ServiceClock } from '../api/index.ts';

/**
 * What the sender needs from the Commerce API, and no more: the outbox is tested against the
 * real client and the real sandbox, and this port keeps it independent of how the client is
 * built. `api-gateway.ts` adapts the client to it.
 *
 * Both methods reject with the client's typed errors (`electron/api/errors.ts`, told apart by
 * `kind`); the sender treats anything else as a failure of unknown outcome and retries it.
 * Neither method may retry on its own: each HTTP attempt must be recorded as an outbox attempt
 * (marked `sending` in the database first), so retries belong to the sender.
 */
export interface DebitGateway {
  /** PUT /v1/gift-cards/{giftCardId} with `Idempotency-Key` and exactly `requestBody` (JSON text). */
  debit(
    giftCardId: string,
    idempotencyKey: string,
    requestBody: string,
  ): Promise<GiftCardDebitReceipt>;
  /** GET /v1/gift-cards/{giftCardId}?include=usages, looking for the usage with this reference. */
  findUsage(giftCardId: string, reference: string): Promise<UsageLookup>;
  /** The service's time, from the `Date` of every reply the methods above (and others) got. */
  readonly serviceClock: ServiceClock;
  /** Asks the service for its time once (a cheap public request); never rejects. */
  syncServiceTime(): Promise<void>;
}

export type UsageLookup =
  | { readonly status: 'found'; readonly usage: GiftCardUsage }
  | { readonly status: 'absent' }
  /** The card was read but its usages were left out (the account lacks `sales:read`). */
  | { readonly status: 'unavailable'; readonly reason: string };
