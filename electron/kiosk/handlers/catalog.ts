import { MAX_PAGE_SIZE } from '../../../shared/api/primitives.ts';
import type { Shop } from '../../../shared/api/referentials.ts';
import type { AnswerSource, catalogMessages } from '../../../shared/ipc/catalog.ts';
import type { CommerceApiClient } from '../../api/index.ts';
import {
  type CatalogQueries,
  type CatalogSyncService,
  liveTables,
  readReferential,
} from '../../catalog/index.ts';
import { type KioskHandlers, toIpcError } from '../../ipc/index.ts';
import type { Logger } from '../../logging/index.ts';
import type { KioskDatabase } from '../../storage/index.ts';

export interface CatalogHandlerDeps {
  readonly catalogQueries: CatalogQueries;
  readonly catalogSync: CatalogSyncService;
  /** The mirror, read for its shops. */
  readonly database: KioskDatabase;
  /** The live shop list, while the mirror has none. */
  readonly client: Pick<CommerceApiClient, 'items'>;
  readonly logger: Logger;
}

const MAX_LIVE_SHOPS = 2_000;

/** The catalogue mirror and availability, and its synchronisation. */
export function catalogHandlers(
  deps: CatalogHandlerDeps,
): Pick<KioskHandlers, keyof typeof catalogMessages> {
  const { catalogQueries, catalogSync, logger } = deps;
  return {
    searchProducts: (request) => catalogQueries.search(request),
    getProduct: (request) =>
      catalogQueries.product(request.productId, { shopId: request.shopId, fresh: request.fresh }),
    listShops: () => shops(deps),
    getSyncStatus: () => catalogSync.status(),
    syncNow: (request) => {
      const joined = catalogSync.status().syncing !== null;
      // Runs in the background: its progress and its end (or failure) are syncProgress events.
      catalogSync.sync({ full: request.full ?? false }).catch((error: unknown) => {
        logger.info('kiosk.catalog.sync_failed', { code: toIpcError(error).code });
      });
      return { started: true, joined };
    },
  };
}

async function shops(
  deps: CatalogHandlerDeps,
): Promise<{ source: AnswerSource; shops: readonly Shop[] }> {
  if (deps.catalogQueries.ready) {
    const rows = readReferential(deps.database.connection, liveTables, 'shops');
    if (rows.length > 0) return { source: 'mirror', shops: rows };
  }
  const live: Shop[] = [];
  for await (const shop of deps.client.items('listShops', { query: { limit: MAX_PAGE_SIZE } })) {
    live.push(shop);
    if (live.length >= MAX_LIVE_SHOPS) break;
  }
  return { source: 'live', shops: live };
}
