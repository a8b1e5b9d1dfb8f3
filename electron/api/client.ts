import { AuthReply, Health } from '../../shared/api/auth.ts';
import { type OperationName, operations } from '../../shared/api/operations.ts';
import { type Logger, redactString, silentLogger } from '../logging/index.ts';
import { type Clock, systemClock } from '../foundation/index.ts';
import { ConnectivityMonitor } from './connectivity.ts';
import { CredentialsRejected, InvalidRequest, errorFromReply } from './errors.ts';
import { type ExchangeEvent, OperationInvoker, errorFromFailure } from './invoke.ts';
import type {
  CallOptions,
  OperationArgs,
  OperationInput,
  OperationOutput,
} from './operation-types.ts';
import {
  ChangeFeedWindow,
  type ChangeFeedQuery,
  type ListReply,
  type PageItem,
  type PageableOperation,
  walkPages,
} from './pagination.ts';
import { DEFAULT_PDF_MAX_BYTES } from './pdf.ts';
import { parseJsonReply } from './reply.ts';
import { normaliseBaseUrl } from './request.ts';
import {
  RetryBudget,
  type RetryPolicy,
  type RetryPolicyOverrides,
  resolveRetryPolicy,
} from './retry-policy.ts';
import { ServiceClock, datedTransport } from './service-clock.ts';
import {
  type Credentials,
  type CredentialsProvider,
  TokenManager,
  credentialsFor,
} from './token.ts';
import { type Transport, createTransport } from './transport.ts';

export interface ApiClientOptions {
  /** `https://host[/prefix]`; the contract's paths are appended to it. */
  readonly baseUrl: string;
  /** Injected by the main process (the credential vault); read on every token issue. */
  readonly credentials: CredentialsProvider;
  readonly timeouts?: { readonly connectMs?: number; readonly responseMs?: number };
  readonly retry?: RetryPolicyOverrides;
  readonly clock?: Clock;
  /** Uniform in [0, 1): the jitter source. */
  readonly random?: () => number;
  readonly logger?: Logger;
  readonly pdfMaxBytes?: number;
  readonly jsonMaxBytes?: number;
  /** Renew the token this long before its `exp` (default 60 s). */
  readonly tokenRenewBeforeMs?: number;
  /** Consecutive unreachable exchanges before the state is `offline` (default 2). */
  readonly offlineAfter?: number;
  /** Called after every HTTP exchange, retries included (metrics, diagnostics). */
  readonly onExchange?: (event: ExchangeEvent) => void;
  readonly userAgent?: string;
}

/**
 * What `authenticate()` returns instead of the token: the token never leaves the client (it would
 * end up in a renderer, a log or a technician's terminal). The claims are read, not verified.
 */
export interface AuthSession {
  readonly authenticated: true;
  readonly expiresAt: string | null;
  readonly scopes: readonly string[] | null;
}

const defaultTimeouts = { connectMs: 5_000, responseMs: 30_000 };

/**
 * The Commerce External API V1 client of the main process: one typed method per operation of
 * the contract table (30), plus `health()` (outside the contract) and page walkers built on the
 * list operations. There is deliberately no method taking a path.
 */
export class CommerceApiClient {
  /** online / degraded / offline, fed by every exchange and by `connectivity.check()`. */
  readonly connectivity: ConnectivityMonitor;
  /** The service's time, from every reply's `Date` header: what its key retention is judged on. */
  readonly serviceClock: ServiceClock;
  readonly retryPolicy: RetryPolicy;
  readonly #baseUrl: string;
  readonly #invoker: OperationInvoker;
  readonly #tokens: TokenManager;
  readonly #transport: Transport;
  readonly #clock: Clock;
  readonly #logger: Logger;

