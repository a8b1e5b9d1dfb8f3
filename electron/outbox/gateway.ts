import type { RecordViewOf } from '../../shared/profile/index.ts';
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
  /**
   * PUT /v1/gift-cards/{giftCardId} with `Idempotency-Key` and exactly `requestBody` (JSON text);
   * the service's receipt read through the integration profile.
   */
  debit(
    giftCardId: string,
    idempotencyKey: string,
    requestBody: string,
    options?: DebitSendOptions,
  ): Promise<RecordViewOf<'debitReceipt'>>;
  /**
   * GET /v1/gift-cards/{giftCardId} (with the profile's usages parameter), looking through the
   * profile for the usage with this reference.
   */
  findUsage(giftCardId: string, reference: string): Promise<UsageLookup>;
  /** The service's time, from the `Date` of every reply the methods above (and others) got. */
  readonly serviceClock: ServiceClock;
  /** Asks the service for its time once (a cheap public request); never rejects. */
  syncServiceTime(): Promise<void>;
}

/** How one debit attempt goes out. */
export interface DebitSendOptions {
  /**
   * On a connection opened for it alone, never a pooled keep-alive one: the sender asks it for a
   * debit that could never be stored offline (over `maxOfflineDebitAmount`), so that with the
   * link gone its connection never opens, nothing of it leaves the kiosk, and it can be withdrawn
   * and refused rather than held for a person.
   */
  readonly freshConnection?: boolean;
}

export type UsageLookup = (
  | { readonly status: 'found'; readonly usage: RecordViewOf<'giftCardUsage'> }
  /** Not among the usages the card came with: proof only if they are known to be filled. */
  | { readonly status: 'absent' }
  /**
   * The usages cannot tell: left out (the account lacks `sales:read`), not where the profile
   * looks, or the profile sends no reference to find.
   */
  | { readonly status: 'unavailable'; readonly reason: string }
) & {
  /** The card's balance as read with its usages (EUR), when the profile finds it. */
  readonly balance?: number | null;
};
