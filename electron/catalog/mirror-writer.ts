import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { CatalogProduct } from '../../shared/api/catalog.ts';
import type { MirrorTables } from './schema.ts';
import { type FilterFact, filterToken, normalizeSearchText } from './search-text.ts';

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

  constructor(db: DatabaseSync, tables: MirrorTables) {
    this.#db = db;
    this.tables = tables;
    // A product seen for the first time (every product of a full sync) costs one insert per row;
    // only a product already there pays for removing its old items and search entry.
    this.#insertProduct = db.prepare(
      `INSERT INTO ${tables.products}
         (uuid, category_id, displayed_online, stock_available, sort_name, updated_at, synced_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (uuid) DO NOTHING
       RETURNING id`,
    );
    // The row keeps its id, which is also its search-index rowid.
    this.#updateProduct = db.prepare(
      `UPDATE ${tables.products} SET
         category_id = ?, displayed_online = ?, stock_available = ?, sort_name = ?, updated_at = ?,
         synced_at = ?
       WHERE uuid = ?
       RETURNING id`,
    );
    this.#productId = db.prepare(`SELECT id FROM ${tables.products} WHERE uuid = ?`);
    this.#deleteProduct = db.prepare(`DELETE FROM ${tables.products} WHERE id = ?`);
    this.#writeBody = db.prepare(
      `INSERT OR REPLACE INTO ${tables.bodies} (id, body) VALUES (?, ?)`,
    );
    this.#deleteBody = db.prepare(`DELETE FROM ${tables.bodies} WHERE id = ?`);
    this.#deleteItems = db.prepare(`DELETE FROM ${tables.items} WHERE product_id = ?`);
    this.#insertItem = db.prepare(
      `INSERT INTO ${tables.items} (product_id, position, uuid, shop_id, available, status, body)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
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

  /** Replaces the product, its items and its search entry with what the service returned. */
  upsertProduct(product: CatalogProduct, syncedAt: number): void {
    const { items, ...entry } = product;
    const columns = [
      product.category?.id ?? null,
      product.displayedOnline ? 1 : 0,
      product.stock.available ? 1 : 0,
      normalizeSearchText(product.name).toLowerCase(),
      product.updatedAt,
      syncedAt,
    ] as const;
    let row = this.#insertProduct.get(product.uuid, ...columns) as
      { id: number | bigint } | undefined;
    const fresh = row !== undefined;
    row ??= this.#updateProduct.get(...columns, product.uuid) as { id: number | bigint };
    const id = Number(row.id);
    this.#writeBody.run(id, JSON.stringify(entry));
    if (!fresh) {
      this.#deleteItems.run(id);
      this.#deleteSearch.run(id);
    }
    items.forEach((item, position) => {
      this.#insertItem.run(
        id,
        position,
        item.uuid,
        item.shop?.id ?? null,
        item.availability.available ? 1 : 0,
        item.availability.status,
        JSON.stringify(item),
      );
    });
    this.#insertSearch.run(
      id,
      normalizeSearchText(product.name),
      normalizeSearchText(product.reference),
      product.ean ?? '',
      normalizeSearchText(product.description),
      filtersOf(product),
    );
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

  /** The stored entry of a product, without its items. */
  productBody(uuid: string): Omit<CatalogProduct, 'items'> | undefined {
    const row = this.#productBody.get(uuid) as { body: string } | undefined;
    return row === undefined ? undefined : (JSON.parse(row.body) as Omit<CatalogProduct, 'items'>);
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

/** The `filters` column of a product's search entry: one token per fact it can be found by. */
function filtersOf(product: CatalogProduct): string {
  const facts: FilterFact[] = [{ kind: 'displayedOnline', value: product.displayedOnline }];
  if (product.stock.available) facts.push({ kind: 'stockAvailable' });
  if (product.category !== null) facts.push({ kind: 'category', categoryId: product.category.id });
  for (const item of product.items) {
    if (item.shop === null) continue;
    facts.push({ kind: 'shop', shopId: item.shop.id });
    if (item.availability.available) facts.push({ kind: 'availableInShop', shopId: item.shop.id });
  }
  return [...new Set(facts.map(filterToken))].join(' ');
}
