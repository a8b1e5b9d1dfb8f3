import { z } from 'zod';
import { CatalogProduct, CharacteristicEntry, ItemEntry, ShopRef, Stock } from '../api/catalog.ts';
import { MAX_SEARCH_LENGTH } from '../api/products.ts';
import { Text } from '../api/primitives.ts';
import { EmptyRequest, IsoTime, PageLimit, RecordId } from './common.ts';
import { defineMessage } from './message.ts';
import { ShopEntry } from './records.ts';
import { lazySchema } from './lazy-schema.ts';

/** Catalogue and availability: answered from the local mirror, or live when asked and online. */

export const AnswerSource = lazySchema(() => z.enum(['mirror', 'live']));
export type AnswerSource = z.infer<typeof AnswerSource>;

/** Where an answer comes from and how fresh it is. */
export const AnswerMeta = lazySchema(() =>
  z.object({
    source: AnswerSource,
    /** Mirror: the service time the mirror reflects. Live: when the service was asked. */
    asOf: z.string().nullable(),
    /** Live was asked but failed, so the mirror answered. */
    liveError: z.object({ code: z.string(), message: z.string() }).optional(),
    /** The live answer lacks what these scopes would have shown (stock, items). */
    missingScopes: z.array(z.string()).optional(),
  }),
);
export type AnswerMeta = z.infer<typeof AnswerMeta>;

/** Checked here for the renderer and again by the catalogue queries for `kioskctl`. */
export const SearchProductsRequest = lazySchema(() =>
  z.strictObject({
    /**
     * What staff typed: words in any order, accents and case ignored, each a prefix; empty lists
     * everything. Asking the service sends it as `search`, so it has that parameter's limit.
     */
    text: Text.max(MAX_SEARCH_LENGTH),
    /** Only products with an item in this shop (and, with `availableOnly`, an available one). */
    shopId: RecordId.optional(),
    /**
     * Every product, each with this shop's items (none: not carried there) and how many shops
     * have it available: staff looking at a shop still see what it does not carry, and where to
     * find it. From the mirror; a live answer has neither.
     */
    nearShopId: RecordId.optional(),
    /** With a shop: an available item there; without: the service's product-level stock. */
    availableOnly: z.boolean().optional(),
    categoryId: RecordId.optional(),
    displayedOnline: z.boolean().optional(),
    limit: PageLimit.optional(),
    offset: z.number().int().min(0).max(100_000).optional(),
    /** Ask the service (when online) rather than the mirror. */
    fresh: z.boolean().optional(),
  }),
);
export type SearchProductsRequest = z.input<typeof SearchProductsRequest>;

export const SearchHit = lazySchema(() =>
  z
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
      /** With a shop filter, from the mirror: that shop's items, as the service returned them. */
      shopItems: z.array(ItemEntry).nullable(),
      /** With `nearShopId`, from the mirror: the shops where an item is available; else null. */
      availableShops: z.number().int().min(0).nullable(),
    }),
);
export type SearchHit = z.infer<typeof SearchHit>;

export const SearchProductsReply = lazySchema(() =>
  z.object({ ...AnswerMeta.shape, hits: z.array(SearchHit) }),
);
export type SearchProductsReply = z.infer<typeof SearchProductsReply>;

export const GetProductRequest = lazySchema(() =>
  z.strictObject({
    productId: RecordId,
    /** Only this shop's items (live: the service narrows stock and prices to it). */
    shopId: RecordId.optional(),
    fresh: z.boolean().optional(),
  }),
);
export type GetProductRequest = z.input<typeof GetProductRequest>;

/**
 * The catalogue entry as the service returned it, minus its items (grouped by shop below).
 * `supplier` is null live (the product route does not carry it); `characteristics` are the
 * product-level ones (`source: product`).
 */
export const ProductView = lazySchema(() =>
  z
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
    }),
);
export type ProductView = z.infer<typeof ProductView>;

/** Items grouped by shop; `shop` is null for items held outside any shop (a warehouse). */
export const ShopAvailability = lazySchema(() =>
  z.object({ shop: ShopRef.nullable(), items: z.array(ItemEntry) }),
);
export type ShopAvailability = z.infer<typeof ShopAvailability>;

export const GetProductReply = lazySchema(() =>
  z.object({
    ...AnswerMeta.shape,
    product: ProductView,
    shops: z.array(ShopAvailability),
  }),
);
export type GetProductReply = z.infer<typeof GetProductReply>;

export const ListShopsReply = lazySchema(() =>
  z.object({ source: AnswerSource, shops: z.array(ShopEntry) }),
);
export type ListShopsReply = z.infer<typeof ListShopsReply>;

/** What a synchronisation is doing, for the kiosk's status line and `kioskctl`'s progress bar. */
export const SyncKind = lazySchema(() => z.enum(['full', 'changes']));
export type SyncKind = z.infer<typeof SyncKind>;

