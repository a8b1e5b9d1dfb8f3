import type { AvailabilityStatus, CatalogChange, ItemEntry } from '../../shared/api/catalog.ts';
import { availabilityOf, stockInStatus } from './availability.ts';
import { createCatalogContext } from './catalog-context.ts';
import { commonSentences } from './catalog-templates.ts';
import { protectedProductIds } from './demo.ts';
import type { SandboxData, StoredProduct } from './model.ts';
import { priceFromCents, retailCents, toCents } from './money.ts';
import { createProduct, mediaUrl, newProductId, promotionCents } from './product-factory.ts';
import type { Random } from './random.ts';
import { characteristicDefinitions } from './referentials.ts';
import { dateOnly, iso } from './time.ts';

export { derivedCatalogFields } from './catalog-projection.ts';

/**
 * Simulated store activity: what staff and the head office do to the catalogue during a day
 * (repricing, sales and deliveries, putting products online, new photos, new and discontinued
 * products, occasional referential edits). Each step applies one change to `data` and journals it,
 * so the change feed always describes what the catalogue routes return.
 *
 * Catalogue sub-objects (prices, availabilities, characteristic arrays) may be shared between
 * records, so a change replaces them instead of editing them in place; referential labels are the
 * one exception (see updateReferential).
 */

export type ActivityKind =
  | 'price'
  | 'stock'
  | 'visibility'
  | 'media'
  | 'product-created'
  | 'product-deleted'
  | 'product-updated'
  | 'referential-updated';

const kindWeights: readonly (readonly [ActivityKind, number])[] = [
  ['price', 28],
  ['stock', 28],
  ['visibility', 9],
  ['media', 9],
  ['product-created', 8],
  ['product-deleted', 5],
  ['product-updated', 6],
  // Rare, as in a real back office; each one walks the whole catalogue.
  ['referential-updated', 4],
];

export const allActivityKinds: readonly ActivityKind[] = kindWeights.map(([kind]) => kind);

/** Activity that keeps the product count and the referentials as seeded (used for the seeded history). */
export const catalogueEditKinds: readonly ActivityKind[] = [
  'price',
  'stock',
  'visibility',
  'media',
  'product-updated',
];

/**
 * Runs `steps` steps of activity at `at` and returns the changes, also appended to `data.changes`
 * (one change per step).
 * The n-th change is dated `at + n` ms, or just after the last journal entry if that is later, so
 * the journal stays ordered and no change lands before one already handed out.
 */
export function advanceActivity(
  data: SandboxData,
  random: Random,
  at: Date,
  steps: number,
): CatalogChange[] {
  return runActivity(data, random, at, steps, allActivityKinds);
}

export function runActivity(
  data: SandboxData,
  random: Random,
  at: Date,
  steps: number,
  kinds: readonly ActivityKind[],
): CatalogChange[] {
  const weights = kindWeights.filter(([kind]) => kinds.includes(kind));
  if (weights.length === 0) throw new Error('runActivity: no activity kind allowed');
  const last = data.changes.at(-1);
  const start = Math.max(
    at.getTime(),
    last === undefined ? -Infinity : Date.parse(last.updatedAt) + 1,
  );
  const ids = [...data.products.keys()];
  const changes: CatalogChange[] = [];

  for (let step = 0; step < steps; step++) {
    const ctx: StepContext = { data, random, ids, at: iso(start + step), atMs: start + step };
    // A kind can find nothing to act on (no priced item, only demo products): draw again, then
    // fall back to a referential edit, which always can; with neither allowed the step is skipped.
    let change: CatalogChange | null = null;
    for (let attempt = 0; attempt < 5 && change === null; attempt++)
      change = applyKind(ctx, random.weighted(weights));
    if (change === null && kinds.includes('referential-updated')) change = updateReferential(ctx);
    if (change === null) continue;
    changes.push(change);
    data.changes.push(change);
  }
  return changes;
}

interface StepContext {
  data: SandboxData;
  random: Random;
  /** Product ids at the start of the batch plus those created since; deleted ones are skipped on lookup. */
  ids: string[];
  at: string;
  atMs: number;
}

function applyKind(ctx: StepContext, kind: ActivityKind): CatalogChange | null {
  switch (kind) {
    case 'price':
      return updatePrice(ctx);
    case 'stock':
      return updateStock(ctx);
    case 'visibility':
      return toggleVisibility(ctx);
    case 'media':
      return updateMedia(ctx);
    case 'product-created':
      return createNewProduct(ctx);
    case 'product-deleted':
      return deleteProduct(ctx);
    case 'product-updated':
      return updateProduct(ctx);
    case 'referential-updated':
      return updateReferential(ctx);
  }
}

