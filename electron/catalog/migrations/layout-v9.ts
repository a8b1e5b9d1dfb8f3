import type { MirrorTables } from '../schema.ts';

/**
 * The mirror's layout as migrations 3 and 9 shipped it, frozen here: a shipped migration must
 * run the same SQL forever, while schema.ts moves on with the layout a full sync builds today.
 * Items keep their own JSON bodies in a rowid table.
 */

export function mirrorTablesV9Sql(tables: MirrorTables, generation: number): string {
  const g = `g${Math.trunc(generation)}`;
  return `
    CREATE TABLE ${tables.products} (
      id               INTEGER PRIMARY KEY,
      uuid             TEXT    NOT NULL UNIQUE,
      category_id      TEXT,
      displayed_online INTEGER NOT NULL CHECK (displayed_online IN (0, 1)),
      stock_available  INTEGER NOT NULL CHECK (stock_available IN (0, 1)),
      sort_name        TEXT    NOT NULL,
      updated_at       TEXT,
      synced_at        INTEGER NOT NULL
    ) STRICT;

    CREATE TABLE ${tables.bodies} (
      id   INTEGER PRIMARY KEY,
      body TEXT    NOT NULL
    ) STRICT;

    ${itemsTableV9Sql(tables.items)}

    CREATE VIRTUAL TABLE ${tables.search} USING fts5(
      name, reference, ean, description, filters,
      tokenize = 'unicode61 remove_diacritics 2',
      prefix = '2 3'
    );

    CREATE TABLE ${tables.shops} (
      id TEXT PRIMARY KEY, position INTEGER NOT NULL, body TEXT NOT NULL
    ) STRICT;
    CREATE TABLE ${tables.categories} (
      id TEXT PRIMARY KEY, position INTEGER NOT NULL, body TEXT NOT NULL
    ) STRICT;
    CREATE TABLE ${tables.characteristics} (
      id TEXT PRIMARY KEY, position INTEGER NOT NULL, body TEXT NOT NULL
    ) STRICT;
    CREATE TABLE ${tables.productTypes} (
      id TEXT PRIMARY KEY, position INTEGER NOT NULL, body TEXT NOT NULL
    ) STRICT;

    CREATE INDEX IF NOT EXISTS catalog_products_category_${g} ON ${tables.products} (category_id);
    CREATE INDEX IF NOT EXISTS catalog_products_name_${g} ON ${tables.products} (sort_name);
    ${itemsIndexesV9Sql(tables.items, g)}
  `;
}

export function itemsTableV9Sql(table: string): string {
  return `
    CREATE TABLE ${table} (
      product_id INTEGER NOT NULL,
      position   INTEGER NOT NULL,
      uuid       TEXT    NOT NULL,
      shop_id    TEXT,
      available  INTEGER NOT NULL CHECK (available IN (0, 1)),
      status     TEXT    NOT NULL,
      body       TEXT    NOT NULL,
      PRIMARY KEY (product_id, position)
    ) STRICT;
  `;
}

export function itemsIndexesV9Sql(table: string, suffix: string): string {
  return `
    CREATE INDEX IF NOT EXISTS catalog_items_uuid_${suffix} ON ${table} (uuid);
    CREATE INDEX IF NOT EXISTS catalog_items_shop_${suffix} ON ${table} (shop_id, available, product_id);
  `;
}
