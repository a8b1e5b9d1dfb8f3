import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { z } from 'zod';
import type {
  CatalogProduct,
  CategoryRef,
  CharacteristicEntry,
  ItemEntry,
  Media,
  PriceRange,
  ShopRef,
  Stock,
  SupplierRef,
} from '../../shared/api/catalog.ts';
import type { ProductReference } from '../../shared/api/products.ts';
import { Forbidden, NotFound, isCommerceApiError } from '../api/errors.ts';
import type { KioskDatabase } from '../storage/database.ts';
import { CatalogError } from './errors.ts';
import { liveTables } from './schema.ts';
import { type FilterFact, ftsFilteredQuery, ftsQueryOf } from './search-text.ts';
import type { CatalogSource, OnlineProbe } from './source.ts';
import { SyncState } from './sync-state.ts';

/**
 * "Is it in stock in this shop, at what price": answered from the mirror (instant, and offline
 * too, with the time it reflects), or from the service when the caller wants fresh data and the
 * kiosk is online. Prices, stock and availability are shown exactly as the service returned them;
 * nothing here computes a price or a stock figure.
 */

export interface SearchQuery {
  /** What staff typed: words in any order, accents and case ignored, each a prefix. */
  readonly text: string;
  /** Only products with an item in this shop (and, with `availableOnly`, an available one). */
  readonly shopId?: string | undefined;
  /** With a shop: an available item there; without: the service's product-level stock. */
  readonly availableOnly?: boolean | undefined;
  readonly categoryId?: string | undefined;
  readonly displayedOnline?: boolean | undefined;
  /** 1 to 100 (default 20). */
  readonly limit?: number | undefined;
  readonly offset?: number | undefined;
  /** Ask the service (when online) instead of the mirror. */
  readonly fresh?: boolean | undefined;
}

export interface SearchHit {
  readonly uuid: string;
  readonly name: string | null;
  readonly reference: string | null;
  readonly ean: string | null;
  readonly category: z.infer<typeof CategoryRef> | null;
  readonly displayedOnline: boolean;
  readonly priceRange: z.infer<typeof PriceRange> | null;
  readonly promotionPriceRange: z.infer<typeof PriceRange> | null;
  readonly availableItemsCount: number;
  /** Null when the service left it out (an account without `stock:read`). */
  readonly stock: z.infer<typeof Stock> | null;
  readonly mainImage: string | null;
  /** With a shop filter, from the mirror: that shop's items, as the service returned them. */
  readonly shopItems: readonly ItemEntry[] | null;
}

export type AnswerSource = 'mirror' | 'live';

interface AnswerMeta {
  readonly source: AnswerSource;
  /** Mirror answers: the service time the mirror reflects. Live answers: when it was asked. */
  readonly asOf: string | null;
  /** Live was asked but failed; the mirror answered instead. */
  readonly liveError?: { readonly code: string; readonly message: string };
  /** The live answer lacks what these scopes would have shown (stock, items). */
  readonly missingScopes?: readonly string[];
}

export interface SearchAnswer extends AnswerMeta {
  readonly hits: readonly SearchHit[];
}

export interface ProductView {
  readonly uuid: string;
  readonly reference: string | null;
  readonly ean: string | null;
  readonly name: string | null;
  readonly description: string | null;
  readonly displayedOnline: boolean;
  readonly quantityType: string | null;
  readonly category: z.infer<typeof CategoryRef> | null;
  /** Null from the live route, which does not carry it. */
  readonly supplier: z.infer<typeof SupplierRef> | null;
  readonly priceRange: z.infer<typeof PriceRange> | null;
  readonly promotionPriceRange: z.infer<typeof PriceRange> | null;
  readonly availableItemsCount: number;
  readonly stock: z.infer<typeof Stock> | null;
  readonly media: readonly z.infer<typeof Media>[];
  readonly mainImage: string | null;
  readonly updatedAt: string | null;
  /** Product-level characteristics (`source: product`). */
  readonly characteristics: readonly z.infer<typeof CharacteristicEntry>[];
}

