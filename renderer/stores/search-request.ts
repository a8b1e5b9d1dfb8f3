import type { SearchProductsRequest } from '../../shared/ipc/catalog.ts';

/** The contract's largest page: fewer round trips while a long list is scrolled. */
export const SEARCH_PAGE_SIZE = 100;

/**
 * The first page of an answer, sent at every pause in the typing: enough rows to fill a portrait
 * 1080x1920 screen (about 16 rows of 104 px) and its overscan without the list asking for more at
 * once, while a keystroke's answer is read, sent, checked and kept for 40 products, not 100.
 */
export const FIRST_PAGE_SIZE = 40;

/**
 * A page of the availability search, built in one place: the first screen's request leaves
 * before the store exists, and its reply is used only if the store asks exactly the same.
 */
export function searchRequestOf(
  text: string,
  shopId: string | null,
  offset: number,
): SearchProductsRequest & { readonly limit: number } {
  return {
    text: text.trim(),
    // Around the chosen shop, not only in it: what it does not carry says where it is.
    ...(shopId === null ? {} : { nearShopId: shopId }),
    limit: offset === 0 ? FIRST_PAGE_SIZE : SEARCH_PAGE_SIZE,
    offset,
  };
}
