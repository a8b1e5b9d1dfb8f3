import type { CatalogChange } from '../../shared/api/catalog.ts';
import { createCatalogContext } from './catalog-context.ts';
import { productTemplates } from './catalog-templates.ts';
import { demoProducts } from './demo.ts';
import type { SandboxData } from './model.ts';
import { createProduct, newProductId } from './product-factory.ts';
import type { ProductFeatures } from './product-factory.ts';
import type { Random } from './random.ts';
import { DAY, HOUR, between, iso } from './time.ts';

/**
 * Seeds the catalogue and the part of the change journal that describes it.
 *
 * The journal covers the last `JOURNAL_DAYS` days, like a service that keeps a bounded history
 * (hence the spec's advice to resynchronize fully from time to time): every seeded product created
 * in that window has its `created` entry and every item last modified in it has its
 * `stock_updated`/`price_updated` entry, dated exactly like the record, so the feed agrees with
 * `updatedAt`. Older history is not journaled: a 100k catalogue does not need 100k entries to be
 * useful, and a client starts from a full synchronization anyway. Seeded products and items are
 * all dated before `now - 1 day`; the last day belongs to the journaled activity run by the seed.
 * Three products created and deleted within the window exist only as `created`/`deleted` entries.
 */

export const JOURNAL_DAYS = 7;

/** The last day before `now` is left to the journaled store activity. */
export const CATALOG_QUIET_BEFORE_NOW = DAY;

const showcase: readonly (readonly [string, ProductFeatures])[] = [
  [demoProducts.availableEverywhere, { firstItemStatus: 'available', inEveryShop: true }],
  [demoProducts.outOfStock, { firstItemStatus: 'out_of_stock' }],
  [demoProducts.sold, { firstItemStatus: 'sold' }],
  [demoProducts.reserved, { firstItemStatus: 'reserved' }],
  [demoProducts.withdrawn, { firstItemStatus: 'withdrawn' }],
  [demoProducts.unsalable, { firstItemStatus: 'unsalable' }],
  [demoProducts.hidden, { hidden: true }],
  [demoProducts.withoutName, { withoutName: true }],
  [demoProducts.withoutDescription, { withoutDescription: true }],
  [demoProducts.withoutCategory, { withoutCategory: true }],
  [demoProducts.unpriced, { unpriced: true }],
  [demoProducts.promoted, { allPromoted: true, firstItemStatus: 'available' }],
  [demoProducts.warehouseItem, { itemWithoutShop: true }],
];

/** Products created and deleted within the journal window: they exist only as feed entries. */
const RETIRED_PRODUCTS = 3;

export function seedCatalog(data: SandboxData, random: Random, count: number, now: number): void {
  const ctx = createCatalogContext(data);
  const until = now - CATALOG_QUIET_BEFORE_NOW;
  const windowStart = now - JOURNAL_DAYS * DAY;
  const windowStartIso = iso(windowStart);
  const journal: { at: number; change: CatalogChange }[] = [];

  for (let index = 0; index < count; index++) {
    const forced = showcase[index];
    let id = forced?.[0] ?? newProductId(random);
    while (data.products.has(id)) id = newProductId(random);
    const createdAt = between(random, now - 365 * DAY, until - HOUR);
    const product = createProduct(ctx, random, {
      id,
      serial: index + 1,
      createdAt,
      until,
      // The first products go through every product type, so even a small catalogue has them all.
      ...(index < productTemplates.length ? { template: productTemplates[index] } : {}),
      ...(forced ? { features: forced[1] } : {}),
    });
    data.products.set(id, product);

    if (createdAt >= windowStart) {
      journal.push({
        at: createdAt,
        change: { type: 'product', id, action: 'created', updatedAt: iso(createdAt) },
      });
    }
    // ISO strings of one format compare like the instants they denote; the product's updatedAt is
    // its latest item's, so most products are skipped with one comparison.
    if (product.updatedAt === null || product.updatedAt < windowStartIso) continue;
    for (const item of product.items) {
      if (item.updatedAt === null || item.updatedAt < windowStartIso) continue;
      const at = Date.parse(item.updatedAt);
      if (at <= createdAt) continue;
      journal.push({
        at,
        change: {
          type: 'product-item',
          id: item.uuid,
          productId: id,
          action: item.promotionPrice === null ? 'stock_updated' : 'price_updated',
          updatedAt: item.updatedAt,
        },
      });
    }
  }

  for (let i = 0; i < RETIRED_PRODUCTS; i++) {
    const id = newProductId(random);
    const createdAt = between(random, windowStart, until - 2 * DAY);
    const deletedAt = between(random, createdAt + HOUR, until);
    journal.push({
      at: createdAt,
      change: { type: 'product', id, action: 'created', updatedAt: iso(createdAt) },
    });
    journal.push({
      at: deletedAt,
      change: { type: 'product', id, action: 'deleted', updatedAt: iso(deletedAt) },
    });
  }

  // Stable sort: equal instants keep their insertion order, so the journal order is total.
  journal.sort((a, b) => a.at - b.at);
  for (const { change } of journal) data.changes.push(change);
}