export interface ShopAvailability {
  /** Null for items held outside any shop (a warehouse). */
  readonly shop: z.infer<typeof ShopRef> | null;
  /** Each with its availability status and reason, price and promotion price as returned. */
  readonly items: readonly ItemEntry[];
}

export interface ProductAnswer extends AnswerMeta {
  readonly product: ProductView;
  readonly shops: readonly ShopAvailability[];
}

export interface ProductLookup {
  /** Only this shop's items (live: the service narrows stock and prices to it). */
  readonly shopId?: string | undefined;
  readonly fresh?: boolean | undefined;
}

export interface CatalogQueriesOptions {
  readonly database: KioskDatabase;
  /** The service, for live answers; without it every answer comes from the mirror. */
  readonly source?: CatalogSource;
  readonly online?: OnlineProbe;
  readonly now?: () => number;
}

const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 100;
/**
 * bm25 weights of name, reference, EAN, description, filters: a name or code match outranks
 * prose; filter tokens do not rank.
 */
const RANK = `bm25(${liveTables.search}, 10.0, 8.0, 8.0, 1.0, 0.0)`;

export class CatalogQueries {
  readonly #db: DatabaseSync;
  readonly #state: SyncState;
  readonly #source: CatalogSource | undefined;
  readonly #online: OnlineProbe | undefined;
  readonly #now: () => number;
  readonly #statements = new Map<string, StatementSync>();

  constructor(options: CatalogQueriesOptions) {
    this.#db = options.database.connection;
    this.#state = new SyncState(this.#db);
    this.#source = options.source;
    this.#online = options.online;
    this.#now = options.now ?? Date.now;
  }

  /** A full synchronisation completed: the mirror can answer. */
  get ready(): boolean {
    return this.#state.get('lastFullSync') !== undefined;
  }

  async search(query: SearchQuery): Promise<SearchAnswer> {
    checkSearch(query);
    const live = this.#liveWanted(query.fresh);
    if (live === undefined) return this.#mirrorOrUnavailable(() => this.searchMirror(query));
    try {
      return await this.#searchLive(live, query);
    } catch (error) {
      return this.#afterLiveFailure(error, () => this.searchMirror(query));
    }
  }

  /** The mirror's answer, synchronous (it never waits for the network). */
  searchMirror(query: SearchQuery): SearchAnswer {
    checkSearch(query);
    return this.#snapshot(() => this.#searchMirror(query));
  }

  #searchMirror(query: SearchQuery): SearchAnswer {
    const t = liveTables;
    const match = ftsQueryOf(query.text);
    const parameters: (string | number)[] = [];
    let sql: string;
    // Ranking reads ids only; the bodies (kilobytes each) are read for the page of hits alone.
    if (match !== null) {
      // Words and filters are all resolved inside the search index (filter tokens).
      const facts: FilterFact[] = [];
      if (query.categoryId !== undefined)
        facts.push({ kind: 'category', categoryId: query.categoryId });
      if (query.displayedOnline !== undefined) {
        facts.push({ kind: 'displayedOnline', value: query.displayedOnline });
      }
      if (query.shopId !== undefined) {
        facts.push({
          kind: query.availableOnly ? 'availableInShop' : 'shop',
          shopId: query.shopId,
        });
      } else if (query.availableOnly) {
        facts.push({ kind: 'stockAvailable' });
      }
      parameters.push(ftsFilteredQuery(match, facts));
      sql = `SELECT rowid AS id FROM ${t.search} WHERE ${t.search} MATCH ?
        ORDER BY ${RANK}, rowid LIMIT ? OFFSET ?`;
    } else {
      // Browsing (no words): in name order, along the name index, until the page is full.
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
      sql = `SELECT p.id AS id FROM ${t.products} p
        ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''}
        ORDER BY p.sort_name, p.id LIMIT ? OFFSET ?`;
    }
    parameters.push(query.limit ?? DEFAULT_LIMIT, query.offset ?? 0);
    const ids = this.#statement(sql).all(...parameters) as { id: number }[];
    const body = this.#statement(`SELECT body FROM ${t.bodies} WHERE id = ?`);
    const rows = ids.map(({ id }) => ({ id, body: (body.get(id) as { body: string }).body }));
    const hits = rows.map((row) => {
      const product = JSON.parse(row.body) as Omit<CatalogProduct, 'items'>;
      const shopItems =
        query.shopId === undefined
          ? null
          : this.#items(row.id).filter((item) => item.shop?.id === query.shopId);
      return hitOf(product, shopItems);
    });
    return { source: 'mirror', asOf: this.#asOf(), hits };
  }

