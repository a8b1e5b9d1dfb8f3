import type { ProductReference } from '../../shared/api/products.ts';
import { MAX_PAGE_SIZE } from '../../shared/api/primitives.ts';
import type { GetProductReply, SearchProductsReply } from '../../shared/ipc/catalog.ts';
import { Forbidden } from '../api/index.ts';
import { groupByShop, hitOf, productCharacteristics, productViewOf } from './answers.ts';
import type { SearchQuery } from './search-query.ts';
import type { CatalogSource } from './source.ts';

/**
 * Searches and product lookups asked of the service. An account without `stock:read` still gets
 * an answer, without stock and shop filters, and the answer says which scopes it missed.
 */

export async function searchLive(
  source: CatalogSource,
  query: SearchQuery,
  askedAt: string,
): Promise<SearchProductsReply> {
  const { limit, offset } = query;
  // The products list pages by number: fetch the page holding `offset`, cut what is asked.
  const pageSize = Math.min(MAX_PAGE_SIZE, Math.max(limit, 50));
  const page = Math.floor(offset / pageSize) + 1;
  const text = query.text.trim();
  const base = {
    page,
    limit: pageSize,
    ...(text === '' ? {} : { search: text }),
    ...(query.categoryId === undefined ? {} : { categoryId: query.categoryId }),
    ...(query.displayedOnline === undefined ? {} : { displayedOnline: query.displayedOnline }),
  };
  const stockParameters = {
    include: 'media,stock',
    ...(query.shopId === undefined ? {} : { shopId: query.shopId }),
    ...(query.availableOnly ? { availableOnly: true } : {}),
  };
  let missingScopes: string[] | undefined;
  let reply;
  try {
    reply = await source.listProducts({ query: { ...base, ...stockParameters } });
  } catch (error) {
    if (!(error instanceof Forbidden) || !lacksOnlyStock(error)) throw error;
    missingScopes = missingOf(error);
    reply = await source.listProducts({ query: { ...base, include: 'media' } });
  }
  const start = offset - (page - 1) * pageSize;
  const hits = reply.data.slice(start, start + limit).map((reference) => hitOf(reference, null));
  return {
    source: 'live',
    asOf: askedAt,
    hits,
    ...(missingScopes === undefined ? {} : { missingScopes }),
  };
}

export async function productLive(
  source: CatalogSource,
  uuid: string,
  shopId: string | undefined,
  askedAt: string,
): Promise<GetProductReply> {
  const shop = shopId === undefined ? {} : { shopId };
  let missingScopes: string[] | undefined;
  let reference: ProductReference;
  try {
    reference = await source.getProduct({
      params: { productId: uuid },
      query: { include: 'items,stock,media,characteristics', ...shop },
    });
  } catch (error) {
    if (!(error instanceof Forbidden) || !lacksOnlyStock(error)) throw error;
    missingScopes = missingOf(error);
    reference = await source.getProduct({
      params: { productId: uuid },
      query: { include: 'media,characteristics' },
    });
  }
  const items = (reference.items ?? []).filter(
    (item) => shopId === undefined || item.shop?.id === shopId,
  );
  return {
    source: 'live',
    asOf: askedAt,
    product: productViewOf(reference, {
      supplier: null,
      stock: reference.stock ?? null,
      characteristics: reference.characteristics ?? productCharacteristics(items),
    }),
    shops: groupByShop(items),
    ...(missingScopes === undefined ? {} : { missingScopes }),
  };
}

/** A 403 that a request without the stock-dependent parameters would not get. */
function lacksOnlyStock(error: Forbidden): boolean {
  return (
    error.missingScopes.length === 0 || error.missingScopes.every((scope) => scope === 'stock:read')
  );
}

function missingOf(error: Forbidden): string[] {
  return error.missingScopes.length > 0 ? [...error.missingScopes] : ['stock:read'];
}
