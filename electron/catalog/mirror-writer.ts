import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { CatalogProduct } from '../../shared/api/catalog.ts';
import type { MirrorTables } from './schema.ts';
import { filterToken, normalizeSearchText } from './search-text.ts';

/** The four referential lists the mirror keeps beside the products. */
export type ReferentialKind = 'shops' | 'categories' | 'characteristics' | 'productTypes';

export interface ReferentialRow {
  readonly id: string;
}

/**
 * Writes into one mirror set (live or shadow). Every method is a plain statement sequence: the
 * caller owns the transaction, so a page, a window or a swap commits as one unit.
 */
export class MirrorWriter {
  readonly tables: MirrorTables;
  readonly #db: DatabaseSync;
  readonly #insertProduct: StatementSync;
  readonly #updateProduct: StatementSync;
  readonly #productId: StatementSync;
  readonly #deleteProduct: StatementSync;
  readonly #writeBody: StatementSync;
  readonly #deleteBody: StatementSync;
  readonly #deleteItems: StatementSync;
  readonly #insertItem: StatementSync;
  readonly #deleteSearch: StatementSync;
  readonly #insertSearch: StatementSync;
  readonly #productOfItem: StatementSync;
  readonly #productBody: StatementSync;
  readonly #tokens = new Map<string, string>();

