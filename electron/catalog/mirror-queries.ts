import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { CatalogProduct, ItemEntry } from '../../shared/api/catalog.ts';
import type { GetProductReply, SearchProductsReply } from '../../shared/ipc/catalog.ts';
import { groupByShop, hitOf, productCharacteristics, productViewOf } from './answers.ts';
import { liveTables } from './schema.ts';
import type { SearchQuery } from './search-query.ts';
import type { FilterFact } from './search-text.ts';
import { TextSearchIds } from './text-search.ts';
import type { SyncState } from './sync-state.ts';

/** Searches and product lookups the mirror answers: synchronous, never waiting on the network. */
export class MirrorQueries {
  readonly #db: DatabaseSync;
  readonly #state: SyncState;
  readonly #statements = new Map<string, StatementSync>();
  #text: TextSearchIds | undefined;

  constructor(db: DatabaseSync, state: SyncState) {
    this.#db = db;
    this.#state = state;
  }

  search(query: SearchQuery): SearchProductsReply {
    return this.#snapshot(() => this.#search(query));
  }

  #search(query: SearchQuery): SearchProductsReply {
    const t = liveTables;
    // Ranking reads ids only; the bodies (kilobytes each) are read for the page of hits alone.
    this.#text ??= new TextSearchIds(this.#db, t);
    // Words and filters are all resolved inside the search index (filter tokens).
    let ids = this.#text.ids({
      text: query.text,
      facts: filterFactsOf(query),
      limit: query.limit,
      offset: query.offset,
    });
    if (ids === undefined) {
      // Browsing (no words): in name order, along the name index, until the page is full.
      const parameters: (string | number)[] = [];
      const where: string[] = [];
      if (query.categoryId !== undefined) {
        where.push('p.category_id = ?');
        parameters.push(query.categoryId);
      }
      if (query.displayedOnline !== undefined) {
        where.push('p.displayed_online = ?');
        parameters.push(query.displayedOnline ? 1 : 0);
      }
      if (query.shopId !== undefined) {
        where.push(
          // `available IN (0, 1)` lets the (shop, available, product) index answer both cases.
          `EXISTS (SELECT 1 FROM ${t.items} i WHERE i.shop_id = ? AND i.available ${query.availableOnly ? '= 1' : 'IN (0, 1)'} AND i.product_id = p.id)`,
        );
        parameters.push(query.shopId);
      } else if (query.availableOnly) {
        where.push('p.stock_available = 1');
      }
      const sql = `SELECT p.id AS id FROM ${t.products} p
        ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''}
        ORDER BY p.sort_name, p.id LIMIT ? OFFSET ?`;
      parameters.push(query.limit, query.offset);
      ids = (this.#statement(sql).all(...parameters) as { id: number }[]).map((row) => row.id);
    }
    const body = this.#statement(`SELECT body FROM ${t.bodies} WHERE id = ?`);
    const itemsShop = query.shopId ?? query.nearShopId;
    const hits = ids.map((id) => {
      const product = JSON.parse((body.get(id) as { body: string }).body) as CatalogProduct;
      const items =
        itemsShop === undefined
          ? null
          : product.items.filter((item) => item.shop?.id === itemsShop);
      const shops = query.nearShopId === undefined ? null : availableShops(product.items);
      return hitOf(product, items, shops);
    });
    return { source: 'mirror', asOf: this.#asOf(), hits };
  }

  /** Undefined when the mirror does not have the product. */
  product(uuid: string, shopId: string | undefined): GetProductReply | undefined {
    return this.#snapshot(() => this.#product(uuid, shopId));
  }

  #product(uuid: string, shopId: string | undefined): GetProductReply | undefined {
    const row = this.#statement(
      `SELECT b.body AS body FROM ${liveTables.products} p
       JOIN ${liveTables.bodies} b ON b.id = p.id WHERE p.uuid = ?`,
    ).get(uuid) as { body: string } | undefined;
    if (row === undefined) return undefined;
    const product = JSON.parse(row.body) as CatalogProduct;
    const { items } = product;
    const inView = shopId === undefined ? items : items.filter((item) => item.shop?.id === shopId);
    return {
      source: 'mirror',
      asOf: this.#asOf(),
      product: productViewOf(product, {
        supplier: product.supplier,
        stock: product.stock,
        characteristics: productCharacteristics(items),
      }),
      shops: groupByShop(inView),
    };
  }

  hasProduct(uuid: string): boolean {
    return (
      this.#statement(`SELECT 1 FROM ${liveTables.products} WHERE uuid = ?`).get(uuid) !== undefined
    );
  }

  /**
   * One read transaction for an answer's several statements: a full sync swapping the mirror in
   * from another connection meanwhile cannot pair one mirror's ids with the other's rows.
   */
  #snapshot<T>(read: () => T): T {
    if (this.#db.isTransaction) return read();
    this.#db.exec('BEGIN');
    try {
      return read();
    } finally {
      if (this.#db.isTransaction) this.#db.exec('COMMIT');
    }
  }

  #statement(sql: string): StatementSync {
    let statement = this.#statements.get(sql);
    if (statement === undefined) {
      statement = this.#db.prepare(sql);
      this.#statements.set(sql, statement);
    }
    return statement;
  }

  #asOf(): string | null {
    return this.#state.get('asOf') ?? null;
  }
}

/** How many shops have at least one of the product's items available. */
function availableShops(items: readonly ItemEntry[]): number {
  const shops = new Set<string>();
  for (const item of items) {
    if (item.availability.available && item.shop !== null) shops.add(item.shop.id);
  }
  return shops.size;
}

/** The filters of a search, as tokens of the search index. */
function filterFactsOf(query: SearchQuery): FilterFact[] {
  const facts: FilterFact[] = [];
  if (query.categoryId !== undefined)
    facts.push({ kind: 'category', categoryId: query.categoryId });
  if (query.displayedOnline !== undefined) {
    facts.push({ kind: 'displayedOnline', value: query.displayedOnline });
  }
  if (query.shopId !== undefined) {
    facts.push({ kind: query.availableOnly ? 'availableInShop' : 'shop', shopId: query.shopId });
  } else if (query.availableOnly) {
    facts.push({ kind: 'stockAvailable' });
  }
  return facts;
}
