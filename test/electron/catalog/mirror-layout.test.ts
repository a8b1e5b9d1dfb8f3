import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CatalogProduct } from '../../../shared/api/catalog.ts';
import { CatalogQueries } from '../../../electron/catalog/queries.ts';
import { MirrorWriter } from '../../../electron/catalog/mirror-writer.ts';
import { CatalogMirror } from '../../../electron/catalog/mirror.ts';
import { liveTables, shadowTables } from '../../../electron/catalog/schema.ts';
import { SyncState } from '../../../electron/catalog/sync-state.ts';
import { kioskSchema } from '../../../electron/schema.ts';
import { bareProduct } from './support.ts';
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
          ? bareProduct(i, `Bouilloire ${i}`, 'verseuse')
          : bareProduct(i, `Cafetière ${i}`, 'avec bouilloire intégrée'),
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

  it('indexes a page of products as one FTS5 segment, not one per product', () => {
    const { writer } = mirrorOf([]);
    const db = database!.connection;
    // Merging off, so the segments written are the segments kept.
    db.exec(
      `INSERT INTO ${liveTables.search} (${liveTables.search}, rank) VALUES ('automerge', 0)`,
    );
    db.exec(
      `INSERT INTO ${liveTables.search} (${liveTables.search}, rank) VALUES ('crisismerge', 1000)`,
    );
    database!.transaction(() => {
      for (let i = 0; i < 200; i += 1)
        writer.upsertProduct(bareProduct(i, `Bouilloire ${i}`, 'inox'), 1);
    });
    // FTS5 flushes its pending terms into a new segment at every statement savepoint (which a
    // RETURNING clause opens): a page written that way leaves one segment per product.
    const rows = db.prepare(`SELECT count(*) AS n FROM ${liveTables.search}_data`).get() as {
      n: number;
    };
    expect(rows.n).toBeLessThan(20);
  });

  it("replaces a product's search entry on update, unchanged or not, and keeps one", () => {
    const { writer, queries } = mirrorOf([bareProduct(1, 'Grille-pain', 'deux fentes')]);
    database!.transaction(() =>
      writer.upsertProduct(bareProduct(1, 'Grille-pain', 'deux fentes'), 2),
    );
    expect(queries.searchMirror({ text: 'grille' }).hits).toHaveLength(1);

    database!.transaction(() =>
      writer.upsertProduct(bareProduct(1, 'Toaster', 'quatre fentes'), 3),
    );
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

    database = openDatabase({
      dataDir: dir,
      schema: { ...kioskSchema, migrations: kioskSchema.migrations.slice(0, 9) },
    });
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

  it('migration 10 moves each item into its product entry and keeps the mirror answering', () => {
    const before = openDatabase({
      dataDir: dir,
      schema: { ...kioskSchema, migrations: kioskSchema.migrations.slice(0, 9) },
    });
    const db = before.connection;
    // The layout of migration 9: entries without items, one body per item row.
    const entry = (i: number) => {
      const { items: _items, ...rest } = bareProduct(i, `Bouilloire ${i}`, 'verseuse');
      return rest;
    };
    const item = (i: number, position: number) => ({
      uuid: `item_${i}_${position}`,
      shop: { id: `shop_${position}`, name: `Shop ${position}` },
      availability: { available: position === 1, status: 'available' },
      characteristics: [],
    });
    for (let i = 1; i <= 3; i += 1) {
      db.prepare(
        `INSERT INTO ${liveTables.products} (id, uuid, displayed_online, stock_available, sort_name, synced_at)
         VALUES (?, ?, 1, 0, ?, 1)`,
      ).run(i, `prod_${i}`, `bouilloire ${i}`);
      db.prepare(`INSERT INTO ${liveTables.bodies} (id, body) VALUES (?, ?)`).run(
        i,
        JSON.stringify(entry(i)),
      );
      db.prepare(
        `INSERT INTO ${liveTables.search} (rowid, name, reference, ean, description, filters)
         VALUES (?, ?, '', '', '', '')`,
      ).run(i, `Bouilloire ${i}`);
      // Product 3 has no items; the others have two, written out of position order.
      for (const position of i === 3 ? [] : [1, 0]) {
        db.prepare(
          `INSERT INTO ${liveTables.items} (product_id, position, uuid, shop_id, available, status, body)
           VALUES (?, ?, ?, ?, ?, 'available', ?)`,
        ).run(
          i,
          position,
          `item_${i}_${position}`,
          `shop_${position}`,
          position,
          JSON.stringify(item(i, position)),
        );
      }
    }
    new SyncState(db).set('lastFullSync', {
      startedAt: '2026-01-01T00:00:00.000Z',
      completedAt: '2026-01-01T00:00:01.000Z',
      serverStartedAt: '2026-01-01T00:00:00.000Z',
      products: 3,
      pages: 1,
      durationMs: 1000,
    });
    db.exec(`CREATE TABLE catalog_search_next (x INTEGER)`);
    before.close();

    database = openDatabase({
      dataDir: dir,
      schema: { ...kioskSchema, migrations: kioskSchema.migrations.slice(0, 10) },
    });
    expect(database.migration).toMatchObject({ from: 9, to: 10 });
    const connection = database.connection;
    const bodies = (
      connection.prepare(`SELECT body FROM ${liveTables.bodies} ORDER BY id`).all() as {
        body: string;
      }[]
    ).map((row) => JSON.parse(row.body) as CatalogProduct);
    expect(bodies).toEqual([
      { ...entry(1), items: [item(1, 0), item(1, 1)] },
      { ...entry(2), items: [item(2, 0), item(2, 1)] },
      { ...entry(3), items: [] },
    ]);
    expect(
      connection
        .prepare(`SELECT * FROM ${liveTables.items} ORDER BY product_id, position`)
        .all()
        .map((row) => ({ ...row })),
    ).toEqual([
      { product_id: 1, position: 0, uuid: 'item_1_0', shop_id: 'shop_0', available: 0 },
      { product_id: 1, position: 1, uuid: 'item_1_1', shop_id: 'shop_1', available: 1 },
      { product_id: 2, position: 0, uuid: 'item_2_0', shop_id: 'shop_0', available: 0 },
      { product_id: 2, position: 1, uuid: 'item_2_1', shop_id: 'shop_1', available: 1 },
    ]);
    // The converted mirror answers: a shop's items come out of the entry.
    const queries = new CatalogQueries({ database });
    const hits = queries.searchMirror({ text: 'bouil', nearShopId: 'shop_1', limit: 10 }).hits;
    expect(
      hits.map((hit) => [hit.uuid, hit.shopItems?.map((entry) => entry.uuid), hit.availableShops]),
    ).toEqual([
      ['prod_1', ['item_1_1'], 1],
      ['prod_2', ['item_2_1'], 1],
      ['prod_3', [], 0],
    ]);
    expect(
      connection.prepare(`SELECT name FROM sqlite_master WHERE name = 'catalog_search_next'`).get(),
    ).toBeUndefined();
  });

  it('migration 11 rebuilds the search index with a one-letter prefix and keeps every entry', () => {
    const before = openDatabase({
      dataDir: dir,
      schema: { ...kioskSchema, migrations: kioskSchema.migrations.slice(0, 10) },
    });
    const writer = new MirrorWriter(before.connection, liveTables);
    before.transaction(() => {
      for (let i = 0; i < 30; i += 1) {
        writer.upsertProduct(
          bareProduct(i, i % 2 === 0 ? `Bouilloire ${i}` : `Cafetière ${i}`, 'avec verseuse'),
          1,
        );
      }
    });
    const entries = (db: KioskDatabase) =>
      db.connection
        .prepare(`SELECT rowid, * FROM ${liveTables.search} ORDER BY rowid`)
        .all()
        .map((row) => ({ ...row }));
    const ddl = (db: KioskDatabase) =>
      (
        db.connection
          .prepare(`SELECT sql FROM sqlite_master WHERE name = ?`)
          .get(liveTables.search) as { sql: string }
      ).sql;
    const expected = entries(before);
    expect(ddl(before)).toContain(`prefix = '2 3'`);
    before.connection.exec(`CREATE TABLE catalog_search_next (x INTEGER)`);
    before.close();

    // Migration 11 on its own: later ones (the outbox's) have nothing to do with the index.
    database = openDatabase({
      dataDir: dir,
      schema: { ...kioskSchema, migrations: kioskSchema.migrations.slice(0, 11) },
    });
    expect(database.migration).toMatchObject({ from: 10, to: 11 });
    expect(entries(database)).toEqual(expected);
    expect(ddl(database)).toContain(`prefix = '1 2 3'`);
    const queries = new CatalogQueries({ database });
    const names = (text: string) =>
      queries.searchMirror({ text, limit: 100 }).hits.map((hit) => hit.name);
    expect(names('b')).toHaveLength(15);
    expect(names('b').every((name) => name?.startsWith('Bouilloire'))).toBe(true);
    expect(names('v')).toHaveLength(30);
    expect(
      database.connection
        .prepare(`SELECT name FROM sqlite_master WHERE name = 'catalog_search_next'`)
        .get(),
    ).toBeUndefined();
  });

  it('migration 17 rebuilds the search index contentless and keeps every entry', () => {
    const before = openDatabase({
      dataDir: dir,
      schema: { ...kioskSchema, migrations: kioskSchema.migrations.slice(0, 16) },
    });
    const writer = new MirrorWriter(before.connection, liveTables);
    before.transaction(() => {
      for (let i = 0; i < 30; i += 1) {
        writer.upsertProduct(
          bareProduct(i, i % 2 === 0 ? `Bouilloire ${i}` : `Cafetière ${i}`, 'avec verseuse'),
          1,
        );
      }
    });
    const ddl = (db: KioskDatabase) =>
      (
        db.connection
          .prepare(`SELECT sql FROM sqlite_master WHERE name = ?`)
          .get(liveTables.search) as { sql: string }
      ).sql;
    expect(ddl(before)).not.toContain(`content = ''`);
    before.connection.exec(`CREATE TABLE catalog_search_next (x INTEGER)`);
    before.close();

    database = openDatabase({ dataDir: dir, schema: kioskSchema });
    expect(database.migration).toMatchObject({ from: 16, to: 17 });
    expect(ddl(database)).toContain(`content = ''`);
    const queries = new CatalogQueries({ database });
    const names = (text: string) =>
      queries.searchMirror({ text, limit: 100 }).hits.map((hit) => hit.name);
    expect(names('b')).toHaveLength(15);
    expect(names('b').every((name) => name?.startsWith('Bouilloire'))).toBe(true);
    expect(names('caf')).toHaveLength(15);
    expect(names('verse')).toHaveLength(30);
    expect(names('REF-7')).toEqual(['Cafetière 7']);
    expect(
      database.connection
        .prepare(`SELECT name FROM sqlite_master WHERE name = 'catalog_search_next'`)
        .get(),
    ).toBeUndefined();
  });

  it('leaves the live items and search index in the layout a full sync builds', () => {
    database = openDatabase({ dataDir: dir, schema: kioskSchema });
    new CatalogMirror(database).createShadow();
    const ddl = (name: string) =>
      (
        database!.connection.prepare(`SELECT sql FROM sqlite_master WHERE name = ?`).get(name) as {
          sql: string;
        }
      ).sql;
    const normalized = (sql: string, table: string) =>
      sql
        .replace(`"${table}"`, table)
        .replace(table, 'T')
        .replace(/\s+/g, ' ')
        .replace(/\( /g, '(')
        .replace(/ \)/g, ')');
    for (const key of ['items', 'search'] as const) {
      expect(normalized(ddl(shadowTables[key]), shadowTables[key])).toBe(
        normalized(ddl(liveTables[key]), liveTables[key]),
      );
    }
  });
});