  async product(uuid: string, lookup: ProductLookup = {}): Promise<ProductAnswer> {
    const live = this.#liveWanted(lookup.fresh);
    const fromMirror = () => {
      const answer = this.productFromMirror(uuid, lookup);
      if (answer === undefined) {
        throw new CatalogError('CATALOG_PRODUCT_NOT_FOUND', `product ${uuid} is not in the mirror`);
      }
      return answer;
    };
    // A product the mirror does not know yet (created since the last window) is worth asking.
    const useLive = live ?? (this.ready && this.#hasProduct(uuid) ? undefined : this.#liveAny());
    if (useLive === undefined) return this.#mirrorOrUnavailable(fromMirror);
    try {
      return await this.#productLive(useLive, uuid, lookup);
    } catch (error) {
      if (error instanceof NotFound) {
        throw new CatalogError(
          'CATALOG_PRODUCT_NOT_FOUND',
          `the service does not know product ${uuid}`,
          {
            cause: error,
          },
        );
      }
      return this.#afterLiveFailure(error, fromMirror);
    }
  }

  productFromMirror(uuid: string, lookup: ProductLookup = {}): ProductAnswer | undefined {
    return this.#snapshot(() => this.#productFromMirror(uuid, lookup));
  }

  #productFromMirror(uuid: string, lookup: ProductLookup): ProductAnswer | undefined {
    const row = this.#statement(
      `SELECT p.id AS id, b.body AS body FROM ${liveTables.products} p
       JOIN ${liveTables.bodies} b ON b.id = p.id WHERE p.uuid = ?`,
    ).get(uuid) as { id: number; body: string } | undefined;
    if (row === undefined) return undefined;
    const product = JSON.parse(row.body) as Omit<CatalogProduct, 'items'>;
    const items = this.#items(row.id);
    const inView =
      lookup.shopId === undefined ? items : items.filter((item) => item.shop?.id === lookup.shopId);
    return {
      source: 'mirror',
      asOf: this.#asOf(),
      product: {
        ...viewOf(product),
        supplier: product.supplier,
        availableItemsCount: product.availableItemsCount,
        stock: product.stock,
        characteristics: productCharacteristics(items),
      },
      shops: groupByShop(inView),
    };
  }

  // ---- live ----

  #liveAny(): CatalogSource | undefined {
    return this.#source !== undefined && (this.#online?.isOnline() ?? true)
      ? this.#source
      : undefined;
  }

  /**
   * The service, when the caller asks for fresh data, or when the mirror cannot answer (never
   * synchronised, or the account lacks the catalogue scopes so it is not kept up to date).
   */
  #liveWanted(fresh: boolean | undefined): CatalogSource | undefined {
    const source = this.#liveAny();
    if (source === undefined) return undefined;
    return this.searchWantsService(fresh) ? source : undefined;
  }

  /**
   * Whether `search` with this `fresh` asks the service (given one, and online) rather than the
   * mirror: for a caller that sets up the service, and its credentials, only when it is asked.
   */
  searchWantsService(fresh?: boolean): boolean {
    return fresh === true || !this.ready || this.#state.get('forbidden') !== undefined;
  }

  async #searchLive(source: CatalogSource, query: SearchQuery): Promise<SearchAnswer> {
    const limit = query.limit ?? DEFAULT_LIMIT;
    const offset = query.offset ?? 0;
    // The products list pages by number: fetch the page holding `offset`, cut what is asked.
    const pageSize = Math.min(500, Math.max(limit, 50));
    const page = Math.floor(offset / pageSize) + 1;
    const base = {
      page,
      limit: pageSize,
      ...(query.text.trim() === '' ? {} : { search: query.text.trim().slice(0, 300) }),
      ...(query.categoryId === undefined ? {} : { categoryId: query.categoryId }),
      ...(query.displayedOnline === undefined ? {} : { displayedOnline: query.displayedOnline }),
    };
    const askedAt = new Date(this.#now()).toISOString();
    const stockParameters = {
      include: 'media,stock',
      ...(query.shopId === undefined ? {} : { shopId: query.shopId }),
      ...(query.availableOnly ? { availableOnly: true } : {}),
    };
    let missingScopes: readonly string[] | undefined;
    let reply;
    try {
      reply = await source.listProducts({ query: { ...base, ...stockParameters } });
    } catch (error) {
      // Without stock:read the list still answers, without stock and shop filters: say so.
      if (!(error instanceof Forbidden) || !lacksOnlyStock(error)) throw error;
      missingScopes = error.missingScopes.length > 0 ? error.missingScopes : ['stock:read'];
      reply = await source.listProducts({ query: { ...base, include: 'media' } });
    }
    const start = offset - (page - 1) * pageSize;
    const hits = reply.data
      .slice(start, start + limit)
      .map((reference) => hitOfReference(reference));
    return {
      source: 'live',
      asOf: askedAt,
      hits,
      ...(missingScopes === undefined ? {} : { missingScopes }),
    };
  }

  async #productLive(
    source: CatalogSource,
    uuid: string,
    lookup: ProductLookup,
  ): Promise<ProductAnswer> {
    const askedAt = new Date(this.#now()).toISOString();
    const shop = lookup.shopId === undefined ? {} : { shopId: lookup.shopId };
    let missingScopes: readonly string[] | undefined;
    let reference: ProductReference;
    try {
      reference = await source.getProduct({
        params: { productId: uuid },
        query: { include: 'items,stock,media,characteristics', ...shop },
      });
    } catch (error) {
      if (!(error instanceof Forbidden) || !lacksOnlyStock(error)) throw error;
      missingScopes = error.missingScopes.length > 0 ? error.missingScopes : ['stock:read'];
      reference = await source.getProduct({
        params: { productId: uuid },
        query: { include: 'media,characteristics' },
      });
    }
    const items = (reference.items ?? []).filter(
      (item) => lookup.shopId === undefined || item.shop?.id === lookup.shopId,
    );
    return {
      source: 'live',
      asOf: askedAt,
      product: {
        ...viewOf(reference),
        supplier: null,
        availableItemsCount: reference.availableItemsCount,
        stock: reference.stock ?? null,
        characteristics: reference.characteristics ?? productCharacteristics(items),
      },
      shops: groupByShop(items),
      ...(missingScopes === undefined ? {} : { missingScopes }),
    };
  }

  /** A live failure: the mirror answers if it can, with the reason live did not. */
  #afterLiveFailure<T extends AnswerMeta>(error: unknown, fromMirror: () => T): T {
    if (!this.ready) {
      if (error instanceof Forbidden) {
        throw new CatalogError(
          'CATALOG_FORBIDDEN',
          `the integration account cannot read products${error.missingScopes.length > 0 ? `: missing ${error.missingScopes.join(', ')}` : ''}`,
          { cause: error, missingScopes: error.missingScopes },
        );
      }
      throw error;
    }
    const answer = fromMirror();
    const code = isCommerceApiError(error) ? error.code : 'UNEXPECTED';
    const message = error instanceof Error ? error.message : String(error);
    return { ...answer, liveError: { code, message } };
  }

  #mirrorOrUnavailable<T>(fromMirror: () => T): T {
    if (!this.ready) {
      throw new CatalogError(
        'CATALOG_UNAVAILABLE',
        'the catalogue has not been synchronised yet and the service cannot be reached',
      );
    }
    return fromMirror();
  }

  // ---- mirror helpers ----

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

  #items(productId: number): ItemEntry[] {
    const rows = this.#statement(
      `SELECT body FROM ${liveTables.items} WHERE product_id = ? ORDER BY position`,
    ).all(productId) as { body: string }[];
    return rows.map((row) => JSON.parse(row.body) as ItemEntry);
  }

  #hasProduct(uuid: string): boolean {
    return (
      this.#statement(`SELECT 1 FROM ${liveTables.products} WHERE uuid = ?`).get(uuid) !== undefined
    );
  }

  #asOf(): string | null {
    return this.#state.get('asOf') ?? null;
  }
}

