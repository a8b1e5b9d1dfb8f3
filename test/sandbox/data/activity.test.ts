import { describe, expect, test } from 'vitest';
import { CatalogChange, CatalogProduct } from '../../../shared/api/catalog.ts';
import { Category, Characteristic, Shop } from '../../../shared/api/referentials.ts';
import {
  advanceActivity,
  catalogueEditKinds,
  runActivity,
} from '../../../sandbox/data/activity.ts';
import { toCatalogProduct } from '../../../sandbox/data/catalog-projection.ts';
import { protectedProductIds } from '../../../sandbox/data/demo.ts';
import type { SandboxData, StoredProduct } from '../../../sandbox/data/model.ts';
import { Random } from '../../../sandbox/data/random.ts';
import { seedData } from '../../../sandbox/data/seed.ts';

const now = new Date('2026-03-15T10:00:00.000Z');
const later = (minutes: number) => new Date(now.getTime() + minutes * 60_000);

function snapshot(data: SandboxData): Map<string, StoredProduct> {
  return structuredClone(data.products);
}

describe('advanceActivity', () => {
  test('changes are valid, ordered with strictly increasing instants from `at`, and journaled', () => {
    const data = seedData({ seed: 1, now });
    const before = data.changes.length;
    const at = later(5);
    const changes = advanceActivity(data, new Random(9), at, 200);
    expect(changes).toHaveLength(200);
    expect(data.changes.slice(before)).toEqual(changes);
    expect(changes[0]?.updatedAt).toBe(at.toISOString());
    for (let i = 0; i < changes.length; i++) {
      expect(CatalogChange.safeParse(changes[i]).success).toBe(true);
      if (i > 0)
        expect(Date.parse(changes[i]?.updatedAt ?? '')).toBe(
          Date.parse(changes[i - 1]?.updatedAt ?? '') + 1,
        );
    }
    const actions = new Set(changes.map((c) => `${c.type}:${c.action}`));
    for (const expected of [
      'product-item:price_updated',
      'product-item:stock_updated',
      'product:visibility_updated',
      'product:media_updated',
      'product:created',
      'product:deleted',
    ]) {
      expect(actions).toContain(expected);
    }
    expect(
      changes.some(
        (c) => ['shop', 'category', 'characteristic'].includes(c.type) && c.action === 'updated',
      ),
    ).toBe(true);
  });

  test('the same seed and state give the same activity', () => {
    const a = seedData({ seed: 3, now });
    const b = seedData({ seed: 3, now });
    expect(advanceActivity(a, new Random(4), later(1), 50)).toEqual(
      advanceActivity(b, new Random(4), later(1), 50),
    );
    expect(a).toEqual(b);
  });

  test('a second batch at the same instant is dated after the first: the journal stays totally ordered', () => {
    const data = seedData({ seed: 1, now });
    const first = advanceActivity(data, new Random(1), later(1), 3);
    const second = advanceActivity(data, new Random(2), later(1), 3);
    expect(Date.parse(second[0]?.updatedAt ?? '')).toBe(
      Date.parse(first.at(-1)?.updatedAt ?? '') + 1,
    );
    const times = data.changes.map((c) => Date.parse(c.updatedAt));
    for (let i = 1; i < times.length; i++)
      expect(times[i]).toBeGreaterThanOrEqual(times[i - 1] ?? 0);
  });

  test('each change is reflected in the data', () => {
    const data = seedData({ seed: 1, now });
    const before = snapshot(data);
    const changes = advanceActivity(data, new Random(21), later(10), 300);
    const last = new Map<string, (typeof changes)[number]>();
    for (const change of changes) last.set(`${change.type}:${change.id}`, change);

    for (const change of last.values()) {
      if (change.type !== 'product' && change.type !== 'product-item') continue;
      const productId = change.type === 'product' ? change.id : (change.productId ?? '');
      const product = data.products.get(productId);
      const deleted = changes.some(
        (c) => c.type === 'product' && c.id === productId && c.action === 'deleted',
      );
      if (change.action === 'deleted') {
        expect(product).toBeUndefined();
        continue;
      }
      if (deleted) continue; // changed, then deleted later in the batch
      expect(product, productId).toBeDefined();
      if (product === undefined) continue;
      // Every change dates the product it touched.
      expect(Date.parse(product.updatedAt ?? '')).toBeGreaterThanOrEqual(
        Date.parse(change.updatedAt),
      );
      if (change.action === 'created') {
        expect(before.has(productId)).toBe(false);
        expect(CatalogProduct.safeParse(toCatalogProduct(product)).success).toBe(true);
      }
      if (change.type === 'product-item') {
        const item = product.items.find((i) => i.uuid === change.id);
        expect(item?.updatedAt).toBe(change.updatedAt);
      }
    }

    // A price change really changed a price (base or promotion) of the item it names.
    const priceChange = [...last.values()].find(
      (c) =>
        c.action === 'price_updated' &&
        before.has(c.productId ?? '') &&
        data.products.has(c.productId ?? ''),
    );
    expect(priceChange).toBeDefined();
    const itemBefore = before
      .get(priceChange?.productId ?? '')
      ?.items.find((i) => i.uuid === priceChange?.id);
    const itemAfter = data.products
      .get(priceChange?.productId ?? '')
      ?.items.find((i) => i.uuid === priceChange?.id);
    expect({ price: itemAfter?.price, promo: itemAfter?.promotionPrice }).not.toEqual({
      price: itemBefore?.price,
      promo: itemBefore?.promotionPrice,
    });

    // Visibility toggles flipped the flag (an even number of toggles restores it).
    for (const change of last.values()) {
      if (
        change.action !== 'visibility_updated' ||
        !before.has(change.id) ||
        !data.products.has(change.id)
      )
        continue;
      const toggles = changes.filter(
        (c) => c.id === change.id && c.action === 'visibility_updated',
      ).length;
      expect(data.products.get(change.id)?.displayedOnline).toBe(
        toggles % 2 === 0
          ? before.get(change.id)?.displayedOnline
          : !before.get(change.id)?.displayedOnline,
      );
    }
  });

  test('a deleted product is gone and a created one is listed last', () => {
    const data = seedData({ seed: 1, now });
    const changes = advanceActivity(data, new Random(5), later(1), 300);
    const deleted = changes.filter((c) => c.action === 'deleted').map((c) => c.id);
    expect(deleted.length).toBeGreaterThan(0);
    for (const id of deleted) expect(data.products.has(id)).toBe(false);
    const created = changes
      .filter((c) => c.action === 'created' && !deleted.includes(c.id))
      .map((c) => c.id);
    expect(created.length).toBeGreaterThan(0);
    expect([...data.products.keys()].slice(-created.length)).toEqual(created);
  });

  test('the catalogue stays valid after activity, and demo products are left alone', () => {
    const data = seedData({ seed: 1, now });
    // What product activity edits; referential labels inside them may change, as for every product.
    const state = (id: string) => {
      const p = data.products.get(id);
      return (
        p && {
          updatedAt: p.updatedAt,
          displayedOnline: p.displayedOnline,
          media: p.media,
          description: p.description,
          items: p.items.map((i) => [
            i.uuid,
            i.price,
            i.promotionPrice,
            i.quantity,
            i.availability,
            i.updatedAt,
          ]),
        }
      );
    };
    const demo = structuredClone([...protectedProductIds].map(state));
    const changes = advanceActivity(data, new Random(8), later(1), 500);
    expect([...protectedProductIds].map(state)).toEqual(demo);
    expect(
      changes.some(
        (c) => protectedProductIds.has(c.id) || protectedProductIds.has(c.productId ?? ''),
      ),
    ).toBe(false);
    for (const product of data.products.values()) {
      const parsed = CatalogProduct.safeParse(toCatalogProduct(product));
      expect(parsed.error, product.uuid).toBeUndefined();
      expect(product.media.filter((m) => m.isMain)).toHaveLength(1);
      for (const item of product.items) {
        const { status, available } = item.availability;
        expect(available).toBe(
          status === 'available' && item.quantity !== null && item.quantity > 0,
        );
        if (item.promotionPrice !== null)
          expect(item.promotionPrice.inclTax).toBeLessThan(item.price.inclTax ?? 0);
      }
    }
    for (const shop of data.shops) expect(Shop.safeParse(shop).success).toBe(true);
    for (const category of data.categories) expect(Category.safeParse(category).success).toBe(true);
    for (const characteristic of data.characteristics)
      expect(Characteristic.safeParse(characteristic).success).toBe(true);
  });

  test('a referential edit reaches every product that embeds it', () => {
    const data = seedData({ seed: 1, now });
    const changes = advanceActivity(data, new Random(13), later(1), 400);
    expect(
      changes.some(
        (c) => c.type === 'shop' || c.type === 'category' || c.type === 'characteristic',
      ),
    ).toBe(true);
    const shopNames = new Map(data.shops.map((s) => [s.id, s.name]));
    const categoryLabels = new Map(data.categories.map((c) => [c.id, c.label]));
    const characteristicLabels = new Map(data.characteristics.map((c) => [c.code, c.label]));
    for (const product of data.products.values()) {
      if (product.category)
        expect(product.category.label).toBe(categoryLabels.get(product.category.id));
      for (const entry of product.characteristics)
        expect(entry.label).toBe(characteristicLabels.get(entry.code));
      for (const item of product.items) {
        if (item.shop) expect(item.shop.name).toBe(shopNames.get(item.shop.id));
        for (const entry of item.characteristics)
          expect(entry.label).toBe(characteristicLabels.get(entry.code));
      }
    }
  });

  test('restricted kinds (the seeded history) never create, delete or edit referentials', () => {
    const data = seedData({ seed: 1, now });
    const count = data.products.size;
    const shops = structuredClone(data.shops);
    const changes = runActivity(data, new Random(3), later(1), 200, catalogueEditKinds);
    expect(changes.length).toBe(200);
    expect(data.products.size).toBe(count);
    expect(data.shops).toEqual(shops);
    expect(changes.every((c) => c.type === 'product' || c.type === 'product-item')).toBe(true);
    expect(changes.some((c) => c.action === 'created' || c.action === 'deleted')).toBe(false);
  });

  test('an empty catalogue still yields one change per step', () => {
    const data = seedData({ seed: 1, now, products: 0 });
    const changes = advanceActivity(data, new Random(1), later(1), 20);
    expect(changes).toHaveLength(20);
  });
});
