import type { CachedGiftCard, ServiceGiftCard } from '../../shared/ipc/gift-cards.ts';
import {
  type IntegrationProfile,
  type RecordViewOf,
  resolveRecord,
} from '../../shared/profile/index.ts';
import type { CachedCard } from './card-cache.ts';
import { debitableByStatus } from './offline-card-check.ts';

/**
 * A gift card as the look-up screen shows it: the service's reply read through the integration
 * profile, `debitable` by the profile's statuses (null when the status is not provided). The
 * client checked the card's identifier; `giftCardId` (the one asked for) stands in only if the
 * profile finds none.
 */
export function giftCardLookupOf(
  profile: IntegrationProfile,
  raw: unknown,
  giftCardId?: string,
): ServiceGiftCard {
  const view = resolveRecord(profile, 'giftCard', raw) as RecordViewOf<'giftCard'>;
  const id = view.id ?? giftCardId;
  if (id === undefined) throw new TypeError('the gift card came without an identifier');
  return { ...view, source: 'service', id, debitable: debitableByStatus(profile, view.status) };
}

/**
 * Offline, the card as this kiosk last read it (`asOf`), or, never read here, its id alone
 * (every value null).
 */
export function cachedGiftCardLookupOf(
  profile: IntegrationProfile,
  giftCardId: string,
  known: CachedCard | undefined,
): CachedGiftCard {
  const status = known?.status ?? null;
  return {
    source: 'cache',
    id: giftCardId,
    maskedNumber: known?.maskedNumber ?? null,
    status,
    balance: known?.balance ?? null,
    expiresOn: known?.expiresOn ?? null,
    asOf: known ? new Date(known.readAt).toISOString() : null,
    debitable: debitableByStatus(profile, status),
  };
}
