import type { z } from 'zod';
import type { CatalogProduct, ItemEntry, PriceRange, Stock } from '../../shared/api/catalog.ts';
import type { StoredProduct } from './model.ts';

/**
 * The fields the service computes from a product's items, as it answers: the same filter that
 * narrows the items (a shop, available items only) narrows the counts, the stock and the price
 * ranges, so a per-shop view never shows another shop's price or stock.
 */

export interface CatalogFilter {
  /** Only the items of this shop (items without a shop never match). */
  shopId?: string;
  /** Only the items whose computed availability is true. */
  availableOnly?: boolean;
}

export interface DerivedCatalogFields {
  /** Items whose `availability.available` is true. */
  availableItemsCount: number;
  /**
   * `available`: at least one available item. `totalQuantity`: the sellable quantity (sum over the
   * available items), or null when no item in view has a known quantity.
   */
  stock: z.infer<typeof Stock>;
  /** Min and max base price tax included over the items in view; null when none is priced. */
  priceRange: z.infer<typeof PriceRange> | null;
  /** The same over the promotion prices; null when no item in view is on promotion. */
  promotionPriceRange: z.infer<typeof PriceRange> | null;
  /** The items in view, in stored order. */
  items: ItemEntry[];
}

export function filterItems(items: readonly ItemEntry[], filter: CatalogFilter): ItemEntry[] {
  if (filter.shopId === undefined && !filter.availableOnly) return [...items];
  return items.filter(
    (item) =>
      (filter.shopId === undefined || item.shop?.id === filter.shopId) &&
      (!filter.availableOnly || item.availability.available),
  );
}

export function derivedCatalogFields(
  product: StoredProduct,
  filter: CatalogFilter = {},
): DerivedCatalogFields {
  const items = filterItems(product.items, filter);
  let availableItemsCount = 0;
  let totalQuantity: number | null = null;
  let minPrice = Infinity;
  let maxPrice = -Infinity;
  let minPromo = Infinity;
  let maxPromo = -Infinity;
  for (const item of items) {
    if (item.quantity !== null) totalQuantity ??= 0;
    if (item.availability.available) {
      availableItemsCount += 1;
      if (item.quantity !== null) totalQuantity = (totalQuantity ?? 0) + item.quantity;
    }
    const price = item.price.inclTax;
    if (price !== null) {
      if (price < minPrice) minPrice = price;
      if (price > maxPrice) maxPrice = price;
    }
    const promo = item.promotionPrice?.inclTax ?? null;
    if (promo !== null) {
      if (promo < minPromo) minPromo = promo;
      if (promo > maxPromo) maxPromo = promo;
    }
  }
  return {
    availableItemsCount,
    stock: { available: availableItemsCount > 0, totalQuantity },
    priceRange:
      minPrice === Infinity
        ? null
        : { minInclTax: minPrice, maxInclTax: maxPrice, currency: 'EUR' },
    promotionPriceRange:
      minPromo === Infinity
        ? null
        : { minInclTax: minPromo, maxInclTax: maxPromo, currency: 'EUR' },
    items,
  };
}

/** What describes a product, copied as stored into the catalogue entry and the product reference. */
export function describingFields(product: StoredProduct) {
  return {
    uuid: product.uuid,
    reference: product.reference,
    ean: product.ean,
    name: product.name,
    description: product.description,
    displayedOnline: product.displayedOnline,
    quantityType: product.quantityType,
    category: product.category,
  };
}

/** The catalogue entry of `GET /v1/catalog/products`: stored fields minus the reference-only ones, plus the derived ones. */
export function toCatalogProduct(
  product: StoredProduct,
  filter: CatalogFilter = {},
): CatalogProduct {
  const derived = derivedCatalogFields(product, filter);
  return {
    ...describingFields(product),
    priceRange: derived.priceRange,
    promotionPriceRange: derived.promotionPriceRange,
    availableItemsCount: derived.availableItemsCount,
    stock: derived.stock,
    media: product.media,
    updatedAt: product.updatedAt,
    supplier: product.supplier,
    items: derived.items,
  };
}
