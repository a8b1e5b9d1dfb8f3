import type { AnswerSource, catalogMessages } from '../../../shared/ipc/catalog.ts';
import type { ShopEntry } from '../../../shared/ipc/records.ts';
import type { IntegrationProfile } from '../../../shared/profile/index.ts';
import { shopEntryOf } from '../record-views.ts';
import {
  type CatalogQueries,
  type CatalogSource,
  type CatalogSyncService,
  type ReferentialRow,
  fetchReferentials,
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
  readonly client: CatalogSource;
  readonly logger: Logger;
  /** Shops are 'not shown' records: read through the profile in force. */
  readonly profile: () => IntegrationProfile;
}

/** More than any shop picker can show. */
const MAX_SHOPS = 2_000;

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
): Promise<{ source: AnswerSource; shops: readonly ShopEntry[] }> {
  const profile = deps.profile();
  const entries = (rows: readonly ReferentialRow[]) =>
    rows.slice(0, MAX_SHOPS).map((row) => shopEntryOf(profile, row));
  if (deps.catalogQueries.ready) {
    const rows = readReferential(deps.database.connection, liveTables, 'shops');
    if (rows.length > 0) return { source: 'mirror', shops: entries(rows) };
  }
  const { shops: live = [] } = await fetchReferentials(deps.client, ['shops'], profile);
  return { source: 'live', shops: entries(live) };
}
