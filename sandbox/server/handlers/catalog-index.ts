import type { ItemEntry } from '../../../shared/api/catalog.ts';
import type { StoredProduct } from '../../data/model.ts';
import type { SandboxState } from '../state.ts';

/** Lookups over the current catalogue, rebuilt only after it changed (see `SandboxState.memo`). */

export interface ItemRecord {
  readonly item: ItemEntry;
  readonly product: StoredProduct;
}

export interface ShopIndex {
  readonly itemShop: ReadonlyMap<string, string | null>;
  readonly productShops: ReadonlyMap<string, ReadonlySet<string>>;
}

/** Every item of the catalogue in catalogue order, with its product. */
export function allItems(state: SandboxState): readonly ItemRecord[] {
  return state.memo('items:all', () => {
    const records: ItemRecord[] = [];
    for (const product of state.data.products.values())
      for (const item of product.items) records.push({ item, product });
    return records;
  });
}

export function itemsById(state: SandboxState): ReadonlyMap<string, ItemRecord> {
  return state.memo(
    'items:by-id',
    () => new Map(allItems(state).map((record) => [record.item.uuid, record])),
  );
}

export function productShops(state: SandboxState): ShopIndex {
  return state.memo('shops:index', () => {
    const itemShop = new Map<string, string | null>();
    const productShops = new Map<string, Set<string>>();
    for (const product of state.data.products.values()) {
      const shops = new Set<string>();
      for (const item of product.items) {
        const shopId = item.shop?.id ?? null;
        itemShop.set(item.uuid, shopId);
        if (shopId !== null) shops.add(shopId);
      }
      productShops.set(product.uuid, shops);
    }
    return { itemShop, productShops };
  });
}

/** Whether the product or one of its items was modified at or after `since` (ms). */
export function modifiedSince(product: StoredProduct, since: number): boolean {
  if (product.updatedAt !== null && Date.parse(product.updatedAt) >= since) return true;
  return product.items.some(
    (item) => item.updatedAt !== null && Date.parse(item.updatedAt) >= since,
  );
}