  constructor(options: ApiClientOptions) {
    this.#baseUrl = normaliseBaseUrl(options.baseUrl);
    this.#clock = options.clock ?? systemClock;
    this.#logger = options.logger ?? silentLogger;
    this.retryPolicy = resolveRetryPolicy(options.retry);
    const timeouts = { ...defaultTimeouts, ...options.timeouts };
    this.serviceClock = new ServiceClock({ clock: this.#clock, logger: this.#logger });
    this.#transport = datedTransport(
      createTransport({
        connectTimeoutMs: timeouts.connectMs,
        responseTimeoutMs: timeouts.responseMs,
        userAgent: options.userAgent ?? 'commerce-kiosk/0.1',
      }),
      this.serviceClock,
    );
    this.connectivity = new ConnectivityMonitor({
      probe: () => this.health(),
      now: () => this.#clock.now(),
      offlineAfter: options.offlineAfter ?? 2,
      logger: this.#logger,
    });
    this.#invoker = new OperationInvoker({
      baseUrl: this.#baseUrl,
      transport: this.#transport,
      policy: this.retryPolicy,
      budget: new RetryBudget(this.retryPolicy.budget, () => this.#clock.now()),
      clock: this.#clock,
      random: options.random ?? Math.random,
      logger: this.#logger,
      connectivity: this.connectivity,
      pdfMaxBytes: options.pdfMaxBytes ?? DEFAULT_PDF_MAX_BYTES,
      jsonMaxBytes: options.jsonMaxBytes ?? 32 * 1024 * 1024,
      onExchange: options.onExchange,
    });
    const provider = options.credentials;
    this.#tokens = new TokenManager({
      clock: this.#clock,
      renewBeforeMs: options.tokenRenewBeforeMs ?? 60_000,
      logger: this.#logger,
      issue: async () => {
        let supplied: Credentials;
        try {
          supplied = await provider();
        } catch (error) {
          throw new CredentialsRejected({
            code: 'CREDENTIALS_UNAVAILABLE',
            explanation: `the integration account credentials could not be read: ${redactString(error instanceof Error ? error.message : String(error))}`,
            operationId: 'authenticate',
          });
        }
        // Only the two fields POST /auth takes, and only to the origin they belong to.
        const credentials = credentialsFor(supplied, this.#baseUrl);
        try {
          const reply = (await this.#invoker.invoke(operations.authenticate, {
            body: credentials,
          })) as AuthReply;
          return reply.token;
        } catch (error) {
          if (error instanceof InvalidRequest && error.local) {
            throw new CredentialsRejected({
              code: 'CREDENTIALS_INVALID',
              explanation: `the provisioned credentials are malformed (${error.explanation})`,
              operationId: 'authenticate',
            });
          }
          throw error;
        }
      },
    });
    this.#invoker.attachTokens(this.#tokens);
  }

  #call<N extends OperationName>(name: N, args: readonly unknown[]): Promise<OperationOutput<N>> {
    const options = args[1] as CallOptions | undefined;
    return this.#invoker.invoke(operations[name], args[0], options?.signal, {
      freshConnection: options?.freshConnection === true,
      ...(options?.connectTimeoutMs === undefined
        ? {}
        : { connectTimeoutMs: options.connectTimeoutMs }),
    }) as Promise<OperationOutput<N>>;
  }

  // ---- the 30 operations of the contract, in its order ----

  /**
   * POST /auth: issues a fresh token now (joining a renewal in flight) with the injected
   * credentials. The token stays inside the client; see `AuthSession`.
   */
  async authenticate(_options?: CallOptions): Promise<AuthSession> {
    const token = await this.#tokens.renew();
    return {
      authenticated: true,
      expiresAt: token.expiresAt === undefined ? null : new Date(token.expiresAt).toISOString(),
      scopes: token.scopes ?? null,
    };
  }
  ping(...args: OperationArgs<'ping'>) {
    return this.#call('ping', args);
  }
  listCatalogChanges(...args: OperationArgs<'listCatalogChanges'>) {
    return this.#call('listCatalogChanges', args);
  }
  listCatalogProducts(...args: OperationArgs<'listCatalogProducts'>) {
    return this.#call('listCatalogProducts', args);
  }
  listProducts(...args: OperationArgs<'listProducts'>) {
    return this.#call('listProducts', args);
  }
  getProduct(...args: OperationArgs<'getProduct'>) {
    return this.#call('getProduct', args);
  }
  listProductItemsOfProduct(...args: OperationArgs<'listProductItemsOfProduct'>) {
    return this.#call('listProductItemsOfProduct', args);
  }
  listProductItems(...args: OperationArgs<'listProductItems'>) {
    return this.#call('listProductItems', args);
  }
  getProductItem(...args: OperationArgs<'getProductItem'>) {
    return this.#call('getProductItem', args);
  }
  listCategories(...args: OperationArgs<'listCategories'>) {
    return this.#call('listCategories', args);
  }
  listProductTypes(...args: OperationArgs<'listProductTypes'>) {
    return this.#call('listProductTypes', args);
  }
  listCharacteristics(...args: OperationArgs<'listCharacteristics'>) {
    return this.#call('listCharacteristics', args);
  }
  listCharacteristicValues(...args: OperationArgs<'listCharacteristicValues'>) {
    return this.#call('listCharacteristicValues', args);
  }
  listShops(...args: OperationArgs<'listShops'>) {
    return this.#call('listShops', args);
  }
  listCustomers(...args: OperationArgs<'listCustomers'>) {
    return this.#call('listCustomers', args);
  }
  searchCustomers(...args: OperationArgs<'searchCustomers'>) {
    return this.#call('searchCustomers', args);
  }
  getCustomer(...args: OperationArgs<'getCustomer'>) {
    return this.#call('getCustomer', args);
  }
  replaceCustomer(...args: OperationArgs<'replaceCustomer'>) {
    return this.#call('replaceCustomer', args);
  }
  listCustomerCredits(...args: OperationArgs<'listCustomerCredits'>) {
    return this.#call('listCustomerCredits', args);
  }
  getCustomerHistory(...args: OperationArgs<'getCustomerHistory'>) {
    return this.#call('getCustomerHistory', args);
  }
  listSales(...args: OperationArgs<'listSales'>) {
    return this.#call('listSales', args);
  }
  getSale(...args: OperationArgs<'getSale'>) {
    return this.#call('getSale', args);
  }
  getSaleInvoice(...args: OperationArgs<'getSaleInvoice'>) {
    return this.#call('getSaleInvoice', args);
  }
  downloadSaleInvoice(...args: OperationArgs<'downloadSaleInvoice'>) {
    return this.#call('downloadSaleInvoice', args);
  }
  listSav(...args: OperationArgs<'listSav'>) {
    return this.#call('listSav', args);
  }
  getSav(...args: OperationArgs<'getSav'>) {
    return this.#call('getSav', args);
  }
  getSavLog(...args: OperationArgs<'getSavLog'>) {
    return this.#call('getSavLog', args);
  }
  downloadSavSlip(...args: OperationArgs<'downloadSavSlip'>) {
    return this.#call('downloadSavSlip', args);
  }
  getGiftCard(...args: OperationArgs<'getGiftCard'>) {
    return this.#call('getGiftCard', args);
  }
  /**
   * The caller's `Idempotency-Key` and body are validated and serialised once; every retry
   * (network loss, 500, 503, 429) sends exactly the same key and bytes, so the server replays
   * the first outcome instead of debiting twice.
   */
  debitGiftCard(...args: OperationArgs<'debitGiftCard'>) {
    return this.#call('debitGiftCard', args);
  }

  // ---- outside the contract table ----

  /** `GET /health`: public, no token, no retry (a probe must report what it sees). */
  async health(options?: CallOptions): Promise<Health> {
    const outcome = await this.#transport.send({
      method: 'GET',
      url: `${this.#baseUrl}/health`,
      headers: { Accept: 'application/json' },
      maxBytes: 64 * 1024,
      signal: options?.signal,
    });
    if (!outcome.ok) {
      if (outcome.failure.kind === 'aborted') throw outcome.failure.reason;
      throw errorFromFailure('health', outcome.failure);
    }
    const { reply } = outcome;
    if (reply.status < 200 || reply.status > 299) {
      throw errorFromReply({
        operationId: 'health',
        status: reply.status,
        headers: reply.headers,
        body: reply.body,
        now: this.#clock.now(),
      });
    }
    return parseJsonReply('health', Health, reply) as Health;
  }

  /** Every page of a list operation, from `query.page` (default 1) until `hasNextPage` is false. */
  pages<N extends PageableOperation>(
    name: N,
    ...args: OperationArgs<N>
  ): AsyncGenerator<OperationOutput<N>, void, undefined> {
    const input = (args[0] ?? {}) as OperationInput<N> & {
      readonly query?: Record<string, unknown>;
    };
    const options = args[1];
    const firstPage = pageNumber(name, input.query?.['page']);
    // Every pageable reply is a `ListReply`; generic N hides that from the compiler.
    const fetchPage = (page: number) =>
      this.#call(name, [
        { ...input, query: { ...input.query, page } },
        options,
      ]) as Promise<unknown> as Promise<ListReply>;
    return walkPages(name, firstPage, fetchPage, (reply) => reply.data.length) as AsyncGenerator<
      unknown,
      void,
      undefined
    > as AsyncGenerator<OperationOutput<N>, void, undefined>;
  }

  /** Every item of a list operation, page after page. */
  async *items<N extends PageableOperation>(
    name: N,
    ...args: OperationArgs<N>
  ): AsyncGenerator<PageItem<N>, void, undefined> {
    for await (const page of this.pages(name, ...args)) {
      yield* (page as { readonly data: readonly PageItem<N>[] }).data;
    }
  }

  /** One window of the catalogue change feed; read it to the end, then store `nextSince`. */
  changes(query: ChangeFeedQuery, options?: CallOptions): ChangeFeedWindow {
    return new ChangeFeedWindow(query, (pageQuery) =>
      this.listCatalogChanges({ query: pageQuery }, options),
    );
  }

  /** Closes pooled connections and stops connectivity probes; the client is unusable after. */
  close(): void {
    this.connectivity.stop();
    this.#tokens.clear();
    this.#transport.close();
  }
}

function pageNumber(operationId: string, value: unknown): number {
  if (value === undefined) return 1;
  const page = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  if (typeof page === 'number' && Number.isInteger(page) && page >= 1) return page;
  throw new InvalidRequest({
    code: 'INVALID_REQUEST',
    explanation: 'query.page: expected an integer >= 1',
    operationId,
    local: true,
    issues: [{ path: 'query.page', message: 'expected an integer >= 1' }],
  });
}

export function createApiClient(options: ApiClientOptions): CommerceApiClient {
  return new CommerceApiClient(options);
}
