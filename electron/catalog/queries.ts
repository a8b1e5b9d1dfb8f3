import type {
  AnswerMeta,
  GetProductReply,
  GetProductRequest,
  SearchProductsReply,
  SearchProductsRequest,
} from '../../shared/ipc/catalog.ts';
import { Forbidden, isCommerceApiError, NotFound } from '../api/index.ts';
import type { KioskDatabase } from '../storage/index.ts';
import { CatalogError } from './errors.ts';
import { productLive, searchLive } from './live-queries.ts';
import { MirrorQueries } from './mirror-queries.ts';
import { searchQueryOf } from './search-query.ts';
import type { CatalogSource, OnlineProbe } from './source.ts';
import { SyncState } from './sync-state.ts';

/**
 * "Is it in stock in this shop, at what price": answered from the mirror (instant, and offline
 * too, with the time it reflects), or from the service when the caller wants fresh data and the
 * kiosk is online. Prices, stock and availability are shown exactly as the service returned them;
 * nothing here computes a price or a stock figure.
 */

export type ProductLookup = Omit<GetProductRequest, 'productId'>;

export interface CatalogQueriesOptions {
  readonly database: KioskDatabase;
  /** The service, for live answers; without it every answer comes from the mirror. */
  readonly source?: CatalogSource;
  readonly online?: OnlineProbe;
  readonly now?: () => number;
}

export class CatalogQueries {
  readonly #state: SyncState;
  readonly #mirror: MirrorQueries;
  readonly #source: CatalogSource | undefined;
  readonly #online: OnlineProbe | undefined;
  readonly #now: () => number;

  constructor(options: CatalogQueriesOptions) {
    const db = options.database.connection;
    this.#state = new SyncState(db);
    this.#mirror = new MirrorQueries(db, this.#state);
    this.#source = options.source;
    this.#online = options.online;
    this.#now = options.now ?? Date.now;
  }

  /** A full synchronisation completed: the mirror can answer. */
  get ready(): boolean {
    return this.#state.get('lastFullSync') !== undefined;
  }

  async search(request: SearchProductsRequest): Promise<SearchProductsReply> {
    const query = searchQueryOf(request);
    const fromMirror = () => this.#mirror.search(query);
    const live = this.#liveWanted(query.fresh);
    if (live === undefined) return this.#mirrorOrUnavailable(fromMirror);
    try {
      return await searchLive(live, query, this.#askedAt());
    } catch (error) {
      return this.#afterLiveFailure(error, fromMirror);
    }
  }

  /** The mirror's answer, synchronous (it never waits for the network). */
  searchMirror(request: SearchProductsRequest): SearchProductsReply {
    return this.#mirror.search(searchQueryOf(request));
  }

  async product(uuid: string, lookup: ProductLookup = {}): Promise<GetProductReply> {
    const live = this.#liveWanted(lookup.fresh);
    const fromMirror = () => {
      const answer = this.productFromMirror(uuid, lookup);
      if (answer === undefined) {
        throw new CatalogError('CATALOG_PRODUCT_NOT_FOUND', `product ${uuid} is not in the mirror`);
      }
      return answer;
    };
    // A product the mirror does not know yet (created since the last window) is worth asking.
    const useLive =
      live ?? (this.ready && this.#mirror.hasProduct(uuid) ? undefined : this.#liveAny());
    if (useLive === undefined) return this.#mirrorOrUnavailable(fromMirror);
    try {
      return await productLive(useLive, uuid, lookup.shopId, this.#askedAt());
    } catch (error) {
      if (error instanceof NotFound) {
        throw new CatalogError(
          'CATALOG_PRODUCT_NOT_FOUND',
          `the service does not know product ${uuid}`,
          {
            cause: error,
          },
        );
      }
      return this.#afterLiveFailure(error, fromMirror);
    }
  }

  productFromMirror(uuid: string, lookup: ProductLookup = {}): GetProductReply | undefined {
    return this.#mirror.product(uuid, lookup.shopId);
  }

  /**
   * Whether `search` with this `fresh` asks the service (given one, and online) rather than the
   * mirror: for a caller that sets up the service, and its credentials, only when it is asked.
   */
  searchWantsService(fresh?: boolean): boolean {
    return fresh === true || !this.ready || this.#state.get('forbidden') !== undefined;
  }

  #liveAny(): CatalogSource | undefined {
    return this.#source !== undefined && (this.#online?.isOnline() ?? true)
      ? this.#source
      : undefined;
  }

  /**
   * The service, when the caller asks for fresh data, or when the mirror cannot answer (never
   * synchronised, or the account lacks the catalogue scopes so it is not kept up to date).
   */
  #liveWanted(fresh: boolean | undefined): CatalogSource | undefined {
    const source = this.#liveAny();
    if (source === undefined) return undefined;
    return this.searchWantsService(fresh) ? source : undefined;
  }

  #askedAt(): string {
    return new Date(this.#now()).toISOString();
  }

  /** A live failure: the mirror answers if it can, with the reason live did not. */
  #afterLiveFailure<T extends AnswerMeta>(error: unknown, fromMirror: () => T): T {
    if (!this.ready) {
      if (error instanceof Forbidden) {
        throw new CatalogError(
          'CATALOG_FORBIDDEN',
          `the integration account cannot read products${error.missingScopes.length > 0 ? `: missing ${error.missingScopes.join(', ')}` : ''}`,
          { cause: error, missingScopes: error.missingScopes },
        );
      }
      throw error;
    }
    const answer = fromMirror();
    const code = isCommerceApiError(error) ? error.code : 'UNEXPECTED';
    const message = error instanceof Error ? error.message : String(error);
    return { ...answer, liveError: { code, message } };
  }

  #mirrorOrUnavailable<T>(fromMirror: () => T): T {
    if (!this.ready) {
      throw new CatalogError(
        'CATALOG_UNAVAILABLE',
        'the catalogue has not been synchronised yet and the service cannot be reached',
      );
    }
    return fromMirror();
  }
}
