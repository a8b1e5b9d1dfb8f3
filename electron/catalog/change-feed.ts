import { defaultProfile } from '../../shared/profile/index.ts';
import type { CatalogChange, CatalogProduct } from '../../shared/api/catalog.ts';
import type { ProductReference } from '../../shared/api/products.ts';
import type { ChangeWindowRecord } from '../../shared/ipc/catalog.ts';
import { ChangeFeedWindow, NotFound } from '../api/index.ts';
import { catalogViews } from './full-sync.ts';
import type { CatalogMirror } from './mirror.ts';
import type { ReferentialKind } from './mirror-writer.ts';
import { fetchReferentials, relabelEmbedded, writeReferentials } from './referentials.ts';
import type { CatalogSource } from './source.ts';
import { runSettings, type SyncRunOptions } from './sync-run.ts';

export interface ChangeFeedOptions extends SyncRunOptions {
  /**
   * A window with more changes than this is not worth applying one by one (a kiosk back after a
   * long time offline): the caller runs a full sync instead.
   */
  readonly fullSyncAbove?: number;
}

export type ChangeFeedResult =
  | ({ readonly outcome: 'applied' } & ChangeWindowRecord & ChangeCounts)
  | { readonly outcome: 'full-sync-needed'; readonly since: string; readonly changes: number };

export interface ChangeCounts {
  readonly productsRefetched: number;
  readonly productsDeleted: number;
  readonly referentialsRefreshed: readonly ReferentialKind[];
  /** Products found by the product route, not by the catalogue's `updatedSince`. */
  readonly productsLookedUp: number;
}

type ReferentialChange = {
  readonly type: 'shop' | 'category' | 'characteristic';
  readonly id: string;
};

const referentialOf: Record<ReferentialChange['type'], ReferentialKind> = {
  shop: 'shops',
  category: 'categories',
  characteristic: 'characteristics',
};

/** More leftovers than this are not looked up one by one; the product route is the slow path. */
const MAX_LOOKUPS = 200;

/**
 * Reads one change-feed window (spec rules 1 and 2: every page with the same `until`) and applies
 * it. What changed is fetched again rather than patched: products and items from the catalogue
 * route (`updatedSince` = the window's `since`, both visibility views), referentials from their
 * lists. Products are written page by page; the deletions, the referentials and the new cursor
 * (the window's `until`) commit together in the last transaction, so a crash anywhere before it
 * leaves the old `since`, and the window is simply read and applied again (every step is a
 * replacement, so applying twice is harmless).
 */
