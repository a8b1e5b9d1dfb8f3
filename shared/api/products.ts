import { z } from 'zod';
import { CatalogProduct, CharacteristicEntry, ItemEntry, ProductTypeRef } from './catalog.ts';
import { ListPagination, ProductsPagination, listOf } from './pagination.ts';
import { DateTime, Id, IdFilter, commaList, limit, page, queryBoolean } from './primitives.ts';

export const productIncludes = ['characteristics', 'media', 'stock', 'prices'] as const;
/** The detail also accepts `items`: the spec names `include=items` among the stock-scoped inclusions. */
export const productDetailIncludes = [...productIncludes, 'items'] as const;

/** The spec's `search` limit; the kiosk's search text is sent as `search`, so it shares it. */
export const MAX_SEARCH_LENGTH = 300;

/** The spec gives the reference's fields the "same types as in the catalogue entry". */
const entry = CatalogProduct.shape;

export const ProductReference = z
  .object({
    uuid: entry.uuid,
    reference: entry.reference,
    ean: entry.ean,
    name: entry.name,
    description: entry.description,
    displayedOnline: entry.displayedOnline,
    quantityType: entry.quantityType,
    category: entry.category,
    productType: ProductTypeRef.nullable(),
    priceRange: entry.priceRange,
    promotionPriceRange: entry.promotionPriceRange,
    availableItemsCount: entry.availableItemsCount,
    updatedAt: entry.updatedAt,
    stock: entry.stock.optional(),
    media: entry.media.optional(),
    characteristics: z.array(CharacteristicEntry).optional(),
    items: entry.items.optional().meta({
      'x-assumption':
        'Present on the detail with include=items; the item shape is the catalogue item entry.',
    }),
  })
  .meta({ id: 'ProductReference' });
export type ProductReference = z.infer<typeof ProductReference>;

export const ProductsQuery = z.strictObject({
  page,
  limit: limit(50),
  search: z.string().min(1).max(MAX_SEARCH_LENGTH).optional(),
  displayedOnline: queryBoolean(true),
  availableOnly: queryBoolean(false),
  updatedSince: DateTime.optional(),
  supplierId: IdFilter.optional(),
  productTypeId: IdFilter.optional(),
  categoryId: IdFilter.optional(),
  shopId: IdFilter.optional(),
  include: commaList(productIncludes).optional(),
});

export const ProductsReply = z
  .object({ data: z.array(ProductReference), pagination: ProductsPagination })
  .meta({ id: 'ProductsReply' });

export const ProductDetailQuery = z
  .strictObject({
    include: commaList(productDetailIncludes).optional(),
    shopId: IdFilter.optional(),
  })
  .meta({
    'x-assumption':
      'Parameters of the detail are not shown; we assume include (the list values plus items) and shopId.',
  });

/**
 * A physical item out of the item routes: the spec's item entry, and nothing more required. The
 * entry's own fields are checked as the catalogue checks them; members the service adds are
 * dropped, except `productId`, kept when the service sends one (the sandbox's default dialect
 * does): the change feed uses it to find an item's product, and does without it.
 */
export const ProductItem = z.object({ ...ItemEntry.shape, productId: Id.optional() }).meta({
  id: 'ProductItem',
  'x-assumption':
    'Item routes are not detailed; the identifier provenance line says they return items, so we require the catalogue item entry. productId is read when present, never required.',
});
export type ProductItem = z.infer<typeof ProductItem>;

export const ProductItemsQuery = z
  .strictObject({
    page,
    limit: limit(50),
    shopId: IdFilter.optional(),
    availableOnly: queryBoolean(false),
  })
  .meta({ 'x-assumption': 'Not shown; we assume page, limit, shopId and availableOnly.' });

export const ItemsListQuery = ProductItemsQuery.extend({
  productId: IdFilter.optional(),
  updatedSince: DateTime.optional(),
}).meta({
  'x-assumption':
    'Not shown; we assume page, limit, shopId, availableOnly, productId and updatedSince.',
});

export const ProductItemsReply = listOf(ProductItem, ListPagination).meta({
  id: 'ProductItemsReply',
});
