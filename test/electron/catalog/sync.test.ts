import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SyncProgress } from '../../../shared/ipc/catalog.ts';
import {
  type Fixture,
  instrumented,
  mirrorCatalogue,
  mirrorList,
  sandboxCatalogue,
  sandboxList,
  sorted,
  startFixture,
  storeActivity,
  INTEGRATION_TIMEOUT_MS,
} from './support.ts';

describe(
  'catalogue mirror: full sync and change feed against the sandbox',
  { timeout: INTEGRATION_TIMEOUT_MS },
  () => {
    let fixture: Fixture;

    beforeAll(async () => {
      fixture = await startFixture({ products: 240 });
    }, INTEGRATION_TIMEOUT_MS);
    afterAll(async () => {
      await fixture?.close();
    });

    it('mirrors the whole catalogue, hidden products and referentials included, as returned', async () => {
      const service = fixture.service();
      const progress: SyncProgress[] = [];
      service.events.on('progress', (event) => progress.push(event));

      const outcome = await service.sync();

      expect(outcome.kind).toBe('full');
      const expected = await sandboxCatalogue(fixture);
      expect(sorted(mirrorCatalogue(fixture.database))).toEqual(sorted(expected));
      // Both visibility views: the demo has a hidden product.
      expect([...expected.values()].some((product) => !product.displayedOnline)).toBe(true);
      expect(outcome.fullSync?.products).toBe(expected.size);

      const status = service.status();
      expect(status.ready).toBe(true);
      expect(status.size.products).toBe(expected.size);
      expect(status.size.shops).toBeGreaterThan(0);
      expect(status.size.categories).toBeGreaterThan(0);
      expect(status.size.characteristics).toBeGreaterThan(0);
      expect(status.lastWindow?.until).toBe(status.asOf);
      expect(status.nextSince).toBe(status.asOf);

      // The pages were counted against a known total, with a rate and an estimate.
      const pages = progress.filter((event) => event.kind === 'full' && event.phase === 'products');
      expect(pages.at(-1)?.pagesDone).toBe(pages.at(-1)?.pagesTotal);
      expect(pages.at(-1)?.productsDone).toBe(expected.size);
      expect(pages.some((event) => event.productsPerSecond !== null && event.etaMs !== null)).toBe(
        true,
      );
    });

    it('follows store activity through the change feed until it equals the catalogue again', async () => {
      const service = fixture.service();
      const changes = storeActivity(fixture.control, 400);
      const actions = new Set(changes.map((change) => `${change.type}:${change.action}`));
      // The activity exercised what the mirror must follow.
      for (const expected of [
        'product:created',
        'product:deleted',
        'product:visibility_updated',
        'product:media_updated',
        'product:updated',
        'product-item:price_updated',
        'product-item:stock_updated',
      ]) {
        expect(actions).toContain(expected);
      }
      expect(
        changes.some((change) => ['shop', 'category', 'characteristic'].includes(change.type)),
      ).toBe(true);

      const before = service.status().nextSince;
      const outcome = await service.sync();

      expect(outcome.kind).toBe('changes');
      expect(outcome.window?.since).toBe(before);
      expect(outcome.window?.changes).toBe(changes.length);
      expect(outcome.window?.productsDeleted).toBeGreaterThan(0);
      expect(sorted(mirrorCatalogue(fixture.database))).toEqual(
        sorted(await sandboxCatalogue(fixture)),
      );
      expect(service.status().nextSince).toBe(outcome.window?.until);
      // Renamed shops, categories and characteristics: the lists too, not only the embedded labels.
      expect(mirrorList(fixture.database, 'catalog_shops')).toEqual(
        await sandboxList(fixture, '/v1/shops'),
      );
      expect(mirrorList(fixture.database, 'catalog_categories')).toEqual(
        await sandboxList(fixture, '/v1/categories'),
      );
      expect(mirrorList(fixture.database, 'catalog_characteristics')).toEqual(
        await sandboxList(fixture, '/v1/characteristics'),
      );
    });

    it('repairs injected drift with a full resync, and the old mirror answers until the swap', async () => {
      const db = fixture.database.connection;
      // Drift: a wrong price, a product lost, a product that does not exist.
      db.exec(
        `UPDATE catalog_product_bodies SET body = json_set(body, '$.items[0].price.inclTax', 0.01)
       WHERE id IN (SELECT product_id FROM catalog_items WHERE position = 0 LIMIT 5)`,
      );
      db.exec(`DELETE FROM catalog_products WHERE id = (SELECT min(id) FROM catalog_products)`);
      db.exec(
        `INSERT INTO catalog_products (id, uuid, category_id, displayed_online, stock_available, sort_name, updated_at, synced_at)
       VALUES (999999, 'prod_ghost', NULL, 1, 1, 'ghost', NULL, 0);
       INSERT INTO catalog_product_bodies (id, body) VALUES (999999, '{"uuid":"prod_ghost"}')`,
      );
      expect(sorted(mirrorCatalogue(fixture.database))).not.toEqual(
        sorted(await sandboxCatalogue(fixture)),
      );

      // Prepared before the swap, used after it: statements follow the renamed tables.
      const queries = fixture.queries({ online: false });
      expect((await queries.search({ text: 'lave' })).hits.length).toBeGreaterThan(0);
      const reader = fixture.openAnother();
      const seen: number[] = [];
      const service = fixture.service({
        fullResyncIntervalMs: 0,
      });
      service.events.on('progress', (event) => {
        // Meanwhile another connection still reads the previous (drifted) mirror, whole.
        if (event.phase === 'products') {
          const row = reader.connection
            .prepare(`SELECT count(*) AS n FROM catalog_products WHERE uuid = 'prod_ghost'`)
            .get() as { n: number };
          seen.push(row.n);
        }
      });
      const outcome = await service.sync();

      expect(outcome.kind).toBe('full');
      expect(seen.length).toBeGreaterThan(1);
      expect(new Set(seen)).toEqual(new Set([1]));
      expect(sorted(mirrorCatalogue(fixture.database))).toEqual(
        sorted(await sandboxCatalogue(fixture)),
      );
      expect((await queries.search({ text: 'lave' })).hits.length).toBeGreaterThan(0);
      // The swap leaves no shadow tables behind.
      const leftovers = db
        .prepare(`SELECT name FROM sqlite_master WHERE name LIKE '%_next%'`)
        .all();
      expect(leftovers).toEqual([]);
    });

    it('asks the product route for a changed product the catalogue did not return as modified', async () => {
      const changes = storeActivity(fixture.control, 60);
      const deleted = new Set(
        changes.filter((change) => change.action === 'deleted').map((change) => change.id),
      );
      const touched = changes.find(
        (change) =>
          change.type === 'product-item' &&
          change.productId !== undefined &&
          !deleted.has(change.productId),
      );
      expect(touched).toBeDefined();
      const client = fixture.client();
      // A service whose `updatedSince` misses that product: the window must still converge.
      const source = {
        ...instrumented(client, () => undefined),
        listCatalogProducts: async (...args: Parameters<typeof client.listCatalogProducts>) => {
          const reply = await client.listCatalogProducts(...args);
          if (args[0]?.query?.updatedSince === undefined) return reply;
          return {
            ...reply,
            data: reply.data.filter((product) => product.uuid !== touched?.productId),
          };
        },
      };
      const outcome = await fixture.service({ source }).sync();
      expect(outcome.window?.productsLookedUp).toBeGreaterThanOrEqual(1);
      expect(sorted(mirrorCatalogue(fixture.database))).toEqual(
        sorted(await sandboxCatalogue(fixture)),
      );
    });

    it('runs on its own: the change feed every interval, a full resync once the period is over', async () => {
      let offset = 0;
      const clock = {
        now: () => Date.now() + offset,
        sleep: (ms: number, signal?: AbortSignal) =>
          new Promise<void>((resolve, reject) => {
            const timer = setTimeout(resolve, ms);
            signal?.addEventListener('abort', () => {
              clearTimeout(timer);
              reject(signal.reason);
            });
          }),
      };
      const service = fixture.service({
        clock,
        changeFeedIntervalMs: 20,
        fullResyncIntervalMs: 60 * 60 * 1000,
      });
      const kinds: string[] = [];
      const next = (kind: string) =>
        new Promise<void>((resolve) => {
          const off = service.events.on('synced', (outcome) => {
            kinds.push(outcome.kind);
            if (outcome.kind === kind) {
              off();
              resolve();
            }
          });
        });
      service.start();
      try {
        storeActivity(fixture.control, 30);
        await next('changes');
        // A day later (on the kiosk's clock) the periodic full resynchronisation is due.
        offset = 2 * 60 * 60 * 1000;
        await next('full');
      } finally {
        await service.stop();
      }
      expect(kinds).toContain('changes');
      expect(kinds.at(-1)).toBe('full');
      expect(sorted(mirrorCatalogue(fixture.database))).toEqual(
        sorted(await sandboxCatalogue(fixture)),
      );
    });
  },
);
