import { describe, expect, test } from 'vitest';
import type { ItemEntry } from '../../../shared/api/catalog.ts';
import { derivedCatalogFields } from '../../../sandbox/data/catalog-projection.ts';
import type { CatalogFilter } from '../../../sandbox/data/catalog-projection.ts';
import { derivedCatalogFields as fromActivity } from '../../../sandbox/data/activity.ts';
import { availabilityOf } from '../../../sandbox/data/availability.ts';
import { demoProducts } from '../../../sandbox/data/demo.ts';
import type { StoredProduct } from '../../../sandbox/data/model.ts';
import { priceFromCents, unpricedPrice } from '../../../sandbox/data/money.ts';
import { seedData } from '../../../sandbox/data/seed.ts';

const now = new Date('2026-03-15T10:00:00.000Z');
const data = seedData({ seed: 1, now });
const products = [...data.products.values()];

let serial = 0;

function item(overrides: Partial<ItemEntry> & { shopId?: string | null }): ItemEntry {
  const { shopId = 'shop_a', ...rest } = overrides;
  return {
    uuid: `item_test${(serial += 1)}`,
    code: null,
    price: priceFromCents(10000),
    promotionPrice: null,
    quantity: 1,
    availability: availabilityOf('available', 1, null),
    shop: shopId === null ? null : { id: shopId, name: shopId, shortName: null, city: null },
    characteristics: [],
    inStockDate: null,
    updatedAt: null,
    ...rest,
  };
}

function productWith(items: ItemEntry[]): StoredProduct {
  const base = products[0];
  if (base === undefined) throw new Error('no product');
  return { ...base, items };
}

describe('derivedCatalogFields', () => {
  test('is also exported from activity.ts', () => {
    expect(fromActivity).toBe(derivedCatalogFields);
  });

  test('invariants on every seeded product, unfiltered, per shop and available only', () => {
    for (const product of products) {
      const filters: CatalogFilter[] = [
        {},
        { availableOnly: true },
        ...data.shops.map((s) => ({ shopId: s.id })),
        { shopId: data.shops[0]?.id, availableOnly: true },
      ];
      for (const filter of filters) {
        const derived = derivedCatalogFields(product, filter);
        expect(derived.availableItemsCount).toBe(
          derived.items.filter((i) => i.availability.available).length,
        );
        expect(derived.stock.available).toBe(derived.availableItemsCount > 0);
        const prices = derived.items.map((i) => i.price.inclTax).filter((p) => p !== null);
        if (prices.length === 0) expect(derived.priceRange).toBeNull();
        else {
          expect(derived.priceRange).toEqual({
            minInclTax: Math.min(...prices),
            maxInclTax: Math.max(...prices),
            currency: 'EUR',
          });
          expect(derived.priceRange?.minInclTax).toBeLessThanOrEqual(
            derived.priceRange?.maxInclTax ?? -1,
          );
        }
        const promos = derived.items
          .map((i) => i.promotionPrice?.inclTax ?? null)
          .filter((p) => p !== null);
        if (promos.length === 0) expect(derived.promotionPriceRange).toBeNull();
        else expect(derived.promotionPriceRange?.minInclTax).toBe(Math.min(...promos));
        if (filter.shopId !== undefined)
          expect(derived.items.every((i) => i.shop?.id === filter.shopId)).toBe(true);
        if (filter.availableOnly)
          expect(derived.items.every((i) => i.availability.available)).toBe(true);
      }
    }
  });

  test('a shop filter narrows the items, and a shop without items gives an empty view', () => {
    const everywhere = data.products.get(demoProducts.availableEverywhere);
    if (everywhere === undefined) throw new Error('demo product missing');
    const all = derivedCatalogFields(everywhere);
    const shopId = data.shops[1]?.id ?? '';
    const one = derivedCatalogFields(everywhere, { shopId });
    expect(one.items.length).toBeGreaterThan(0);
    expect(one.items.length).toBeLessThan(all.items.length);
    const none = derivedCatalogFields(everywhere, { shopId: 'shop_nowhere' });
    expect(none).toEqual({
      availableItemsCount: 0,
      stock: { available: false, totalQuantity: null },
      priceRange: null,
      promotionPriceRange: null,
      items: [],
    });
  });

  test('stock: total of the available quantities; null when no quantity is known', () => {
    const product = productWith([
      item({ quantity: 3, availability: availabilityOf('available', 3, null) }),
      item({ quantity: 2, availability: availabilityOf('available', 2, null), shopId: 'shop_b' }),
      item({ quantity: 1, availability: availabilityOf('reserved', 1, 'Réservé') }),
      item({ quantity: null, availability: availabilityOf('withdrawn', null, 'Rappel') }),
    ]);
    expect(derivedCatalogFields(product).stock).toEqual({ available: true, totalQuantity: 5 });
    expect(derivedCatalogFields(product, { shopId: 'shop_b' }).stock).toEqual({
      available: true,
      totalQuantity: 2,
    });
    expect(derivedCatalogFields(product).availableItemsCount).toBe(2);
    const unknown = productWith([
      item({ quantity: null, availability: availabilityOf('withdrawn', null, 'Rappel') }),
    ]);
    expect(derivedCatalogFields(unknown).stock).toEqual({ available: false, totalQuantity: null });
    const soldOut = productWith([
      item({ quantity: 0, availability: availabilityOf('sold', 0, 'Vendu') }),
    ]);
    expect(derivedCatalogFields(soldOut).stock).toEqual({ available: false, totalQuantity: 0 });
  });

  test('price ranges ignore unpriced items and cover promotions separately', () => {
    const product = productWith([
      item({ price: priceFromCents(19999), promotionPrice: priceFromCents(14999) }),
      item({ price: priceFromCents(24999) }),
      item({ price: unpricedPrice() }),
    ]);
    const derived = derivedCatalogFields(product);
    expect(derived.priceRange).toEqual({ minInclTax: 199.99, maxInclTax: 249.99, currency: 'EUR' });
    expect(derived.promotionPriceRange).toEqual({
      minInclTax: 149.99,
      maxInclTax: 149.99,
      currency: 'EUR',
    });
    expect(
      derivedCatalogFields(productWith([item({ price: unpricedPrice() })])).priceRange,
    ).toBeNull();
  });

  test('availableOnly keeps the available items only, in stored order', () => {
    const a = item({ quantity: 2, availability: availabilityOf('available', 2, null) });
    const b = item({ quantity: 0, availability: availabilityOf('out_of_stock', 0, 'Rupture') });
    const c = item({ quantity: 1, availability: availabilityOf('available', 1, null) });
    expect(derivedCatalogFields(productWith([a, b, c]), { availableOnly: true }).items).toEqual([
      a,
      c,
    ]);
  });
});
