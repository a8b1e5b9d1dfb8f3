import { z } from 'zod';
import { CatalogProduct, CharacteristicEntry, ItemEntry, ShopRef, Stock } from '../api/catalog.ts';
import { Shop } from '../api/referentials.ts';
import { EmptyRequest, IsoTime, RecordId } from './common.ts';
import { defineMessage } from './message.ts';

/** Catalogue and availability: answered from the local mirror, or live when asked and online. */

export const AnswerSource = z.enum(['mirror', 'live']);

/** Where an answer comes from and how fresh it is. */
const answerMeta = {
  source: AnswerSource,
  /** Mirror: the service time the mirror reflects. Live: when the service was asked. */
  asOf: z.string().nullable(),
  /** Live was asked but failed, so the mirror answered. */
  liveError: z.object({ code: z.string(), message: z.string() }).optional(),
  /** The live answer lacks what these scopes would have shown. */
  missingScopes: z.array(z.string()).optional(),
};

export const SearchProductsRequest = z.strictObject({
  /** What staff typed: words in any order, accents and case ignored; empty lists everything. */
  text: z.string().max(200),
  shopId: RecordId.optional(),
  availableOnly: z.boolean().optional(),
  categoryId: RecordId.optional(),
  displayedOnline: z.boolean().optional(),
  limit: z.number().int().min(1).max(100).optional(),
  offset: z.number().int().min(0).max(100_000).optional(),
  /** Ask the service (when online) rather than the mirror. */
  fresh: z.boolean().optional(),
});
export type SearchProductsRequest = z.input<typeof SearchProductsRequest>;

export const SearchHit = z
  .object(
    CatalogProduct.pick({
      uuid: true,
      name: true,
      reference: true,
      ean: true,
      category: true,
      displayedOnline: true,
      priceRange: true,
      promotionPriceRange: true,
      availableItemsCount: true,
    }).shape,
  )
  .extend({
    /** Null when the service left it out (an account without `stock:read`). */
    stock: Stock.nullable(),
    mainImage: z.string().nullable(),
    /** With a shop filter: that shop's items, as the service returned them. */
    shopItems: z.array(ItemEntry).nullable(),
  });
export type SearchHit = z.infer<typeof SearchHit>;

export const SearchProductsReply = z.object({ ...answerMeta, hits: z.array(SearchHit) });
export type SearchProductsReply = z.infer<typeof SearchProductsReply>;

export const GetProductRequest = z.strictObject({
  productId: RecordId,
  /** Only this shop's items. */
  shopId: RecordId.optional(),
  fresh: z.boolean().optional(),
});
export type GetProductRequest = z.input<typeof GetProductRequest>;

/** The catalogue entry as the service returned it, minus its items (grouped by shop below). */
export const ProductView = z
  .object(
    CatalogProduct.pick({
      uuid: true,
      reference: true,
      ean: true,
      name: true,
      description: true,
      displayedOnline: true,
      quantityType: true,
      category: true,
      supplier: true,
      priceRange: true,
      promotionPriceRange: true,
      availableItemsCount: true,
      media: true,
    }).shape,
  )
  .extend({
    stock: Stock.nullable(),
    mainImage: z.string().nullable(),
    updatedAt: z.string().nullable(),
    characteristics: z.array(CharacteristicEntry),
  });
export type ProductView = z.infer<typeof ProductView>;

/** Items grouped by shop; `shop` is null for items held outside any shop (a warehouse). */
export const ShopAvailability = z.object({ shop: ShopRef.nullable(), items: z.array(ItemEntry) });
export type ShopAvailability = z.infer<typeof ShopAvailability>;

export const GetProductReply = z.object({
  ...answerMeta,
  product: ProductView,
  shops: z.array(ShopAvailability),
});
export type GetProductReply = z.infer<typeof GetProductReply>;

export const ListShopsReply = z.object({ source: AnswerSource, shops: z.array(Shop) });
export type ListShopsReply = z.infer<typeof ListShopsReply>;

