import type { CommerceApiClient } from '../api/index.ts';

/**
 * What the catalogue mirror calls on the Commerce API: a structural slice of the client, so the
 * real client is passed as is, and a test can wrap it (throw after page k, record the queries)
 * without a mock of the service. Retries on 429/503 are the client's: by the time a call rejects
 * here, its own policy has given up.
 */
export type CatalogSource = Pick<
  CommerceApiClient,
  | 'listCatalogProducts'
  | 'listCatalogChanges'
  | 'getProduct'
  | 'getProductItem'
  | 'listProducts'
  | 'listShops'
  | 'listCategories'
  | 'listCharacteristics'
  | 'listProductTypes'
>;

/** Whether a live call is worth trying (the client's connectivity monitor says `online`). */
export interface OnlineProbe {
  isOnline(): boolean;
}

/** The client's connectivity monitor as an `OnlineProbe`; `degraded` still answers, so it counts. */
export function onlineProbeOf(client: Pick<CommerceApiClient, 'connectivity'>): OnlineProbe {
  return { isOnline: () => client.connectivity.state !== 'offline' };
}