function checkSearch(query: SearchQuery): void {
  const limit = query.limit ?? DEFAULT_LIMIT;
  const offset = query.offset ?? 0;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
    throw new CatalogError(
      'CATALOG_INVALID_QUERY',
      `limit must be an integer from 1 to ${MAX_LIMIT}`,
    );
  }
  if (!Number.isInteger(offset) || offset < 0) {
    throw new CatalogError('CATALOG_INVALID_QUERY', 'offset must be an integer >= 0');
  }
  if (query.text.length > 300) {
    throw new CatalogError('CATALOG_INVALID_QUERY', 'the search text is limited to 300 characters');
  }
}

/** A 403 that a request without the stock-dependent parameters would not get. */
function lacksOnlyStock(error: Forbidden): boolean {
  return (
    error.missingScopes.length === 0 || error.missingScopes.every((scope) => scope === 'stock:read')
  );
}

function mainImageOf(media: readonly z.infer<typeof Media>[] | undefined): string | null {
  return media?.find((entry) => entry.isMain)?.url ?? null;
}

function hitOf(product: Omit<CatalogProduct, 'items'>, shopItems: ItemEntry[] | null): SearchHit {
  return {
    uuid: product.uuid,
    name: product.name,
    reference: product.reference,
    ean: product.ean,
    category: product.category,
    displayedOnline: product.displayedOnline,
    priceRange: product.priceRange,
    promotionPriceRange: product.promotionPriceRange,
    availableItemsCount: product.availableItemsCount,
    stock: product.stock,
    mainImage: mainImageOf(product.media),
    shopItems,
  };
}