export const SyncKind = z.enum(['full', 'changes']);
export const SyncPhase = z.enum(['referentials', 'products', 'swap', 'changes', 'apply', 'done']);

export const SyncProgress = z.object({
  kind: SyncKind,
  phase: SyncPhase,
  pagesDone: z.number().int().min(0),
  pagesTotal: z.number().int().min(0).nullable(),
  productsDone: z.number().int().min(0),
  productsTotal: z.number().int().min(0).nullable(),
  productsPerSecond: z.number().nullable(),
  etaMs: z.number().nullable(),
  elapsedMs: z.number(),
});
export type SyncProgress = z.infer<typeof SyncProgress>;

export const CatalogStatus = z.object({
  /** A full synchronisation has completed: offline answers are possible. */
  ready: z.boolean(),
  asOf: z.string().nullable(),
  lastFullSync: z
    .object({
      startedAt: IsoTime,
      completedAt: IsoTime,
      serverStartedAt: IsoTime,
      products: z.number().int(),
      pages: z.number().int(),
      durationMs: z.number(),
    })
    .nullable(),
  lastWindow: z
    .object({
      since: IsoTime,
      until: IsoTime,
      changes: z.number().int(),
      pages: z.number().int(),
      appliedAt: IsoTime,
    })
    .nullable(),
  nextSince: z.string().nullable(),
  fullSyncDue: z.boolean(),
  fullSyncInProgress: z
    .object({
      startedAt: IsoTime,
      serverStartedAt: IsoTime,
      generation: z.number().int(),
      walk: z.number().int(),
      nextPage: z.number().int(),
      pagesDone: z.number().int(),
      productsDone: z.number().int(),
    })
    .nullable(),
  size: z.object({
    products: z.number().int(),
    items: z.number().int(),
    shops: z.number().int(),
    categories: z.number().int(),
    characteristics: z.number().int(),
    productTypes: z.number().int(),
    databaseBytes: z.number().int(),
  }),
  /** `live`: the account lacks catalogue scopes, lookups go to the service. */
  access: z.object({ mode: z.enum(['mirror', 'live']), missingScopes: z.array(z.string()) }),
  lastError: z.object({ code: z.string(), message: z.string(), at: IsoTime }).nullable(),
  syncing: SyncProgress.nullable(),
});
export type CatalogStatus = z.infer<typeof CatalogStatus>;

export const SyncNowRequest = z.strictObject({
  /** A full synchronisation even when the change feed would do. */
  full: z.boolean().optional(),
});
export type SyncNowRequest = z.input<typeof SyncNowRequest>;

/** The sync runs in the background; `syncProgress` events report it, and its end. */
export const SyncNowReply = z.object({
  started: z.literal(true),
  /** A synchronisation was already running; this request joined it. */
  joined: z.boolean(),
});
export type SyncNowReply = z.infer<typeof SyncNowReply>;

export const catalogMessages = {
  searchProducts: defineMessage('searchProducts', {
    group: 'catalog',
    summary: 'Search products (mirror, or live with fresh)',
    request: SearchProductsRequest,
    reply: SearchProductsReply,
  }),
  getProduct: defineMessage('getProduct', {
    group: 'catalog',
    summary: 'One product with its availability by shop',
    request: GetProductRequest,
    reply: GetProductReply,
  }),
  listShops: defineMessage('listShops', {
    group: 'catalog',
    summary: 'The shops, for the shop picker',
    request: EmptyRequest,
    reply: ListShopsReply,
  }),
  getSyncStatus: defineMessage('getSyncStatus', {
    group: 'catalog',
    summary: 'State of the local catalogue mirror',
    request: EmptyRequest,
    reply: CatalogStatus,
  }),
  syncNow: defineMessage('syncNow', {
    group: 'catalog',
    summary: 'Start a catalogue synchronisation now',
    request: SyncNowRequest,
    reply: SyncNowReply,
  }),
} as const;
