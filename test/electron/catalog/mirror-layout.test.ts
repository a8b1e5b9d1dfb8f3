import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CatalogProduct } from '../../../shared/api/catalog.ts';
import { CatalogQueries } from '../../../electron/catalog/queries.ts';
import { MirrorWriter } from '../../../electron/catalog/mirror-writer.ts';
import { liveTables } from '../../../electron/catalog/schema.ts';
import { SyncState } from '../../../electron/catalog/sync-state.ts';
import { kioskSchema } from '../../../electron/schema.ts';
import { type KioskDatabase, openDatabase } from '../../../electron/storage/database.ts';

let dir: string;
let database: KioskDatabase | undefined;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'mirror-layout-'));
});
afterEach(() => {
  database?.close();
  database = undefined;
  rmSync(dir, { recursive: true, force: true });
});

function product(index: number, name: string, description: string): CatalogProduct {
  return {
    uuid: `prod_${index}`,
    reference: `REF-${index}`,
    ean: null,
    name,
    description,
    displayedOnline: true,
    quantityType: null,
    category: null,
    priceRange: null,
    promotionPriceRange: null,
    availableItemsCount: 0,
    stock: { available: false, totalQuantity: null },
    media: [],
    updatedAt: null,
    supplier: null,
    items: [],
  };
}

/** A ready mirror written straight through the writer, as a full sync's pages would be. */
function mirrorOf(products: readonly CatalogProduct[]): {
  writer: MirrorWriter;
  queries: CatalogQueries;
} {
  database = openDatabase({ dataDir: dir, schema: kioskSchema });
  const db = database.connection;
  const writer = new MirrorWriter(db, liveTables);
  database.transaction(() => {
    for (const entry of products) writer.upsertProduct(entry, 1);
    new SyncState(db).set('lastFullSync', {
      startedAt: '2026-01-01T00:00:00.000Z',
      completedAt: '2026-01-01T00:00:01.000Z',
      serverStartedAt: '2026-01-01T00:00:00.000Z',
      products: products.length,
      pages: 1,
      durationMs: 1000,
    });
  });
  return { writer, queries: new CatalogQueries({ database }) };
}

describe('catalogue mirror layout', () => {
  it('lists name, reference and EAN matches before description-only ones, page after page', () => {
    const products: CatalogProduct[] = [];
    // Interleaved in id order, so the tiers are not simply the insertion order.
    for (let i = 0; i < 30; i += 1) {
      products.push(
        i % 3 === 0
          ? product(i, `Bouilloire ${i}`, 'verseuse')
          : product(i, `Cafetière ${i}`, 'avec bouilloire intégrée'),
      );
    }
    const { queries } = mirrorOf(products);
    const whole = queries.searchMirror({ text: 'bouil', limit: 100 }).hits.map((hit) => hit.name);
    expect(whole).toHaveLength(30);
    const named = whole.filter((name) => name?.startsWith('Bouilloire'));
    expect(named).toHaveLength(10);
    expect(whole.slice(0, 10)).toEqual(named);

    const paged: (string | null)[] = [];
    for (let offset = 0; offset < 35; offset += 7) {
      paged.push(
        ...queries.searchMirror({ text: 'bouil', limit: 7, offset }).hits.map((hit) => hit.name),
      );
    }
    expect(paged).toEqual(whole);
    // A page that starts past the named tier.
    expect(
      queries.searchMirror({ text: 'bouil', limit: 5, offset: 12 }).hits.map((hit) => hit.name),
    ).toEqual(whole.slice(12, 17));
  });

  it('keeps an unchanged search entry on update and replaces a changed one', () => {
    const { writer, queries } = mirrorOf([product(1, 'Grille-pain', 'deux fentes')]);
    database!.transaction(() => writer.upsertProduct(product(1, 'Grille-pain', 'deux fentes'), 2));
    expect(queries.searchMirror({ text: 'grille' }).hits).toHaveLength(1);

    database!.transaction(() => writer.upsertProduct(product(1, 'Toaster', 'quatre fentes'), 3));
    expect(queries.searchMirror({ text: 'grille' }).hits).toHaveLength(0);
    expect(queries.searchMirror({ text: 'deux' }).hits).toHaveLength(0);
    expect(queries.searchMirror({ text: 'toast' }).hits.map((hit) => hit.name)).toEqual([
      'Toaster',
    ]);
    const count = database!.connection
      .prepare(`SELECT count(*) AS n FROM ${liveTables.search}`)
      .get() as { n: number };
    expect(count.n).toBe(1);
  });

  it('migration 9 rebuilds the items as a rowid table and keeps every row', () => {
    const before = openDatabase({
      dataDir: dir,
      schema: { ...kioskSchema, migrations: kioskSchema.migrations.slice(0, 8) },
    });
    const db = before.connection;
    // The shipped layout of migration 3.
    db.exec(`DROP TABLE ${liveTables.items}`);
    db.exec(`CREATE TABLE ${liveTables.items} (
      product_id INTEGER NOT NULL, position INTEGER NOT NULL, uuid TEXT NOT NULL, shop_id TEXT,
      available INTEGER NOT NULL CHECK (available IN (0, 1)), status TEXT NOT NULL,
      body TEXT NOT NULL, PRIMARY KEY (product_id, position)) STRICT, WITHOUT ROWID`);
    const insert = db.prepare(`INSERT INTO ${liveTables.items} VALUES (?, ?, ?, ?, ?, ?, ?)`);
    for (let i = 0; i < 50; i += 1) {
      insert.run(i >> 1, i & 1, `item_${i}`, `shop_${i % 3}`, i % 2, 'available', `{"n":${i}}`);
    }
    db.exec(`CREATE TABLE catalog_items_next (x INTEGER)`);
    const rows = () =>
      database!.connection
        .prepare(`SELECT * FROM ${liveTables.items} ORDER BY product_id, position`)
        .all();
    const expected = db
      .prepare(`SELECT * FROM ${liveTables.items} ORDER BY product_id, position`)
      .all();
    before.close();

    database = openDatabase({ dataDir: dir, schema: kioskSchema });
    expect(database.migration).toMatchObject({ from: 8, to: 9 });
    expect(rows()).toEqual(expected);
    const ddl = database.connection
      .prepare(`SELECT sql FROM sqlite_master WHERE name = ?`)
      .get(liveTables.items) as { sql: string };
    expect(ddl.sql).not.toMatch(/WITHOUT ROWID/i);
    const indexes = database.connection
      .prepare(`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ?`)
      .all(liveTables.items) as { name: string }[];
    expect(indexes.map((index) => index.name).sort()).toEqual([
      'catalog_items_shop_v9',
      'catalog_items_uuid_v9',
      'sqlite_autoindex_catalog_items_1',
    ]);
    const leftover = database.connection
      .prepare(`SELECT name FROM sqlite_master WHERE name = 'catalog_items_next'`)
      .get();
    expect(leftover).toBeUndefined();
  });
});
