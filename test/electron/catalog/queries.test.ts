import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogProduct } from '../../../shared/api/catalog.ts';
import { CatalogQueries } from '../../../electron/catalog/queries.ts';
import { normalizeSearchText } from '../../../electron/catalog/search-text.ts';
import { CatalogSyncService } from '../../../electron/catalog/sync-service.ts';
import { type KioskDatabase, openDatabase } from '../../../electron/storage/database.ts';
import { kioskSchema } from '../../../electron/schema.ts';
import {
  ALL_SCOPES,
  BARE_ACCOUNT,
  CATALOGUE_ONLY,
  type Fixture,
  sandboxCatalogue,
  startFixture,
  INTEGRATION_TIMEOUT_MS,
} from './support.ts';

/** The words of a text as the search sees them. */
const words = (text: string | null) =>
  normalizeSearchText(text)
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u);
const hasWordStarting = (text: string | null, prefix: string) =>
  words(text).some((word) => word.startsWith(prefix));

describe(
  'availability queries: search, detail, live mode, scopes',
  { timeout: INTEGRATION_TIMEOUT_MS },
  () => {
    let fixture: Fixture;
    let catalogue: Map<string, CatalogProduct>;
    let queries: CatalogQueries;

    beforeAll(async () => {
      fixture = await startFixture({ products: 240, seed: 5 });
      await fixture.service().sync();
      catalogue = await sandboxCatalogue(fixture);
      queries = fixture.queries({ online: false });
    }, INTEGRATION_TIMEOUT_MS);
    afterAll(async () => {
      await fixture?.close();
    });

    it('finds French names whatever the accents and case, as you type', async () => {
      const plain = await queries.search({ text: 'televiseur', limit: 100 });
      expect(plain.source).toBe('mirror');
      expect(plain.asOf).toBe(fixture.service().status().asOf);
      const expected = [...catalogue.values()].filter(
        (product) =>
          hasWordStarting(product.name, 'televiseur') ||
          hasWordStarting(product.description, 'televiseur'),
      );
      expect(expected.length).toBeGreaterThan(3);
      expect(new Set(plain.hits.map((hit) => hit.uuid))).toEqual(
        new Set(expected.map((product) => product.uuid)),
      );
      expect(plain.hits[0]?.name).toMatch(/Téléviseur/);

      for (const variant of [
        'TÉLÉVISEUR',
        'Téléviseur',
        'téléviseur',
        'TELEVISEUR',
        'télév',
        'telev',
      ]) {
        const answer = await queries.search({ text: variant, limit: 100 });
        expect(answer.hits.map((hit) => hit.uuid)).toEqual(plain.hits.map((hit) => hit.uuid));
      }
      // Several words narrow; FTS syntax typed by staff is only text.
      const two = await queries.search({ text: 'televiseur sony', limit: 100 });
      expect(two.hits.length).toBeGreaterThan(0);
      expect(two.hits.every((hit) => hasWordStarting(hit.name, 'sony'))).toBe(true);
      await expect(queries.search({ text: '"AND OR * NEAR( -lave' })).resolves.toMatchObject({
        source: 'mirror',
      });
    });

    it('ranks a match in the name above a match in the description only', async () => {
      const answer = await queries.search({ text: 'lave', limit: 100 });
      const inName = answer.hits.map((hit) => hasWordStarting(hit.name, 'lave'));
      expect(inName.includes(true) && inName.includes(false)).toBe(true);
      expect(inName.lastIndexOf(true)).toBeLessThan(inName.indexOf(false));
    });

    it('finds a product by its EAN and by its reference', async () => {
      const product = [...catalogue.values()].find(
        (entry) => entry.ean !== null && entry.reference !== null,
      )!;
      expect((await queries.search({ text: product.ean! })).hits[0]?.uuid).toBe(product.uuid);
      expect((await queries.search({ text: product.reference! })).hits[0]?.uuid).toBe(product.uuid);
      expect((await queries.search({ text: product.reference!.toLowerCase() })).hits[0]?.uuid).toBe(
        product.uuid,
      );
    });

    it('filters by shop, available only, category and online visibility', async () => {
      const sample = [...catalogue.values()].find((product) =>
        product.items.some((item) => item.shop !== null && item.availability.available),
      )!;
      const shopId = sample.items.find((item) => item.shop !== null && item.availability.available)!
        .shop!.id;

      const inShop = await queries.search({ text: '', shopId, availableOnly: true, limit: 100 });
      const expected = [...catalogue.values()].filter((product) =>
        product.items.some((item) => item.shop?.id === shopId && item.availability.available),
      );
      expect(inShop.hits.length).toBe(Math.min(100, expected.length));
      for (const hit of inShop.hits) {
        expect(hit.shopItems?.length).toBeGreaterThan(0);
        expect(hit.shopItems?.every((item) => item.shop?.id === shopId)).toBe(true);
        expect(hit.shopItems?.some((item) => item.availability.available)).toBe(true);
      }

      // Around a shop rather than in it: every product, each with that shop's items (none when
      // not carried there) and the number of shops where one is available.
      const near = await queries.search({ text: '', nearShopId: shopId, limit: 100 });
      const everything = await queries.search({ text: '', limit: 100 });
      expect(near.hits.map((hit) => hit.uuid)).toEqual(everything.hits.map((hit) => hit.uuid));
      for (const hit of near.hits) {
        const product = catalogue.get(hit.uuid)!;
        expect(hit.shopItems?.length).toBe(
          product.items.filter((item) => item.shop?.id === shopId).length,
        );
        expect(hit.availableShops).toBe(
          new Set(
            product.items
              .filter((item) => item.shop !== null && item.availability.available)
              .map((item) => item.shop!.id),
          ).size,
        );
      }
      expect(near.hits.some((hit) => hit.shopItems?.length === 0)).toBe(true);
      expect(everything.hits.every((hit) => hit.availableShops === null)).toBe(true);

      const hidden = await queries.search({ text: '', displayedOnline: false, limit: 100 });
      expect(new Set(hidden.hits.map((hit) => hit.uuid))).toEqual(
        new Set(
          [...catalogue.values()]
            .filter((product) => !product.displayedOnline)
            .map((product) => product.uuid),
        ),
      );

      const categoryId = sample.category!.id;
      const inCategory = await queries.search({ text: '', categoryId, limit: 100 });
      expect(new Set(inCategory.hits.map((hit) => hit.uuid))).toEqual(
        new Set(
          [...catalogue.values()]
            .filter((product) => product.category?.id === categoryId)
            .map((p) => p.uuid),
        ),
      );

      // The same filters with words: resolved inside the search index, same answers.
      const matches = (product: CatalogProduct, prefix: string) =>
        [product.name, product.reference, product.ean, product.description].some((text) =>
          hasWordStarting(text, prefix),
        );
      const uuids = async (query: Parameters<CatalogQueries['search']>[0]) =>
        new Set((await queries.search({ limit: 100, ...query })).hits.map((hit) => hit.uuid));
      const where = (keep: (product: CatalogProduct) => boolean) =>
        new Set([...catalogue.values()].filter(keep).map((product) => product.uuid));
      expect(await uuids({ text: 'lave', shopId, availableOnly: true })).toEqual(
        where(
          (p) =>
            matches(p, 'lave') &&
            p.items.some((item) => item.shop?.id === shopId && item.availability.available),
        ),
      );
      expect(await uuids({ text: 'lave', shopId })).toEqual(
        where((p) => matches(p, 'lave') && p.items.some((item) => item.shop?.id === shopId)),
      );
      expect(await uuids({ text: 'lave', availableOnly: true, displayedOnline: true })).toEqual(
        where((p) => matches(p, 'lave') && p.stock.available && p.displayedOnline),
      );
      expect(await uuids({ text: 'a', categoryId })).toEqual(
        where((p) => matches(p, 'a') && p.category?.id === categoryId),
      );

      await expect(queries.search({ text: 'x', limit: 0 })).rejects.toMatchObject({
        code: 'CATALOG_INVALID_QUERY',
      });
    });

    it('details a product by shop: status, reason, prices and stock exactly as the service returned them', async () => {
      const product = [...catalogue.values()].find(
        (entry) =>
          new Set(entry.items.map((item) => item.shop?.id)).size > 1 &&
          entry.items.some((item) => item.availability.reason !== null),
      )!;
      const answer = await queries.product(product.uuid);
      expect(answer.source).toBe('mirror');
      expect(answer.shops.flatMap((group) => group.items)).toEqual(product.items);
      for (const group of answer.shops)
        expect(group.items.every((item) => item.shop?.id === group.shop?.id)).toBe(true);
      expect(answer.product).toMatchObject({
        uuid: product.uuid,
        priceRange: product.priceRange,
        promotionPriceRange: product.promotionPriceRange,
        stock: product.stock,
        availableItemsCount: product.availableItemsCount,
        supplier: product.supplier,
        mainImage: product.media.find((media) => media.isMain)?.url ?? null,
      });
      expect(answer.product.characteristics.every((entry) => entry.source === 'product')).toBe(
        true,
      );

      const shopId = product.items[0]!.shop!.id;
      const oneShop = await queries.product(product.uuid, { shopId });
      expect(oneShop.shops.map((group) => group.shop?.id)).toEqual([shopId]);
    });

    it('asks the service when fresh data is wanted and the kiosk is online; offline, the mirror answers with its as-of time', async () => {
      const product = [...catalogue.values()].find((entry) =>
        entry.items.some((item) => item.shop !== null),
      )!;
      const shopId = product.items.find((item) => item.shop !== null)!.shop!.id;
      fixture.control.advanceActivity(50);

      const live = await fixture
        .queries({ online: true })
        .product(product.uuid, { shopId, fresh: true });
      expect(live.source).toBe('live');
      const now = (await sandboxCatalogue(fixture)).get(product.uuid);
      expect(live.shops.flatMap((group) => group.items)).toEqual(
        now?.items.filter((item) => item.shop?.id === shopId),
      );

      const offline = await fixture
        .queries({ online: false })
        .product(product.uuid, { shopId, fresh: true });
      expect(offline.source).toBe('mirror');
      expect(offline.asOf).toBe(fixture.service().status().asOf);

      const liveSearch = await fixture
        .queries({ online: true })
        .search({ text: 'televiseur', fresh: true });
      expect(liveSearch.source).toBe('live');
      expect(liveSearch.hits.length).toBeGreaterThan(0);
    });

    describe('scopes', () => {
      let dataDir: string;
      let database: KioskDatabase;

      beforeAll(() => {
        dataDir = mkdtempSync(join(tmpdir(), 'kiosk-catalog-scopes-'));
        database = openDatabase({ dataDir, schema: kioskSchema });
      });
      afterAll(() => {
        database?.close();
        rmSync(dataDir, { recursive: true, force: true });
      });

      it('syncs with the catalogue-only account', async () => {
        const service = new CatalogSyncService({
          database,
          source: fixture.client(CATALOGUE_ONLY),
          pageSize: 100,
        });
        await service.sync();
        expect(service.status().size.products).toBe(
          (await sandboxCatalogue(fixture, ALL_SCOPES)).size,
        );
        expect(service.status().access).toEqual({ mode: 'mirror', missingScopes: [] });
      });

      it('says which scopes an account lacks, and falls back to live lookups', async () => {
        const otherDir = mkdtempSync(join(tmpdir(), 'kiosk-catalog-nostock-'));
        const other = openDatabase({ dataDir: otherDir, schema: kioskSchema });
        try {
          fixture.control.setScopes(BARE_ACCOUNT, ['products:read']);
          const bare = new CatalogSyncService({
            database: other,
            source: fixture.client(BARE_ACCOUNT),
          });
          const refusal = await bare.sync().catch((error: unknown) => error);
          expect(refusal).toMatchObject({ code: 'CATALOG_FORBIDDEN' });
          expect([...(refusal as { missingScopes: string[] }).missingScopes].sort()).toEqual([
            'referentials:read',
            'stock:read',
          ]);

          fixture.control.setScopes(BARE_ACCOUNT, ['products:read', 'referentials:read']);
          await expect(bare.sync()).rejects.toMatchObject({
            code: 'CATALOG_FORBIDDEN',
            missingScopes: ['stock:read'],
          });
          expect(bare.status().access).toEqual({ mode: 'live', missingScopes: ['stock:read'] });
          expect(bare.status().lastError?.code).toBe('CATALOG_FORBIDDEN');

          // No mirror: lookups go to the service, without what stock:read would show.
          const live = new CatalogQueries({
            database: other,
            source: fixture.client(BARE_ACCOUNT),
            online: { isOnline: () => true },
          });
          const answer = await live.search({ text: 'televiseur', shopId: 'shop_lyon-part-dieu' });
          expect(answer).toMatchObject({ source: 'live', missingScopes: ['stock:read'] });
          expect(answer.hits.length).toBeGreaterThan(0);
          expect(answer.hits.every((hit) => hit.stock === null)).toBe(true);

          const detail = await live.product(answer.hits[0]!.uuid);
          expect(detail).toMatchObject({
            source: 'live',
            missingScopes: ['stock:read'],
            shops: [],
          });

          // Offline and never synchronised: a clear refusal, not an empty answer.
          const offline = new CatalogQueries({
            database: other,
            online: { isOnline: () => false },
          });
          await expect(offline.search({ text: 'televiseur' })).rejects.toMatchObject({
            code: 'CATALOG_UNAVAILABLE',
          });
        } finally {
          other.close();
          rmSync(otherDir, { recursive: true, force: true });
        }
      });
    });
  },
);
