import type { ItemEntry } from '../../shared/api/catalog.ts';
import type { SearchHit } from '../../shared/ipc/catalog.ts';

type Range = NonNullable<SearchHit['priceRange']>;

/** The lowest and highest of the prices the service gave, as a range; null when none is given. */
function rangeOf(prices: readonly (number | null | undefined)[]): Range | null {
  const given = prices.filter((price): price is number => typeof price === 'number');
  if (given.length === 0) return null;
  return { minInclTax: Math.min(...given), maxInclTax: Math.max(...given), currency: 'EUR' };
}

/**
 * One shop's prices for a product: the base and promotion prices of that shop's items, each as
 * the service computed it. The product's range spans every shop; at the counter, staff quote
 * this shop's.
 */
export function shopPrices(items: readonly ItemEntry[]): {
  readonly price: Range | null;
  readonly promotion: Range | null;
} {
  return {
    price: rangeOf(items.map((item) => item.price.inclTax)),
    promotion: rangeOf(items.map((item) => item.promotionPrice?.inclTax)),
  };
}
