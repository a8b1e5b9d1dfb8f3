import type { ScreenName } from '../stores/navigation-store.ts';

/** Where a scanned code takes staff. */
export type ScanRoute =
  | { readonly to: 'product'; readonly code: string }
  | { readonly to: 'document'; readonly code: string }
  | { readonly to: 'giftCard'; readonly code: string };

/** The numbers printed on receipts: sales (V-), invoices (F-), after-sales cases (SAV-). */
const DOCUMENT_NUMBER = /^(?:V|F|SAV)-[\w-]+$/i;
/**
 * A scan's destination by what it is. On the gift-card screen any other code is a card (cards
 * are often plain digits); elsewhere an EAN or a product reference opens the product, and a card
 * is recognised by the service's own prefix.
 */
export function routeOf(code: string, screen: ScreenName): ScanRoute {
  if (DOCUMENT_NUMBER.test(code)) return { to: 'document', code };
  if (screen === 'giftCard' || code.startsWith('gift_card_')) return { to: 'giftCard', code };
  // An EAN or a reference: the catalogue search finds either.
  return { to: 'product', code };
}