function hitOfReference(reference: ProductReference): SearchHit {
  return {
    uuid: reference.uuid,
    name: reference.name,
    reference: reference.reference,
    ean: reference.ean,
    category: reference.category,
    displayedOnline: reference.displayedOnline,
    priceRange: reference.priceRange,
    promotionPriceRange: reference.promotionPriceRange,
    availableItemsCount: reference.availableItemsCount,
    stock: reference.stock ?? null,
    mainImage: mainImageOf(reference.media),
    shopItems: null,
  };
}

type CommonFields = Pick<
  ProductView,
  | 'uuid'
  | 'reference'
  | 'ean'
  | 'name'
  | 'description'
  | 'displayedOnline'
  | 'quantityType'
  | 'category'
  | 'priceRange'
  | 'promotionPriceRange'
  | 'media'
  | 'mainImage'
  | 'updatedAt'
>;

function viewOf(product: Omit<CatalogProduct, 'items'> | ProductReference): CommonFields {
  return {
    uuid: product.uuid,
    reference: product.reference,
    ean: product.ean,
    name: product.name,
    description: product.description,
    displayedOnline: product.displayedOnline,
    quantityType: product.quantityType,
    category: product.category,
    priceRange: product.priceRange,
    promotionPriceRange: product.promotionPriceRange,
    media: product.media ?? [],
    mainImage: mainImageOf(product.media),
    updatedAt: product.updatedAt,
  };
}

/** The catalogue entry carries product-level characteristics on its items; one of each. */
function productCharacteristics(
  items: readonly ItemEntry[],
): z.infer<typeof CharacteristicEntry>[] {
  const seen = new Map<string, z.infer<typeof CharacteristicEntry>>();
  for (const item of items) {
    for (const entry of item.characteristics) {
      if (entry.source === 'product' && !seen.has(entry.code)) seen.set(entry.code, entry);
    }
  }
  return [...seen.values()];
}

function groupByShop(items: readonly ItemEntry[]): ShopAvailability[] {
  const groups = new Map<
    string | null,
    { shop: z.infer<typeof ShopRef> | null; items: ItemEntry[] }
  >();
  for (const item of items) {
    const key = item.shop?.id ?? null;
    let group = groups.get(key);
    if (group === undefined) {
      group = { shop: item.shop, items: [] };
      groups.set(key, group);
    }
    group.items.push(item);
  }
  return [...groups.values()];
}
