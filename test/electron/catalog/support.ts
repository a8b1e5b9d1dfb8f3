import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CatalogChange, CatalogProduct } from '../../../shared/api/catalog.ts';
import { type CommerceApiClient, createApiClient } from '../../../electron/api/client.ts';
import { CatalogQueries } from '../../../electron/catalog/queries.ts';
import type { CatalogSource } from '../../../electron/catalog/source.ts';
import {
  type CatalogSyncOptions,
  CatalogSyncService,
} from '../../../electron/catalog/sync-service.ts';
import { type KioskDatabase, openDatabase } from '../../../electron/storage/database.ts';
import { kioskSchema } from '../../../electron/schema.ts';
import { type RunningSandbox, type SandboxControl, startSandbox } from '../../../sandbox/index.ts';

/**
 * Real HTTP, real SQLite, child processes: on a loaded 2-core machine a test can take several
 * times its usual second or two. Timing targets live in the benchmarks, not here.
 */
export const INTEGRATION_TIMEOUT_MS = 30_000;

export const ALL_SCOPES = 'kiosk-all@sandbox.test';
export const CATALOGUE_ONLY = 'kiosk-catalog@sandbox.test';
/** Seeded without any business scope; tests give it the scopes they need. */
export const BARE_ACCOUNT = 'kiosk-ping@sandbox.test';

export interface Fixture {
  readonly sandbox: RunningSandbox;
  readonly control: SandboxControl;
  readonly dataDir: string;
  readonly database: KioskDatabase;
  client(email?: string): CommerceApiClient;
  service(options?: Partial<CatalogSyncOptions>): CatalogSyncService;
  queries(options?: { online?: boolean; email?: string }): CatalogQueries;
  /** Another connection on the same file, as the kiosk app and kioskctl have. */
  openAnother(): KioskDatabase;
  credentials(email?: string): { email: string; password: string };
  close(): Promise<void>;
}

/**
 * A real sandbox over HTTP and a real SQLite file. The client's retries are fast (the waits are
 * the point of other tests), and its budget large enough for fault storms.
 */