/** A random product activity may touch (never a demo product), or null after a few misses. */
function pickProduct(
  ctx: StepContext,
  accept: (product: StoredProduct) => boolean = () => true,
): StoredProduct | null {
  for (let attempt = 0; attempt < 25 && ctx.ids.length > 0; attempt++) {
    const id = ctx.random.pick(ctx.ids);
    const product = ctx.data.products.get(id);
    if (product !== undefined && !protectedProductIds.has(id) && accept(product)) return product;
  }
  return null;
}

function itemChange(
  ctx: StepContext,
  product: StoredProduct,
  item: ItemEntry,
  action: CatalogChange['action'],
): CatalogChange {
  item.updatedAt = ctx.at;
  product.updatedAt = ctx.at;
  return {
    type: 'product-item',
    id: item.uuid,
    productId: product.uuid,
    action,
    updatedAt: ctx.at,
  };
}

function productChange(
  ctx: StepContext,
  product: StoredProduct,
  action: CatalogChange['action'],
): CatalogChange {
  product.updatedAt = ctx.at;
  return { type: 'product', id: product.uuid, action, updatedAt: ctx.at };
}

function updatePrice(ctx: StepContext): CatalogChange | null {
  const priced = (item: ItemEntry) => item.price.inclTax !== null;
  const product = pickProduct(ctx, (p) => p.items.some(priced));
  if (product === null) return null;
  const item = ctx.random.pick(product.items.filter(priced));
  const baseCents = toCents(item.price.inclTax ?? 0);
  const { random } = ctx;
  if (item.promotionPrice !== null && random.chance(0.5)) {
    item.promotionPrice = null; // the promotion ends
  } else if (item.promotionPrice === null && random.chance(0.5)) {
    const promo = promotionCents(random, baseCents);
    if (promo === null) return null;
    item.promotionPrice = priceFromCents(promo);
  } else {
    let newCents = retailCents((baseCents / 100) * random.float(0.9, 1.1));
    if (newCents === baseCents) newCents += 100;
    item.price = priceFromCents(newCents);
    // A promotion must stay strictly below the base price.
    const promo = item.promotionPrice?.inclTax ?? null;
    if (promo !== null && toCents(promo) >= newCents) item.promotionPrice = null;
  }
  return itemChange(ctx, product, item, 'price_updated');
}

const nextStatus: Record<AvailabilityStatus, readonly (readonly [AvailabilityStatus, number])[]> = {
  available: [
    ['available', 40],
    ['sold', 20],
    ['reserved', 20],
    ['out_of_stock', 15],
    ['withdrawn', 5],
  ],
  out_of_stock: [
    ['available', 80],
    ['withdrawn', 20],
  ],
  sold: [
    ['available', 70],
    ['out_of_stock', 30],
  ],
  reserved: [
    ['available', 50],
    ['sold', 50],
  ],
  withdrawn: [
    ['available', 50],
    ['unsalable', 50],
  ],
  unsalable: [
    ['available', 50],
    ['withdrawn', 50],
  ],
};

function updateStock(ctx: StepContext): CatalogChange | null {
  const product = pickProduct(ctx, (p) => p.items.length > 0);
  if (product === null) return null;
  const { random } = ctx;
  const item = random.pick(product.items);
  const from = item.availability.status;
  const to = random.weighted(nextStatus[from]);
  if (from === 'available' && to === 'available') {
    // A sale of one unit or a delivery; selling the last unit puts the item out of stock.
    const quantity = item.quantity ?? 0;
    const next = random.chance(0.6) ? quantity - 1 : quantity + random.int(1, 10);
    item.quantity = Math.max(0, next);
    item.availability =
      item.quantity > 0
        ? availabilityOf('available', item.quantity, null)
        : availabilityOf('out_of_stock', 0, 'Rupture de stock en magasin');
  } else {
    const stock = stockInStatus(random, to);
    item.quantity = stock.quantity;
    item.availability = stock.availability;
  }
  if (item.availability.status === 'out_of_stock') item.inStockDate = null;
  else if (from !== 'available' && item.availability.status === 'available')
    item.inStockDate = dateOnly(ctx.atMs);
  return itemChange(ctx, product, item, 'stock_updated');
}

function toggleVisibility(ctx: StepContext): CatalogChange | null {
  const product = pickProduct(ctx);
  if (product === null) return null;
  product.displayedOnline = !product.displayedOnline;
  return productChange(ctx, product, 'visibility_updated');
}

function updateMedia(ctx: StepContext): CatalogChange | null {
  const product = pickProduct(ctx);
  if (product === null) return null;
  const { random } = ctx;
  const media = product.media.map((m) => ({ ...m }));
  const operation =
    media.length <= 1
      ? 'add'
      : media.length >= 6
        ? random.pick(['remove', 'main'] as const)
        : random.pick(['add', 'remove', 'main'] as const);
  if (operation === 'add') {
    media.push({
      type: 'image',
      url: mediaUrl(product.uuid, random.hex(8)),
      isMain: media.length === 0,
    });
  } else if (operation === 'remove') {
    const removable = media
      .map((m, index) => (m.isMain ? -1 : index))
      .filter((index) => index >= 0);
    media.splice(random.pick(removable), 1);
  } else {
    const next = random.pick(media.filter((m) => !m.isMain));
    for (const m of media) m.isMain = m === next;
  }
  product.media = media;
  return productChange(ctx, product, 'media_updated');
}

