/**
 * The catalogue mirror's tables as a full synchronisation builds them today: it creates the set
 * under shadow names, fills it, then swaps it in. Migrations bring an older live set to this
 * layout (the latest, migrations/017-contentless-search.ts); each keeps its own frozen DDL.
 */

/** Table names of one complete mirror: the live one, or the shadow one a full sync builds. */
export interface MirrorTables {
  /** One narrow row per product: what filters and joins read. */
  readonly products: string;
  /** The product entries themselves, apart, so ranking and filtering never page through them. */
  readonly bodies: string;
  readonly items: string;
  /** FTS5 index over name, reference, EAN, description and filter tokens; rowid = product id. */
  readonly search: string;
  readonly shops: string;
  readonly categories: string;
  readonly characteristics: string;
  readonly productTypes: string;
}

/** Every table of the mirror (live, shadow, state, the search index's own) starts with it. */
export const MIRROR_TABLE_PREFIX = 'catalog_';

const baseNames: MirrorTables = {
  products: 'catalog_products',
  bodies: 'catalog_product_bodies',
  items: 'catalog_items',
  search: 'catalog_search',
  shops: 'catalog_shops',
  categories: 'catalog_categories',
  characteristics: 'catalog_characteristics',
  productTypes: 'catalog_product_types',
};

export const liveTables: MirrorTables = baseNames;

export const shadowTables: MirrorTables = Object.fromEntries(
  Object.entries(baseNames).map(([key, name]) => [key, `${name}_next`]),
) as unknown as MirrorTables;

export const mirrorTableKeys = Object.keys(baseNames) as (keyof MirrorTables)[];

/** The durable sync state (cursor, status), outside the swapped set: it survives every swap. */
export const STATE_TABLE = 'catalog_state';

/**
 * DDL of one mirror. Index names carry the mirror's generation: SQLite keeps an index's name
 * when its table is renamed, so the shadow built next time needs names of its own.
 *
 * `body` columns hold the entry exactly as the service returned it (the product with its items):
 * prices, stock and availability are served from there and never recomputed. The other columns
 * are copies for filtering only. Product bodies (kilobytes each) live in their own table, keyed
 * by the product's id: the products table stays a few megabytes for 100,000 products, so a search
 * that joins thousands of matches stays in cache. One body per product is also what a full sync
 * can write at the pace of the pages: a body per item cost it a third of its time.
 */
export function mirrorTablesSql(tables: MirrorTables, generation: number): string {
  return `${mirrorTablesOnlySql(tables)}\n${mirrorIndexesSql(tables, generation)}`;
}

/**
 * The tables without their secondary indexes: what a full sync fills. Building each index once
 * from the complete table (one sort) costs a fraction of updating it row by row in random key
 * order, which also keeps the index pages out of the page cache the inserts need.
 */
export function mirrorTablesOnlySql(tables: MirrorTables): string {
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

    ${itemsTableSql(tables.items)}

    -- remove_diacritics 2: "televiseur" finds "Téléviseur" (French data); the prefix indexes
    -- keep as-you-type queries ("t", "té", "tél") fast.
    -- "filters" holds one token per filterable fact (in shop X, available in shop X, category,
    -- visibility, stock): a filtered search is then an intersection inside the index instead
    -- of a join per matching product.
    -- Contentless: a search reads rowids only, so the indexed text is not kept a second time;
    -- contentless_delete lets an entry be deleted by its rowid alone.
    CREATE VIRTUAL TABLE ${tables.search} USING fts5(
      name, reference, ean, description, filters,
      tokenize = 'unicode61 remove_diacritics 2',
      prefix = '1 2 3',
      content = '',
      contentless_delete = 1
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
  `;
}

/**
 * The items table: one narrow row per item, for what SQL filters on (availability by shop) and
 * for finding an item's product; the item itself is served from its product's entry. Narrow rows
 * sit in the primary key's b-tree (WITHOUT ROWID), appended in order during a full sync.
 */
export function itemsTableSql(table: string): string {
  return `
    CREATE TABLE ${table} (
      product_id INTEGER NOT NULL,
      position   INTEGER NOT NULL,
      uuid       TEXT    NOT NULL,
      shop_id    TEXT,
      available  INTEGER NOT NULL CHECK (available IN (0, 1)),
      PRIMARY KEY (product_id, position)
    ) STRICT, WITHOUT ROWID;
  `;
}

/** The secondary indexes of one mirror; IF NOT EXISTS, so a resumed swap can build them again. */
export function mirrorIndexesSql(tables: MirrorTables, generation: number): string {
  const g = `g${Math.trunc(generation)}`;
  return `
    CREATE INDEX IF NOT EXISTS catalog_products_category_${g} ON ${tables.products} (category_id);
    CREATE INDEX IF NOT EXISTS catalog_products_name_${g} ON ${tables.products} (sort_name);
    ${itemsIndexesSql(tables.items, g)}
  `;
}

export function itemsIndexesSql(table: string, suffix: string): string {
  return `
    CREATE INDEX IF NOT EXISTS catalog_items_uuid_${suffix} ON ${table} (uuid);
    CREATE INDEX IF NOT EXISTS catalog_items_shop_${suffix} ON ${table} (shop_id, available, product_id);
  `;
}

export const stateTableSql = `
  CREATE TABLE ${STATE_TABLE} (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
  ) STRICT;
`;

/** Drops one mirror set (a leftover shadow, or the live set being replaced). */
export function dropMirrorTablesSql(tables: MirrorTables): string {
  return mirrorTableKeys.map((key) => `DROP TABLE IF EXISTS ${tables[key]};`).join('\n');
}