  constructor(db: DatabaseSync, tables: MirrorTables) {
    this.#db = db;
    this.tables = tables;
    // A product seen for the first time (every product of a full sync) costs one insert per row;
    // only a product already there pays for removing its old items and search entry. Neither
    // statement has RETURNING: a statement with RETURNING opens a statement savepoint, and FTS5
    // flushes its pending terms into a new index segment at every savepoint, so each product
    // would write (and later merge) a segment of its own instead of one per page.
    this.#insertProduct = db.prepare(
      `INSERT INTO ${tables.products}
         (uuid, category_id, displayed_online, stock_available, sort_name, updated_at, synced_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (uuid) DO NOTHING`,
    );
    // The row keeps its id, which is also its search-index rowid.
    this.#updateProduct = db.prepare(
      `UPDATE ${tables.products} SET
         category_id = ?, displayed_online = ?, stock_available = ?, sort_name = ?, updated_at = ?,
         synced_at = ?
       WHERE id = ?`,
    );
    this.#productId = db.prepare(`SELECT id FROM ${tables.products} WHERE uuid = ?`);
    this.#deleteProduct = db.prepare(`DELETE FROM ${tables.products} WHERE id = ?`);
    this.#writeBody = db.prepare(
      `INSERT OR REPLACE INTO ${tables.bodies} (id, body) VALUES (?, ?)`,
    );
    this.#deleteBody = db.prepare(`DELETE FROM ${tables.bodies} WHERE id = ?`);
    this.#deleteItems = db.prepare(`DELETE FROM ${tables.items} WHERE product_id = ?`);
    this.#insertItem = db.prepare(
      `INSERT INTO ${tables.items} (product_id, position, uuid, shop_id, available)
       VALUES (?, ?, ?, ?, ?)`,
    );
    this.#deleteSearch = db.prepare(`DELETE FROM ${tables.search} WHERE rowid = ?`);
    this.#insertSearch = db.prepare(
      `INSERT INTO ${tables.search} (rowid, name, reference, ean, description, filters)
       VALUES (?, ?, ?, ?, ?, ?)`,
    );
    this.#productOfItem = db.prepare(
      `SELECT p.uuid AS uuid FROM ${tables.items} i JOIN ${tables.products} p ON p.id = i.product_id
       WHERE i.uuid = ? LIMIT 1`,
    );
    this.#productBody = db.prepare(
      `SELECT b.body AS body FROM ${tables.products} p JOIN ${tables.bodies} b ON b.id = p.id
       WHERE p.uuid = ?`,
    );
  }

  /**
   * Replaces the product, its items and its search entry with what the service returned. Runs
   * once per product of every page (a full sync of 100,000 products), so it allocates nothing it
   * can avoid: columns are bound directly and the filter tokens are built as strings.
   */
  upsertProduct(product: CatalogProduct, syncedAt: number): void {
    const { items } = product;
    const name = normalizeSearchText(product.name);
    const sortName = name.toLowerCase();
    const categoryId = product.category?.id ?? null;
    const displayedOnline = product.displayedOnline ? 1 : 0;
    const stockAvailable = product.stock.available ? 1 : 0;
    const inserted = this.#insertProduct.run(
      product.uuid,
      categoryId,
      displayedOnline,
      stockAvailable,
      sortName,
      product.updatedAt,
      syncedAt,
    );
    const fresh = inserted.changes > 0;
    const id = fresh
      ? Number(inserted.lastInsertRowid)
      : Number((this.#productId.get(product.uuid) as { id: number | bigint }).id);
    if (!fresh) {
      this.#updateProduct.run(
        categoryId,
        displayedOnline,
        stockAvailable,
        sortName,
        product.updatedAt,
        syncedAt,
        id,
      );
      this.#deleteItems.run(id);
    }
    this.#writeBody.run(id, JSON.stringify(product));
    for (let position = 0; position < items.length; position += 1) {
      const item = items[position]!;
      this.#insertItem.run(
        id,
        position,
        item.uuid,
        item.shop?.id ?? null,
        item.availability.available ? 1 : 0,
      );
    }
    const reference = normalizeSearchText(product.reference);
    const ean = product.ean ?? '';
    const description = normalizeSearchText(product.description);
    const filters = this.#filtersOf(product);
    // The index keeps no text to compare with, so an update replaces the entry: deleting one from
    // a contentless_delete index takes its rowid alone, without tokenising the old text again.
    if (!fresh) this.#deleteSearch.run(id);
    this.#insertSearch.run(id, name, reference, ean, description, filters);
  }

  /** The `filters` column of a product's search entry: one token per fact it can be found by. */
  #filtersOf(product: CatalogProduct): string {
    let tokens = filterToken({ kind: 'displayedOnline', value: product.displayedOnline });
    if (product.stock.available) tokens += ` ${filterToken({ kind: 'stockAvailable' })}`;
    if (product.category !== null) tokens += ` ${this.#token('c', product.category.id)}`;
    let seen: Set<string> | undefined;
    for (const item of product.items) {
      if (item.shop === null) continue;
      seen ??= new Set();
      const shop = this.#token('s', item.shop.id);
      if (!seen.has(shop)) {
        seen.add(shop);
        tokens += ` ${shop}`;
      }
      if (!item.availability.available) continue;
      const available = this.#token('a', item.shop.id);
      if (!seen.has(available)) {
        seen.add(available);
        tokens += ` ${available}`;
      }
    }
    return tokens;
  }

  /** Filter tokens of shops and categories: a few hundred identifiers, hex-encoded once each. */
  #token(kind: 's' | 'a' | 'c', id: string): string {
    const key = kind + id;
    let token = this.#tokens.get(key);
    if (token === undefined) {
      token = filterToken(
        kind === 'c'
          ? { kind: 'category', categoryId: id }
          : { kind: kind === 's' ? 'shop' : 'availableInShop', shopId: id },
      );
      this.#tokens.set(key, token);
    }
    return token;
  }

  /** Removes the product, its items and its search entry; false when it was not there. */
  deleteProduct(uuid: string): boolean {
    const row = this.#productId.get(uuid) as { id: number | bigint } | undefined;
    if (row === undefined) return false;
    const id = Number(row.id);
    this.#deleteItems.run(id);
    this.#deleteSearch.run(id);
    this.#deleteBody.run(id);
    this.#deleteProduct.run(id);
    return true;
  }

  hasProduct(uuid: string): boolean {
    return this.#productId.get(uuid) !== undefined;
  }

  /** The product an item belongs to, as the mirror knows it. */
  productOfItem(itemUuid: string): string | undefined {
    const row = this.#productOfItem.get(itemUuid) as { uuid: string } | undefined;
    return row?.uuid;
  }

  /** The stored entry of a product. */
  productBody(uuid: string): CatalogProduct | undefined {
    const row = this.#productBody.get(uuid) as { body: string } | undefined;
    return row === undefined ? undefined : (JSON.parse(row.body) as CatalogProduct);
  }

  /** Replaces a referential list wholesale (they are small, and a list has no deletion feed). */
  replaceReferential(kind: ReferentialKind, rows: readonly ReferentialRow[]): void {
    const table = this.tables[kind];
    this.#db.exec(`DELETE FROM ${table}`);
    const insert = this.#db.prepare(
      `INSERT OR REPLACE INTO ${table} (id, position, body) VALUES (?, ?, ?)`,
    );
    rows.forEach((row, position) => insert.run(row.id, position, JSON.stringify(row)));
  }
}
