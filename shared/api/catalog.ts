import { z } from 'zod';
import { CatalogPagination, ChangesPagination } from './pagination.ts';
import {
  Currency,
  DateTime,
  Id,
  IdFilter,
  commaList,
  limit,
  page,
  queryBoolean,
} from './primitives.ts';

/** The six availability statuses, computed by the service. */
export const availabilityStatuses = [
  'available',
  'out_of_stock',
  'sold',
  'reserved',
  'withdrawn',
  'unsalable',
] as const;
export const AvailabilityStatus = z.enum(availabilityStatuses).meta({ id: 'AvailabilityStatus' });
export type AvailabilityStatus = z.infer<typeof AvailabilityStatus>;

export const PriceRange = z
  .strictObject({ minInclTax: z.number(), maxInclTax: z.number(), currency: Currency })
  .meta({ id: 'PriceRange' });

export const Price = z
  .strictObject({
    inclTax: z.number().nullable(),
    exclTax: z.number().nullable(),
    currency: Currency,
  })
  .meta({ id: 'Price' });

export const CategoryRef = z
  .strictObject({ id: Id, code: z.string().nullable(), label: z.string().nullable() })
  .meta({ id: 'CategoryRef' });

export const ProductTypeRef = z
  .strictObject({ id: Id, code: z.string().nullable(), label: z.string().nullable() })
  .meta({ id: 'ProductTypeRef' });

export const SupplierRef = z
  .strictObject({ id: Id, name: z.string().nullable(), shortName: z.string().nullable() })
  .meta({ id: 'SupplierRef' });

export const ShopRef = z
  .strictObject({
    id: Id,
    name: z.string().nullable(),
    shortName: z.string().nullable(),
    city: z.string().nullable(),
  })
  .meta({ id: 'ShopRef' });

export const Stock = z
  .strictObject({ available: z.boolean(), totalQuantity: z.number().int().nullable() })
  .meta({ id: 'Stock' });

export const Media = z
  .strictObject({ type: z.enum(['image']), url: z.string(), isMain: z.boolean() })
  .meta({ id: 'Media' });

/** Whether a characteristic describes the product or each of its items. */
export const characteristicSources = ['product', 'item'] as const;

export const CharacteristicEntry = z
  .strictObject({
    code: z.string(),
    label: z.string(),
    value: z.string().nullable(),
    source: z.enum(characteristicSources),
  })
  .meta({ id: 'CharacteristicEntry' });

export const Availability = z
  .strictObject({
    available: z.boolean(),
    status: AvailabilityStatus,
    reason: z.string().nullable(),
  })
  .meta({ id: 'Availability' });

export const ItemEntry = z
  .strictObject({
    uuid: Id,
    code: z.string().nullable(),
    price: Price,
    promotionPrice: Price.nullable(),
    quantity: z.number().int().nullable(),
    availability: Availability,
    shop: ShopRef.nullable(),
    characteristics: z.array(CharacteristicEntry),
    inStockDate: z.string().nullable(),
    updatedAt: DateTime.nullable(),
  })
  .meta({ id: 'ItemEntry' });
export type ItemEntry = z.infer<typeof ItemEntry>;

export const CatalogProduct = z
  .strictObject({
    uuid: Id,
    reference: z.string().nullable(),
    ean: z.string().nullable(),
    name: z.string().nullable(),
    description: z.string().nullable(),
    displayedOnline: z.boolean(),
    quantityType: z.string().nullable(),
    category: CategoryRef.nullable(),
    priceRange: PriceRange.nullable(),
    promotionPriceRange: PriceRange.nullable(),
    availableItemsCount: z.number().int().min(0),
    stock: Stock,
    media: z.array(Media),
    updatedAt: DateTime.nullable(),
    supplier: SupplierRef.nullable(),
    items: z.array(ItemEntry),
  })
  .meta({ id: 'CatalogProduct' });
export type CatalogProduct = z.infer<typeof CatalogProduct>;

export const CatalogProductsQuery = z.strictObject({
  page,
  limit: limit(50),
  updatedSince: DateTime.optional(),
  shopUuid: z.string().min(1).optional(),
  availableOnly: queryBoolean(false),
  displayedOnline: queryBoolean(true),
});

export const CatalogProductsReply = z
  .strictObject({
    data: z.array(CatalogProduct),
    pagination: CatalogPagination,
    filters: z.strictObject({
      page: z.number().int(),
      limit: z.number().int(),
      updatedSince: z.string().nullable(),
      shopUuid: z.string().nullable(),
      availableOnly: z.boolean(),
      displayedOnline: z.boolean(),
    }),
    meta: z.strictObject({
      generatedAt: z.string(),
      currency: Currency,
      included: z.array(z.string()),
    }),
  })
  .meta({ id: 'CatalogProductsReply' });
export type CatalogProductsReply = z.infer<typeof CatalogProductsReply>;

export const changeTypes = [
  'product',
  'product-item',
  'category',
  'characteristic',
  'shop',
] as const;
export const changeActions = [
  'created',
  'updated',
  'deleted',
  'price_updated',
  'stock_updated',
  'visibility_updated',
  'media_updated',
] as const;
/** Values of the `types` filter: plural, unlike the change entry's `type`. */
export const changeTypeFilters = [
  'products',
  'product-items',
  'categories',
  'characteristics',
  'shops',
] as const;

export const CatalogChange = z
  .strictObject({
    type: z.enum(changeTypes),
    id: Id,
    productId: z.string().optional(),
    action: z.enum(changeActions),
    updatedAt: DateTime,
  })
  .meta({ id: 'CatalogChange' });
export type CatalogChange = z.infer<typeof CatalogChange>;

export const CatalogChangesQuery = z.strictObject({
  since: DateTime.meta({ description: 'Inclusive lower bound of the window.' }),
  until: DateTime.optional().meta({
    description: 'Upper bound; keep the returned value on every page of a window.',
  }),
  types: commaList(changeTypeFilters).optional(),
  shopId: IdFilter.optional(),
  page,
  limit: limit(100),
});

export const CatalogChangesReply = z
  .strictObject({
    since: DateTime,
    until: DateTime,
    changes: z.array(CatalogChange),
    pagination: ChangesPagination,
  })
  .meta({ id: 'CatalogChangesReply' });
export type CatalogChangesReply = z.infer<typeof CatalogChangesReply>;
