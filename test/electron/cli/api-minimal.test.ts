import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type OperationName, operationList } from '../../../shared/api/operations.ts';
import { MAX_PAGE_SIZE } from '../../../shared/api/primitives.ts';
import {
  IntegrationProfile,
  customerContactQuery,
  defaultProfile,
  customerCreditsQuery,
  customerHistoryQuery,
  customerSearchQuery,
  giftCardUsagesQuery,
  pagingQuery,
} from '../../../shared/profile/index.ts';
import {
  ambiguousEmail,
  demoCustomers,
  demoGiftCards,
  demoProducts,
  demoSales,
  demoSav,
} from '../../../sandbox/data/demo.ts';
import { type RunningSandbox, startSandbox } from '../../../sandbox/index.ts';
import { kioskctl } from './support.ts';

/**
 * Acceptance of issue 33: against the strict `minimal` dialect (it refuses, 400, every query
 * parameter the specification does not list for the route) with its profile, `kioskctl api`, run
 * as a technician runs it, answers all 27 reads with the parameters the kiosk itself sends: the
 * queries come from the same builders as the kiosk's handlers, the sync and the live catalogue.
 * An exit 3 (the service's error reply, a 400 `unknown parameter` among them) or 5 (a contract
 * violation: a reply the client refuses) fails.
 */

const minimalProfileFile = new URL(
  '../../../sandbox/dialects/minimal.profile.json',
  import.meta.url,
).pathname;
const profile = IntegrationProfile.parse(JSON.parse(readFileSync(minimalProfileFile, 'utf8')));

let sandbox: RunningSandbox;
let env: Record<string, string>;
let token: string;
const out = mkdtempSync(join(tmpdir(), 'kiosk-api-minimal-'));

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, dialect: 'minimal' });
  const account = sandbox.accounts.find((a) => a.email === 'kiosk-all@sandbox.test')!;
  env = {
    KIOSK_API_BASE_URL: sandbox.baseUrl,
    KIOSK_API_EMAIL: account.email,
    KIOSK_API_PASSWORD: account.password,
  };
  const auth = await fetch(`${sandbox.baseUrl}/auth`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: account.email, password: account.password }),
  });
  token = ((await auth.json()) as { token: string }).token;
});
afterAll(() => sandbox.close());

