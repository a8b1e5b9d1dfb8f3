import type { z } from 'zod';
import type {
  CatalogProduct,
  CharacteristicEntry,
  ItemEntry,
  Media,
} from '../../shared/api/catalog.ts';
import type { ProductReference } from '../../shared/api/products.ts';
import type { ProductView, SearchHit, ShopAvailability } from '../../shared/ipc/catalog.ts';

/**
 * Answers made of what the service returned, from the mirror or live alike: fields are picked and
 * items grouped, never a price or a stock figure computed.
 */

/** `shopItems`: with a shop filter, that shop's items (the mirror has them; live does not). */
export function hitOf(
  product: CatalogProduct | ProductReference,
  shopItems: ItemEntry[] | null,
  availableShops: number | null = null,
): SearchHit {
  return {
    uuid: product.uuid,
    name: product.name,
    reference: product.reference,
    ean: product.ean,
    category: product.category,
    displayedOnline: product.displayedOnline,
    priceRange: product.priceRange,
    promotionPriceRange: product.promotionPriceRange,
    availableItemsCount: product.availableItemsCount,
    // Left out by the service for an account without `stock:read`.
    stock: product.stock ?? null,
    mainImage: mainImageOf(product.media),
    shopItems,
    availableShops,
  };
}

export function productViewOf(
  product: CatalogProduct | ProductReference,
  rest: Pick<ProductView, 'supplier' | 'stock' | 'characteristics'>,
): ProductView {
  return {
    uuid: product.uuid,
    reference: product.reference,
    ean: product.ean,
    name: product.name,
    description: product.description,
    displayedOnline: product.displayedOnline,
    quantityType: product.quantityType,
    category: product.category,
    priceRange: product.priceRange,
    promotionPriceRange: product.promotionPriceRange,
    media: product.media ?? [],
    mainImage: mainImageOf(product.media),
    updatedAt: product.updatedAt,
    supplier: rest.supplier,
    availableItemsCount: product.availableItemsCount,
    stock: rest.stock,
    characteristics: rest.characteristics,
  };
}

function mainImageOf(media: readonly z.infer<typeof Media>[] | undefined): string | null {
  return media?.find((entry) => entry.isMain)?.url ?? null;
}

/** The catalogue entry carries product-level characteristics on its items; one of each. */
export function productCharacteristics(
  items: readonly ItemEntry[],
): z.infer<typeof CharacteristicEntry>[] {
  const seen = new Map<string, z.infer<typeof CharacteristicEntry>>();
  for (const item of items) {
    for (const entry of item.characteristics) {
      if (entry.source === 'product' && !seen.has(entry.code)) seen.set(entry.code, entry);
    }
  }
  return [...seen.values()];
}

export function groupByShop(items: readonly ItemEntry[]): ShopAvailability[] {
  const groups = new Map<string | null, ShopAvailability>();
  for (const item of items) {
    const key = item.shop?.id ?? null;
    let group = groups.get(key);
    if (group === undefined) {
      group = { shop: item.shop, items: [] };
      groups.set(key, group);
    }
    group.items.push(item);
  }
  return [...groups.values()];
}