function createNewProduct(ctx: StepContext): CatalogChange {
  const { data, random } = ctx;
  let id = newProductId(random);
  while (data.products.has(id)) id = newProductId(random);
  const product = createProduct(createCatalogContext(data), random, {
    id,
    // Above the seeded serials: EAN and reference stay distinct from the seeded ones.
    serial: random.int(1_000_000, 999_999_999),
    createdAt: ctx.atMs,
    until: ctx.atMs,
  });
  data.products.set(id, product);
  ctx.ids.push(id);
  return productChange(ctx, product, 'created');
}

function deleteProduct(ctx: StepContext): CatalogChange | null {
  const product = pickProduct(ctx);
  if (product === null) return null;
  ctx.data.products.delete(product.uuid);
  return { type: 'product', id: product.uuid, action: 'deleted', updatedAt: ctx.at };
}

function updateProduct(ctx: StepContext): CatalogChange | null {
  const product = pickProduct(ctx, (p) => p.description !== null);
  if (product === null) return null;
  // Head office rewrites the end of the description (delivery, warranty wording).
  const first = (product.description ?? '').split('. ')[0] ?? '';
  const tail = ctx.random.pick(commonSentences);
  product.description = first.endsWith('.') ? `${first} ${tail}` : `${first}. ${tail}`;
  return productChange(ctx, product, 'updated');
}

const shopSuffix = ' (rénové)';
const categorySuffix = ' et accessoires';
const characteristicAlternatives: Readonly<Record<string, string>> = {
  marque: 'Fabricant',
  classe_energetique: 'Étiquette énergie',
  capacite: 'Capacité utile',
  taille_ecran: 'Diagonale d’écran',
  stockage: 'Capacité de stockage',
  puissance: 'Puissance nominale',
  garantie: 'Garantie constructeur',
  indice_reparabilite: 'Indice de réparabilité (sur 10)',
  coloris: 'Couleur',
  etat: 'État du produit',
};

/**
 * A visible, reversible edit of a shop name, category label or characteristic label, carried into
 * every product that embeds it (the service's references always show the current label). Here,
 * and only here, embedded objects are edited in place: the references are shared on purpose and
 * the new label must show everywhere at once; walking the catalogue with assignments only keeps a
 * 100k catalogue's referential edit to a few milliseconds.
 */
function updateReferential(ctx: StepContext): CatalogChange {
  const { data, random } = ctx;
  const kind = random.weighted([
    ['shop', data.shops.length > 0 ? 1 : 0],
    ['category', data.categories.length > 0 ? 1 : 0],
    ['characteristic', data.characteristics.length > 0 ? 1 : 0],
  ] as const);
  if (kind === 'shop') {
    const shop = random.pick(data.shops);
    shop.name = shop.name.endsWith(shopSuffix)
      ? shop.name.slice(0, -shopSuffix.length)
      : shop.name + shopSuffix;
    for (const product of data.products.values()) {
      for (const item of product.items) if (item.shop?.id === shop.id) item.shop.name = shop.name;
    }
    return { type: 'shop', id: shop.id, action: 'updated', updatedAt: ctx.at };
  }
  if (kind === 'category') {
    const category = random.pick(data.categories);
    const label = category.label ?? '';
    category.label = label.endsWith(categorySuffix)
      ? label.slice(0, -categorySuffix.length)
      : label + categorySuffix;
    for (const product of data.products.values()) {
      if (product.category?.id === category.id) product.category.label = category.label;
    }
    return { type: 'category', id: category.id, action: 'updated', updatedAt: ctx.at };
  }
  const characteristic = random.pick(data.characteristics);
  const original =
    characteristicDefinitions.find((d) => d.code === characteristic.code)?.label ??
    characteristic.label;
  const alternative = characteristicAlternatives[characteristic.code] ?? `${original} (modifié)`;
  characteristic.label = characteristic.label === alternative ? original : alternative;
  const { code, label: newLabel } = characteristic;
  for (const product of data.products.values()) {
    for (const entry of product.characteristics) if (entry.code === code) entry.label = newLabel;
    // Items embed their product's entries (the same objects): only item-level ones need the walk.
    if (characteristic.source === 'product') continue;
    for (const item of product.items) {
      for (const entry of item.characteristics) if (entry.code === code) entry.label = newLabel;
    }
  }
  return { type: 'characteristic', id: characteristic.id, action: 'updated', updatedAt: ctx.at };
}