/**
 * `referentials`: shops, categories, characteristics, product types. Full sync: `products`, the
 * catalogue pages into the shadow tables, then `swap`, the shadow mirror replaces the live one.
 * Change feed: `changes`, reading the window's pages, then `apply`, fetching and applying what
 * changed.
 */
export const SyncPhase = lazySchema(() =>
  z.enum(['referentials', 'products', 'swap', 'changes', 'apply', 'done']),
);
export type SyncPhase = z.infer<typeof SyncPhase>;

export const SyncProgress = lazySchema(() =>
  z.object({
    kind: SyncKind,
    phase: SyncPhase,
    pagesDone: z.number().int().min(0),
    /** Null until the first page told the total. */
    pagesTotal: z.number().int().min(0).nullable(),
    productsDone: z.number().int().min(0),
    productsTotal: z.number().int().min(0).nullable(),
    /** Over this run's products phase; null before its first page. */
    productsPerSecond: z.number().nullable(),
    /** Estimated time left in the current phase; null when unknown. */
    etaMs: z.number().nullable(),
    elapsedMs: z.number(),
  }),
);
export type SyncProgress = z.infer<typeof SyncProgress>;

/** A completed full synchronisation; `serverStartedAt` is on the service's clock. */
export const FullSyncRecord = lazySchema(() =>
  z.object({
    startedAt: IsoTime,
    completedAt: IsoTime,
    serverStartedAt: IsoTime,
    products: z.number().int(),
    pages: z.number().int(),
    durationMs: z.number(),
  }),
);
export type FullSyncRecord = z.infer<typeof FullSyncRecord>;

/** The last change-feed window applied (`until` became the next `since`). */
export const ChangeWindowRecord = lazySchema(() =>
  z.object({
    since: IsoTime,
    until: IsoTime,
    changes: z.number().int(),
    pages: z.number().int(),
    appliedAt: IsoTime,
  }),
);
export type ChangeWindowRecord = z.infer<typeof ChangeWindowRecord>;

/**
 * A full synchronisation under way: the shadow tables hold every page before `nextPage` of
 * `walk`. A restarted process continues from there while it is recent enough.
 */
export const FullSyncProgressRecord = lazySchema(() =>
  z.object({
    startedAt: IsoTime,
    serverStartedAt: IsoTime,
    generation: z.number().int(),
    walk: z.number().int(),
    nextPage: z.number().int(),
    pagesDone: z.number().int(),
    productsDone: z.number().int(),
  }),
);
export type FullSyncProgressRecord = z.infer<typeof FullSyncProgressRecord>;

export const ErrorRecord = lazySchema(() =>
  z.object({ code: z.string(), message: z.string(), at: IsoTime }),
);
export type ErrorRecord = z.infer<typeof ErrorRecord>;

export const MirrorSize = lazySchema(() =>
  z.object({
    products: z.number().int(),
    items: z.number().int(),
    shops: z.number().int(),
    categories: z.number().int(),
    characteristics: z.number().int(),
    productTypes: z.number().int(),
    /** The whole kiosk database file (the mirror is most of it). */
    databaseBytes: z.number().int(),
  }),
);
export type MirrorSize = z.infer<typeof MirrorSize>;

/** What the kiosk's status screen and `kioskctl catalog status` show about the mirror. */
export const CatalogStatus = lazySchema(() =>
  z.object({
    /** A full synchronisation has completed: offline answers are possible. */
    ready: z.boolean(),
    /** The service time the mirror reflects (the last applied window's `until`). */
    asOf: z.string().nullable(),
    lastFullSync: FullSyncRecord.nullable(),
    lastWindow: ChangeWindowRecord.nullable(),
    /** The next change-feed `since`. */
    nextSince: z.string().nullable(),
    /** The periodic full resynchronisation is due (or none ever completed). */
    fullSyncDue: z.boolean(),
    /** An interrupted or running full sync: its shadow tables and how far it got. */
    fullSyncInProgress: FullSyncProgressRecord.nullable(),
    size: MirrorSize,
    /**
     * `mirror`: lookups answer from the mirror. `live`: the account lacks catalogue scopes, so the
     * mirror cannot be kept up to date and lookups go to the service; `missingScopes` says which.
     */
    access: z.object({ mode: AnswerSource, missingScopes: z.array(z.string()) }),
    lastError: ErrorRecord.nullable(),
    /** The synchronisation running in this process, if any. */
    syncing: SyncProgress.nullable(),
  }),
);
export type CatalogStatus = z.infer<typeof CatalogStatus>;

export const SyncNowRequest = lazySchema(() =>
  z.strictObject({
    /** A full synchronisation even when the change feed would do. */
    full: z.boolean().optional(),
  }),
);
export type SyncNowRequest = z.input<typeof SyncNowRequest>;

/** The sync runs in the background; `syncProgress` events report it, and its end. */
export const SyncNowReply = lazySchema(() =>
  z.object({
    started: z.literal(true),
    /** A synchronisation was already running; this request joined it. */
    joined: z.boolean(),
  }),
);
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
