import type { CreditEntry, CustomerEntry, ShopEntry } from '../../shared/ipc/records.ts';
import {
  type IntegrationProfile,
  type RecordKind,
  type RecordViewOf,
  hasNextPageOf,
  statusIn,
  viewOf,
} from '../../shared/profile/index.ts';

/**
 * The service's 'not shown' replies as the renderer gets them: read through the integration
 * profile in main, so a screen never meets the service's own shapes (a value the profile cannot
 * find is null, 'not provided by the service'; every other scalar rides along in `otherFields`).
 */

export function listView<K extends RecordKind>(
  profile: IntegrationProfile,
  kind: K,
  reply: { readonly data: readonly unknown[] },
): { data: RecordViewOf<K>[]; hasNextPage: boolean } {
  return {
    data: reply.data.map((raw) => viewOf(profile, kind, raw)),
    hasNextPage: hasNextPageOf(reply),
  };
}

/** `uuid` is the customer's durable link (the spec's); the client checked it is there. */
export function customerEntryOf(
  profile: IntegrationProfile,
  raw: { readonly uuid: string },
): CustomerEntry {
  const view = viewOf(profile, 'customer', raw);
  return {
    ...view,
    id: raw.uuid,
    isCompany: statusIn(profile.statuses.customerIsCompany, view.customerType),
  };
}

export function creditEntryOf(profile: IntegrationProfile, raw: unknown): CreditEntry {
  const view = viewOf(profile, 'credit', raw);
  return { ...view, isGiftCard: statusIn(profile.statuses.creditIsGiftCard, view.type) };
}

export function shopEntryOf(profile: IntegrationProfile, raw: { readonly id: string }): ShopEntry {
  return { ...viewOf(profile, 'shop', raw), id: raw.id };
}