export async function startFixture(
  options: { products?: number; seed?: number } = {},
): Promise<Fixture> {
  const sandbox = await startSandbox({
    port: 0,
    control: true,
    seed: options.seed ?? 7,
    products: options.products ?? 240,
  });
  const control = sandbox.control;
  if (control === undefined) throw new Error('the sandbox was started without its controls');
  const dataDir = mkdtempSync(join(tmpdir(), 'kiosk-catalog-'));
  const database = openDatabase({ dataDir, schema: kioskSchema });
  const clients: CommerceApiClient[] = [];
  const databases: KioskDatabase[] = [database];
  const credentials = (email = ALL_SCOPES) => {
    const account = sandbox.accounts.find((candidate) => candidate.email === email);
    if (account === undefined) throw new Error(`no sandbox account ${email}`);
    return { email: account.email, password: account.password };
  };
  const client = (email = ALL_SCOPES) => {
    const created = createApiClient({
      baseUrl: sandbox.baseUrl,
      credentials: async () => credentials(email),
      retry: {
        backoff: { baseMs: 5, capMs: 40 },
        retryAfter: { capMs: 2_000, jitterMs: 5 },
        budget: { capacity: 1_000, refillPerSecond: 100 },
      },
    });
    clients.push(created);
    return created;
  };
  return {
    sandbox,
    control,
    dataDir,
    database,
    credentials,
    client,
    service: (overrides = {}) =>
      new CatalogSyncService({
        database,
        source: overrides.source ?? client(),
        pageSize: 50,
        transientBackoffMs: 5,
        ...overrides,
      }),
    queries: ({ online = true, email } = {}) =>
      new CatalogQueries({ database, source: client(email), online: { isOnline: () => online } }),
    openAnother: () => {
      const another = openDatabase({ dataDir, schema: kioskSchema });
      databases.push(another);
      return another;
    },
    async close() {
      for (const created of clients) created.close();
      for (const db of databases) db.close();
      await sandbox.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Store activity dates its changes "now" plus one millisecond per step; the change feed closes
 * a window at the sandbox's current time. Moving the clock past them puts them all in the next
 * window, as minutes passing in a shop would.
 */
export function storeActivity(control: SandboxControl, steps: number): CatalogChange[] {
  const changes = control.advanceActivity(steps);
  control.advanceClock(steps + 1_000);
  return changes;
}

/**
 * The sandbox catalogue read through its own catalogue route with plain fetch (no client, no
 * mirror code): both visibility views, every page.
 */
export async function sandboxCatalogue(
  fixture: Fixture,
  email = ALL_SCOPES,
): Promise<Map<string, CatalogProduct>> {
  const base = fixture.sandbox.baseUrl;
  const auth = await fetch(`${base}/auth`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(fixture.credentials(email)),
  });
  const { token } = (await auth.json()) as { token: string };
  const products = new Map<string, CatalogProduct>();
  for (const displayedOnline of [true, false]) {
    for (let page = 1; ; page += 1) {
      const reply = await fetch(
        `${base}/v1/catalog/products?page=${page}&limit=500&displayedOnline=${displayedOnline}`,
        { headers: { authorization: `Bearer ${token}` } },
      );
      if (!reply.ok) throw new Error(`catalogue page ${page}: HTTP ${reply.status}`);
      const body = (await reply.json()) as {
        data: CatalogProduct[];
        pagination: { hasNextPage: boolean };
      };
      for (const product of body.data) products.set(product.uuid, product);
      if (!body.pagination.hasNextPage) break;
    }
  }
  return products;
}

/** The live mirror read back as catalogue entries (each stored entry holds its items). */
export function mirrorCatalogue(database: KioskDatabase): Map<string, CatalogProduct> {
  const rows = database.connection.prepare('SELECT body FROM catalog_product_bodies').all() as {
    body: string;
  }[];
  const products = new Map<string, CatalogProduct>();
  for (const row of rows) {
    const entry = JSON.parse(row.body) as CatalogProduct;
    products.set(entry.uuid, entry);
  }
  return products;
}

/** Both sides sorted by uuid, so a failure diff shows the products that differ. */
export function sorted(products: Map<string, CatalogProduct>): CatalogProduct[] {
  return [...products.values()].sort((a, b) => (a.uuid < b.uuid ? -1 : a.uuid > b.uuid ? 1 : 0));
}

export function cursorOf(database: KioskDatabase): string | undefined {
  const row = database.connection
    .prepare(`SELECT value FROM catalog_state WHERE key = 'cursor'`)
    .get() as { value: string } | undefined;
  return row === undefined ? undefined : (JSON.parse(row.value) as string);
}

type SourceMethod = keyof CatalogSource;

/**
 * The real client with a hook before each call: the hook records the call and may throw, which
 * is how a test stops a sync after page k exactly as a crash would (nothing after it runs).
 */
export function instrumented(
  client: CommerceApiClient,
  hook: (method: SourceMethod, input: unknown) => void,
): CatalogSource {
  const methods: SourceMethod[] = [
    'listCatalogProducts',
    'listCatalogChanges',
    'getProduct',
    'getProductItem',
    'listProducts',
    'listShops',
    'listCategories',
    'listCharacteristics',
    'listProductTypes',
  ];
  const source: Record<string, unknown> = {};
  for (const method of methods) {
    const original = client[method] as (...args: unknown[]) => Promise<unknown>;
    source[method] = async (...args: unknown[]) => {
      hook(method, args[0]);
      return original.apply(client, args);
    };
  }
  return source as unknown as CatalogSource;
}

/** The query of a recorded call. */
export function queryOf(input: unknown): Record<string, unknown> {
  return ((input as { query?: Record<string, unknown> } | undefined)?.query ?? {}) as Record<
    string,
    unknown
  >;
}

/** A referential list read with plain fetch, for comparison with the mirror's copy. */
export async function sandboxList(fixture: Fixture, path: string): Promise<unknown[]> {
  const base = fixture.sandbox.baseUrl;
  const auth = await fetch(`${base}/auth`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(fixture.credentials()),
  });
  const { token } = (await auth.json()) as { token: string };
  const rows: unknown[] = [];
  for (let page = 1; ; page += 1) {
    const reply = await fetch(`${base}${path}?page=${page}&limit=500`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const body = (await reply.json()) as { data: unknown[]; pagination: { hasNextPage: boolean } };
    rows.push(...body.data);
    if (!body.pagination.hasNextPage) return rows;
  }
}

export function mirrorList(database: KioskDatabase, table: string): unknown[] {
  return (
    database.connection.prepare(`SELECT body FROM ${table} ORDER BY position`).all() as {
      body: string;
    }[]
  ).map((row) => JSON.parse(row.body) as unknown);
}

/** A product with no items, price or category: what the mirror's own tests write and search. */
export function bareProduct(
  index: number,
  name = `Bouilloire ${index}`,
  description = 'inox',
): CatalogProduct {
  return {
    uuid: `prod_${index}`,
    reference: `REF-${index}`,
    ean: null,
    name,
    description,
    displayedOnline: true,
    quantityType: null,
    category: null,
    priceRange: null,
    promotionPriceRange: null,
    availableItemsCount: 0,
    stock: { available: false, totalQuantity: null },
    media: [],
    updatedAt: null,
    supplier: null,
    items: [],
  };
}
