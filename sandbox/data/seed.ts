import { catalogueEditKinds, runActivity } from './activity.ts';
import { productTemplates, createCharacteristicValues } from './catalog-templates.ts';
import type { SandboxData, SeedOptions, StoredProduct } from './model.ts';
import { Random } from './random.ts';
import {
  createCategories,
  createCharacteristics,
  createProductTypes,
  createShops,
  createSuppliers,
} from './referentials.ts';
import type { SaleDraft } from './sale-drafts.ts';
import { finalizeSales } from './sale-drafts.ts';
import { seedCatalog } from './seed-catalog.ts';
import { seedCreditNotes, settleCreditNotes } from './seed-credits.ts';
import { seedCustomers } from './seed-customers.ts';
import { linkGiftCards, seedGiftCards } from './seed-gift-cards.ts';
import { seedOrders } from './seed-orders.ts';
import { seedSales } from './seed-sales.ts';
import { seedSav } from './seed-sav.ts';
import { HOUR, MINUTE } from './time.ts';

export {
  ambiguousEmail,
  demoCustomers,
  demoGiftCardBalances,
  demoGiftCards,
  demoProducts,
  demoSales,
  demoSav,
} from './demo.ts';

/**
 * The sandbox's demo database: a French home-electronics and appliance chain with six shops.
 * Deterministic for a given seed and `now`: each part draws from its own stream (catalogue,
 * customers, commerce, recent activity), so `--products 100000` changes the catalogue and nothing
 * else. Every timestamp is at or before `now`.
 */

export const DEFAULT_PRODUCT_COUNT = 200;
export const RANDOM_GIFT_CARDS = 26;
/** Sales lines, orders and SAV cases pick their products among the first ones of the catalogue. */
const COMMERCE_PRODUCT_POOL = 200;
/** Hours of journaled store activity before `now`, so the change feed has content at start-up. */
const HISTORY_HOURS = 24;

export function seedData(options: SeedOptions): SandboxData {
  const count = options.products ?? DEFAULT_PRODUCT_COUNT;
  if (!Number.isSafeInteger(count) || count < 0)
    throw new RangeError(`products must be a non-negative integer, got ${count}`);
  const now = options.now.getTime();
  if (!Number.isFinite(now)) throw new RangeError('now must be a valid date');
  const root = new Random(options.seed);

  const data: SandboxData = {
    shops: createShops(),
    categories: createCategories(),
    productTypes: createProductTypes(productTemplates),
    characteristics: createCharacteristics(),
    characteristicValues: createCharacteristicValues(),
    suppliers: createSuppliers(),
    products: new Map(),
    customers: new Map(),
    sales: new Map(),
    invoices: new Map(),
    sav: new Map(),
    savLogs: new Map(),
    credits: new Map(),
    orders: new Map(),
    giftCards: new Map(),
    changes: [],
  };

  seedCatalog(data, root.fork('catalog'), count, now);
  const pool = commercePool(data);

  seedCustomers(data, root.fork('customers'), now);
  const commerce = root.fork('commerce');
  const mainCreditNote = seedCreditNotes(data, commerce, now);
  const drafts: SaleDraft[] = [];
  const cards = seedGiftCards(data, commerce, now, pool, drafts, mainCreditNote, RANDOM_GIFT_CARDS);
  seedSales(data, commerce, pool, drafts, now);
  finalizeSales(data, commerce, drafts, now);
  linkGiftCards(data, cards);
  settleCreditNotes(data, now);
  for (const credits of data.credits.values())
    credits.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  seedSav(data, commerce, pool, now);
  seedOrders(data, commerce, pool, now);

  seedRecentActivity(data, root.fork('history'), now);
  return data;
}

function commercePool(data: SandboxData): StoredProduct[] {
  // The first N products, not the first N priced ones: the pool must not depend on the catalogue size.
  return [...data.products.values()]
    .slice(0, COMMERCE_PRODUCT_POOL)
    .filter((product) => product.items.some((item) => item.price.inclTax !== null));
}

/**
 * The last day's store activity, journaled: repricing, stock moves, visibility and media changes.
 * Creations, deletions and referential edits are left to the live activity so that the seeded
 * catalogue keeps exactly the requested size and the referentials their documented names.
 */
function seedRecentActivity(data: SandboxData, random: Random, now: number): void {
  for (let hoursAgo = HISTORY_HOURS; hoursAgo >= 1; hoursAgo--) {
    const at = now - hoursAgo * HOUR + random.int(0, 50) * MINUTE;
    runActivity(data, random, new Date(at), random.int(1, 3), catalogueEditKinds);
  }
}
