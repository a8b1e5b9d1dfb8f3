import type {
  CatalogChange,
  CatalogChangesReply,
  CatalogProductsReply,
} from '../../../shared/api/catalog.ts';
import { changeTypeFilters } from '../../../shared/api/catalog.ts';
import { splitCommaList } from '../../../shared/api/primitives.ts';
import {
  type CatalogFilter,
  derivedCatalogFields,
  toCatalogProduct,
} from '../../data/catalog-projection.ts';
import type { StoredProduct } from '../../data/model.ts';
import { invalidRequest } from '../errors.ts';
import type { Handlers } from '../handler.ts';
import { catalogPagination, changesPagination, pageOf } from '../pagination.ts';
import type { SandboxState } from '../state.ts';
import { modifiedSince, productShops } from './catalog-index.ts';

/** Relations every catalogue entry embeds (the route has no `include`). */
const catalogIncluded = ['category', 'supplier', 'media', 'stock', 'items'];

/**
 * The products a catalogue query matches, in catalogue order. Cached per filter until the
 * catalogue changes, so paging through a large catalogue costs one scan, not one per page.
 * With a shop or `availableOnly`, a product without any item in view is left out.
 */
function catalogMatches(
  state: SandboxState,
  filter: CatalogFilter & { displayedOnline: boolean; updatedSince: string | undefined },
): readonly StoredProduct[] {
  const key = `catalog:${JSON.stringify([filter.shopId, filter.availableOnly, filter.displayedOnline, filter.updatedSince])}`;
  return state.memo(key, () => {
    const since = filter.updatedSince === undefined ? undefined : Date.parse(filter.updatedSince);
    const narrowsItems = filter.shopId !== undefined || filter.availableOnly === true;
    const matches: StoredProduct[] = [];
    for (const product of state.data.products.values()) {
      if (product.displayedOnline !== filter.displayedOnline) continue;
      if (since !== undefined && !modifiedSince(product, since)) continue;
      if (narrowsItems && derivedCatalogFields(product, filter).items.length === 0) continue;
      matches.push(product);
    }
    return matches;
  });
}

const changeTypeOf: Record<(typeof changeTypeFilters)[number], CatalogChange['type']> = {
  products: 'product',
  'product-items': 'product-item',
  categories: 'category',
  characteristics: 'characteristic',
  shops: 'shop',
};

/** First index of the (time-ordered) journal whose change is at or after `instant`. */
function firstAtOrAfter(journal: readonly CatalogChange[], instant: number): number {
  let low = 0;
  let high = journal.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (Date.parse(journal[middle]?.updatedAt ?? '') < instant) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * A change concerns a shop when it is that shop, an item of that shop, or a product with an item
 * there. Referential changes (categories, characteristics) concern every shop, and so do changes
 * whose record no longer exists (a deletion): a consumer would rather see an extra deletion than
 * miss one.
 */
function concernsShop(state: SandboxState, change: CatalogChange, shopId: string): boolean {
  const index = productShops(state);
  switch (change.type) {
    case 'shop':
      return change.id === shopId;
    case 'category':
    case 'characteristic':
      return true;
    case 'product-item': {
      const itemShop = index.itemShop.get(change.id);
      return itemShop === undefined || itemShop === shopId;
    }
    case 'product': {
      const shops = index.productShops.get(change.id);
      return shops === undefined || shops.has(shopId);
    }
  }
}

export const catalogHandlers = {
  listCatalogProducts: ({ state, query }) => {
    const filter = {
      ...(query.shopUuid === undefined ? {} : { shopId: query.shopUuid }),
      availableOnly: query.availableOnly,
      displayedOnline: query.displayedOnline,
      updatedSince: query.updatedSince,
    };
    const slice = pageOf(catalogMatches(state, filter), query.page, query.limit);
    const reply: CatalogProductsReply = {
      data: slice.items.map((product) => toCatalogProduct(product, filter)),
      pagination: catalogPagination(slice),
      filters: {
        page: query.page,
        limit: query.limit,
        updatedSince: query.updatedSince ?? null,
        shopUuid: query.shopUuid ?? null,
        availableOnly: query.availableOnly,
        displayedOnline: query.displayedOnline,
      },
      meta: {
        generatedAt: state.clock.now().toISOString(),
        currency: 'EUR',
        included: catalogIncluded,
      },
    };
    return { json: reply };
  },

  /**
   * The window is half-open: [since, until). `since` is inclusive, as the spec says; a change
   * dated exactly `until` belongs to the next window, whose `since` is this `until`. So a consumer
   * who stores the returned `until` as its next `since` sees every change exactly once. When
   * `until` is absent the server closes the window at its current time; a requested `until` in
   * the future is brought back to the current time (changes could still be written before it).
   * Store activity only ever dates changes at or after the current time, so nothing lands in a
   * window already handed out, and pages of one window (same `until`) are stable.
   */
  listCatalogChanges: ({ state, query }) => {
    const now = state.clock.nowMs();
    const since = Date.parse(query.since);
    let until: number;
    if (query.until === undefined) {
      // A `since` ahead of the server clock gives an empty window that resumes where it started.
      until = Math.max(since, now);
    } else {
      const requested = Date.parse(query.until);
      if (requested < since) throw invalidRequest('query parameter `until` is before `since`');
      until = Math.min(requested, Math.max(now, since));
    }
    const journal = state.data.changes;
    const types = new Set(
      splitCommaList<(typeof changeTypeFilters)[number]>(query.types).map(
        (type) => changeTypeOf[type],
      ),
    );
    const window = journal
      .slice(firstAtOrAfter(journal, since), firstAtOrAfter(journal, until))
      .filter(
        (change) =>
          (types.size === 0 || types.has(change.type)) &&
          (query.shopId === undefined || concernsShop(state, change, query.shopId)),
      );
    const slice = pageOf(window, query.page, query.limit);
    const reply: CatalogChangesReply = {
      since: new Date(since).toISOString(),
      until: new Date(until).toISOString(),
      changes: slice.items,
      pagination: changesPagination(slice),
    };
    return { json: reply };
  },
} satisfies Pick<Handlers, 'listCatalogProducts' | 'listCatalogChanges'>;
