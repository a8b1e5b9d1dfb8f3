import type { ItemEntry } from '../../../shared/api/catalog.ts';
import { splitCommaList } from '../../../shared/api/primitives.ts';
import type { ProductItem, ProductReference } from '../../../shared/api/products.ts';
import {
  type CatalogFilter,
  derivedCatalogFields,
  describingFields,
  filterItems,
} from '../../data/catalog-projection.ts';
import type { SandboxData, StoredProduct } from '../../data/model.ts';
import { notFound } from '../errors.ts';
import type { Handlers } from '../handler.ts';
import { listPagination, pageOf, productsPagination } from '../pagination.ts';
import type { SandboxState } from '../state.ts';
import { normalizeText } from '../text.ts';
import { allItems, itemsById, modifiedSince } from './catalog-index.ts';

type Include = 'characteristics' | 'media' | 'stock' | 'prices' | 'items';

/**
 * The product reference entry. Price ranges and `availableItemsCount` are required members and
 * always computed (so `include=prices` is accepted and changes nothing); `stock`, `media`,
 * `characteristics` and (detail only) `items` appear only when included. With a shop, every
 * derived figure is that shop's.
 */
function productReference(
  product: StoredProduct,
  filter: CatalogFilter,
  include: readonly Include[],
): ProductReference {
  const derived = derivedCatalogFields(product, filter);
  return {
    ...describingFields(product),
    productType: product.productType,
    priceRange: derived.priceRange,
    promotionPriceRange: derived.promotionPriceRange,
    availableItemsCount: derived.availableItemsCount,
    updatedAt: product.updatedAt,
    ...(include.includes('stock') ? { stock: derived.stock } : {}),
    ...(include.includes('media') ? { media: product.media } : {}),
    ...(include.includes('characteristics') ? { characteristics: product.characteristics } : {}),
    ...(include.includes('items') ? { items: derived.items } : {}),
  };
}

const asProductItem = (item: ItemEntry, productId: string): ProductItem => ({ ...item, productId });

/**
 * Normalized text searched by `search`: name, reference, EAN and description, accents and case
 * ignored. Normalizing is the costly part of a search over a large catalogue, so it is cached per
 * product and redone only when one of those fields changed (activity edits products in place).
 */
const haystacks = new WeakMap<SandboxData, Map<string, { source: string; text: string }>>();

function haystack(state: SandboxState, product: StoredProduct): string {
  let cache = haystacks.get(state.data);
  if (cache === undefined) {
    cache = new Map();
    haystacks.set(state.data, cache);
  }
  const source = [product.name, product.reference, product.ean, product.description]
    .filter((part) => part !== null)
    .join(' \u0000 ');
  const cached = cache.get(product.uuid);
  if (cached?.source === source) return cached.text;
  const text = normalizeText(source);
  cache.set(product.uuid, { source, text });
  return text;
}

function requireProduct(state: SandboxState, productId: string): StoredProduct {
  const product = state.data.products.get(productId);
  if (!product) throw notFound(`no product ${productId}`);
  return product;
}

export const productHandlers = {
  /** Every term of `search` must occur in the product's normalized text. */
  listProducts: ({ state, query }) => {
    const filter: CatalogFilter = {
      ...(query.shopId === undefined ? {} : { shopId: query.shopId }),
      availableOnly: query.availableOnly,
    };
    const terms =
      query.search === undefined
        ? []
        : normalizeText(query.search)
            .split(' ')
            .filter((term) => term !== '');
    const since = query.updatedSince === undefined ? undefined : Date.parse(query.updatedSince);
    const key = `products:${JSON.stringify([query.displayedOnline, query.availableOnly, query.shopId, query.supplierId, query.productTypeId, query.categoryId, query.updatedSince, terms])}`;
    const matches = state.memo(key, () => {
      const found: StoredProduct[] = [];
      for (const product of state.data.products.values()) {
        if (product.displayedOnline !== query.displayedOnline) continue;
        if (query.supplierId !== undefined && product.supplier?.id !== query.supplierId) continue;
        if (query.productTypeId !== undefined && product.productType?.id !== query.productTypeId)
          continue;
        if (query.categoryId !== undefined && product.category?.id !== query.categoryId) continue;
        if (since !== undefined && !modifiedSince(product, since)) continue;
        if (terms.length > 0) {
          const text = haystack(state, product);
          if (!terms.every((term) => text.includes(term))) continue;
        }
        if (
          (filter.shopId !== undefined || filter.availableOnly) &&
          filterItems(product.items, filter).length === 0
        )
          continue;
        found.push(product);
      }
      return found;
    });
    const slice = pageOf(matches, query.page, query.limit);
    const include = splitCommaList<Include>(query.include);
    return {
      json: {
        data: slice.items.map((product) => productReference(product, filter, include)),
        pagination: productsPagination(slice),
      },
    };
  },

  getProduct: ({ state, params, query }) => {
    const product = requireProduct(state, params.productId);
    const filter: CatalogFilter = query.shopId === undefined ? {} : { shopId: query.shopId };
    return { json: productReference(product, filter, splitCommaList<Include>(query.include)) };
  },

  listProductItemsOfProduct: ({ state, params, query }) => {
    const product = requireProduct(state, params.productId);
    const items = filterItems(product.items, {
      ...(query.shopId === undefined ? {} : { shopId: query.shopId }),
      availableOnly: query.availableOnly,
    });
    const slice = pageOf(items, query.page, query.limit);
    return {
      json: {
        data: slice.items.map((item) => asProductItem(item, product.uuid)),
        pagination: listPagination(slice),
      },
    };
  },

  listProductItems: ({ state, query }) => {
    const since = query.updatedSince === undefined ? undefined : Date.parse(query.updatedSince);
    const key = `product-items:${JSON.stringify([query.productId, query.shopId, query.availableOnly, query.updatedSince])}`;
    const matches = state.memo(key, () =>
      allItems(state).filter(
        ({ item, product }) =>
          (query.productId === undefined || product.uuid === query.productId) &&
          (query.shopId === undefined || item.shop?.id === query.shopId) &&
          (!query.availableOnly || item.availability.available) &&
          (since === undefined || (item.updatedAt !== null && Date.parse(item.updatedAt) >= since)),
      ),
    );
    const slice = pageOf(matches, query.page, query.limit);
    return {
      json: {
        data: slice.items.map(({ item, product }) => asProductItem(item, product.uuid)),
        pagination: listPagination(slice),
      },
    };
  },

  getProductItem: ({ state, params }) => {
    const record = itemsById(state).get(params.itemId);
    if (!record) throw notFound(`no product item ${params.itemId}`);
    return { json: asProductItem(record.item, record.product.uuid) };
  },
} satisfies Pick<
  Handlers,
  | 'listProducts'
  | 'getProduct'
  | 'listProductItemsOfProduct'
  | 'listProductItems'
  | 'getProductItem'
>;