export async function runChangeFeed(
  mirror: CatalogMirror,
  source: CatalogSource,
  options: ChangeFeedOptions,
): Promise<ChangeFeedResult> {
  const { progress, signal, now } = options;
  const { pageSize, callOptions } = runSettings(options);
  const since = mirror.state.get('cursor');
  if (since === undefined) throw new Error('no change-feed cursor: run a full sync first');

  // ---- read the window: what to refetch, what to delete, which referentials ----
  progress.phase('changes');
  const window = new ChangeFeedWindow({ since, limit: pageSize }, (query) =>
    source.listCatalogChanges({ query }, callOptions),
  );
  /** Product uuid -> what its last change in the window says. */
  const products = new Map<string, 'refetch' | 'delete'>();
  const orphanItems = new Set<string>();
  const referentialChanges = new Map<string, ReferentialChange>();
  let changes = 0;
  let pages = 0;
  for await (const reply of window) {
    if (pages === 0) {
      const total = reply.pagination.total;
      progress.totals(Math.max(1, Math.ceil(total / pageSize)), null);
      if (options.fullSyncAbove !== undefined && total > options.fullSyncAbove) {
        return { outcome: 'full-sync-needed', since, changes: total };
      }
    }
    for (const change of reply.changes) collect(change, products, orphanItems, referentialChanges);
    changes += reply.changes.length;
    pages += 1;
    progress.page(0);
    options.heartbeat?.();
  }
  const until = window.nextSince;

  // Item changes without `productId`: the mirror knows the item's product, else the item route
  // (when the service names the product there: the spec's item entry does not), else the
  // catalogue's `updatedSince` pass below, whose entries carry their items, finds it.
  let sweep = false;
  for (const itemId of orphanItems) {
    const known = mirror.live.productOfItem(itemId);
    if (known !== undefined) {
      if (!products.has(known)) products.set(known, 'refetch');
      continue;
    }
    try {
      const item = await source.getProductItem({ params: { itemId } }, callOptions);
      if (item.productId === undefined) sweep = true;
      else if (!products.has(item.productId)) products.set(item.productId, 'refetch');
    } catch (error) {
      // Gone already: its product's own change (or the next full sync) tells the rest.
      if (!(error instanceof NotFound)) throw error;
    }
  }

  // ---- apply: refetch what changed, page by page ----
  const pending = new Set([...products].filter(([, what]) => what === 'refetch').map(([id]) => id));
  const deletions = new Set(
    [...products].filter(([, what]) => what === 'delete').map(([id]) => id),
  );
  let productsRefetched = 0;
  progress.phase('apply', { productsTotal: pending.size });
  if (pending.size > 0 || sweep) {
    for (const displayedOnline of catalogViews) {
      for (let page = 1; ; page += 1) {
        const reply = await source.listCatalogProducts(
          { query: { page, limit: pageSize, updatedSince: since, displayedOnline } },
          callOptions,
        );
        signal?.throwIfAborted();
        const syncedAt = now();
        mirror.transaction(() => {
          for (const product of reply.data) mirror.live.upsertProduct(product, syncedAt);
        });
        for (const product of reply.data) {
          pending.delete(product.uuid);
          // Deleted in the window and back since: it exists, so it stays.
          deletions.delete(product.uuid);
        }
        productsRefetched += reply.data.length;
        progress.page(reply.data.length);
        options.heartbeat?.();
        if (!reply.pagination.hasNextPage || reply.data.length === 0) break;
      }
    }
  }

  // Changed in the window but not returned as modified since: ask the product route.
  const lookedUp: CatalogProduct[] = [];
  for (const uuid of [...pending].slice(0, MAX_LOOKUPS)) {
    try {
      const reference = await source.getProduct(
        { params: { productId: uuid }, query: { include: 'items,stock,media' } },
        callOptions,
      );
      const entry = catalogEntryOf(reference, mirror.live.productBody(uuid));
      if (entry !== null) lookedUp.push(entry);
    } catch (error) {
      if (!(error instanceof NotFound)) throw error;
      deletions.add(uuid);
    }
  }

  // ---- the last transaction: deletions, referentials, cursor ----
  const kinds = [...new Set([...referentialChanges.values()].map((c) => referentialOf[c.type]))];
  const profile = options.profile ?? defaultProfile;
  const referentials =
    kinds.length > 0 ? await fetchReferentials(source, kinds, profile, signal) : {};
  signal?.throwIfAborted();
  options.heartbeat?.();
  const appliedAt = new Date(now()).toISOString();
  const record: ChangeWindowRecord = { since, until, changes, pages, appliedAt };
  let productsDeleted = 0;
  mirror.transaction(() => {
    const syncedAt = now();
    for (const entry of lookedUp) mirror.live.upsertProduct(entry, syncedAt);
    for (const uuid of deletions) if (mirror.live.deleteProduct(uuid)) productsDeleted += 1;
    writeReferentials(mirror.live, referentials);
    for (const change of referentialChanges.values()) {
      relabelEmbedded(mirror.db, mirror.live.tables, change, referentials, profile);
    }
    mirror.state.set('cursor', until);
    mirror.state.set('asOf', until);
    mirror.state.set('lastWindow', record);
  });
  progress.phase('done', { pagesDone: pages, pagesTotal: pages });
  return {
    outcome: 'applied',
    ...record,
    productsRefetched,
    productsDeleted,
    referentialsRefreshed: kinds,
    productsLookedUp: lookedUp.length,
  };
}

function collect(
  change: CatalogChange,
  products: Map<string, 'refetch' | 'delete'>,
  orphanItems: Set<string>,
  referentials: Map<string, ReferentialChange>,
): void {
  switch (change.type) {
    case 'product':
      // The changes are ordered: the last one about a product says whether it still exists.
      products.set(change.id, change.action === 'deleted' ? 'delete' : 'refetch');
      return;
    case 'product-item':
      // Any item change, its deletion included, changes its product's entry: refetch the product.
      if (change.productId === undefined) orphanItems.add(change.id);
      else if (products.get(change.productId) !== 'delete')
        products.set(change.productId, 'refetch');
      return;
    case 'shop':
    case 'category':
    case 'characteristic':
      referentials.set(`${change.type}:${change.id}`, { type: change.type, id: change.id });
      return;
  }
}

/**
 * The catalogue entry of a product from its reference (the product route with `include=items,
 * stock,media`): the same fields as the service returned them. The supplier is not on that route;
 * the mirror's previous value is kept. Null when the route left out a block it needs.
 */
function catalogEntryOf(
  reference: ProductReference,
  previous: Omit<CatalogProduct, 'items'> | undefined,
): CatalogProduct | null {
  if (reference.stock === undefined || reference.media === undefined) return null;
  if (reference.items === undefined) return null;
  return {
    uuid: reference.uuid,
    reference: reference.reference,
    ean: reference.ean,
    name: reference.name,
    description: reference.description,
    displayedOnline: reference.displayedOnline,
    quantityType: reference.quantityType,
    category: reference.category,
    priceRange: reference.priceRange,
    promotionPriceRange: reference.promotionPriceRange,
    availableItemsCount: reference.availableItemsCount,
    stock: reference.stock,
    media: reference.media,
    updatedAt: reference.updatedAt,
    supplier: previous?.supplier ?? null,
    items: reference.items,
  };
}