async function raw(path: string): Promise<unknown> {
  const reply = await fetch(`${sandbox.baseUrl}${path}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(reply.status, path).toBe(200);
  return reply.json();
}

const ids: Record<string, () => Promise<string> | string> = {
  productId: () => demoProducts.availableEverywhere,
  itemId: async () =>
    (
      (await raw(`/v1/products/${demoProducts.availableEverywhere}?include=items`)) as {
        items: { uuid: string }[];
      }
    ).items[0]!.uuid,
  characteristicId: async () =>
    ((await raw('/v1/characteristics')) as { data: { id: string }[] }).data[0]!.id,
  customerId: () => demoCustomers.main,
  saleId: () => demoSales.withInvoice,
  savId: () => demoSav.inRepair,
  giftCardId: () => demoGiftCards.active,
};

/**
 * The query the kiosk sends on each read (the fullest it sends: every optional part it may add),
 * by the same code path: the shared builders for what the spec does not show, the spec's own
 * parameters where the sync and the live catalogue send them.
 */
const kioskQuery: Record<OperationName, () => Record<string, string | number | boolean>> = {
  authenticate: () => ({}),
  ping: () => ({}),
  // The change feed window (electron/api/pagination.ts) and the sync's catalogue pages.
  listCatalogChanges: () => ({ since: '2020-01-01T00:00:00Z', page: 1, limit: MAX_PAGE_SIZE }),
  listCatalogProducts: () => ({
    page: 1,
    limit: MAX_PAGE_SIZE,
    displayedOnline: true,
    updatedSince: '2020-01-01T00:00:00Z',
  }),
  // The live search and product (electron/catalog/live-queries.ts).
  listProducts: () => ({
    page: 1,
    limit: 50,
    search: 'a',
    displayedOnline: true,
    include: 'media,stock',
    availableOnly: true,
  }),
  getProduct: () => ({ include: 'items,stock,media,characteristics' }),
  listProductItemsOfProduct: () =>
    pagingQuery(profile, 'listProductItemsOfProduct', { page: 1, limit: MAX_PAGE_SIZE }),
  listProductItems: () =>
    pagingQuery(profile, 'listProductItems', { page: 1, limit: MAX_PAGE_SIZE }),
  getProductItem: () => ({}),
  listCategories: () => pagingQuery(profile, 'listCategories', { page: 1, limit: MAX_PAGE_SIZE }),
  listProductTypes: () =>
    pagingQuery(profile, 'listProductTypes', { page: 1, limit: MAX_PAGE_SIZE }),
  listCharacteristics: () =>
    pagingQuery(profile, 'listCharacteristics', { page: 1, limit: MAX_PAGE_SIZE }),
  listCharacteristicValues: () =>
    pagingQuery(profile, 'listCharacteristicValues', { page: 1, limit: MAX_PAGE_SIZE }),
  listShops: () => pagingQuery(profile, 'listShops', { page: 1, limit: MAX_PAGE_SIZE }),
  listCustomers: () => pagingQuery(profile, 'listCustomers', { page: 1, limit: 20 }),
  // Confirming one of several matches: every criterion the screen has.
  searchCustomers: () =>
    customerSearchQuery(profile, {
      email: ambiguousEmail.email,
      lastName: 'Moreau',
      firstName: 'Claire',
      phone: '0600000000',
      postalCode: '69001',
      page: 1,
      limit: 20,
    }),
  getCustomer: () => customerContactQuery(profile, true),
  replaceCustomer: () => ({}),
  listCustomerCredits: () =>
    customerCreditsQuery(profile, { types: ['gift_card'], page: 1, limit: 20 }),
  getCustomerHistory: () => customerHistoryQuery(profile, ['sales', 'orders', 'sav', 'credits']),
  listSales: () => pagingQuery(profile, 'listSales', { page: 1, limit: 50 }),
  getSale: () => ({}),
  getSaleInvoice: () => ({}),
  downloadSaleInvoice: () => ({}),
  listSav: () => pagingQuery(profile, 'listSav', { page: 1, limit: 50 }),
  getSav: () => ({}),
  getSavLog: () => pagingQuery(profile, 'getSavLog', { page: 1, limit: 100 }),
  downloadSavSlip: () => ({}),
  getGiftCard: () => giftCardUsagesQuery(profile),
  debitGiftCard: () => ({}),
};

const reads = operationList.filter(
  (operation) => operation.method === 'GET' && operation.operationId !== 'authenticate',
);

describe('kioskctl api against the minimal dialect, with its profile', { timeout: 60_000 }, () => {
  test('covers every read operation of the contract', () => {
    expect(reads).toHaveLength(27);
  });

  test.each(reads.map((operation) => [operation.operationId, operation] as const))(
    '%s: the kiosk’s own parameters, exit 0',
    async (operationId, operation) => {
      const params: [string, string][] = [];
      for (const name of Object.keys(operation.params?.shape ?? {}))
        params.push([name, await ids[name]!()]);
      for (const [name, value] of Object.entries(kioskQuery[operationId as OperationName]()))
        params.push([name, String(value)]);
      const argv = [
        '--profile',
        minimalProfileFile,
        'api',
        operationId,
        ...params.flatMap(([n, v]) => ['--param', `${n}=${v}`]),
      ];
      const pdf = 'pdf' in operation.reply;
      const file = join(out, `${operationId}.pdf`);
      const run = await kioskctl(pdf ? [...argv, '--out', file] : argv, env);
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      if (pdf) expect(readFileSync(file).subarray(0, 5).toString()).toBe('%PDF-');
      else expect(JSON.parse(run.stdout)).toEqual(expect.any(Object));
    },
  );

  test('a parameter the spec does not list (the default profile’s `include=contact`): exit 3', async () => {
    const query = customerContactQuery(defaultProfile, true);
    expect(Object.keys(query)).toEqual(['include']);
    const run = await kioskctl(
      [
        '--profile',
        minimalProfileFile,
        'api',
        'getCustomer',
        '--param',
        `customerId=${demoCustomers.main}`,
        ...Object.entries(query).flatMap(([n, v]) => ['--param', `${n}=${v}`]),
      ],
      env,
    );
    expect(run.code).toBe(3);
    expect(run.stderr).toContain('unknown parameter');
  });
});
