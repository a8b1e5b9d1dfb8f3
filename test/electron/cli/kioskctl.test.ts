import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { operations } from '../../../shared/api/operations.ts';
import {
  demoCustomers,
  demoGiftCards,
  demoProducts,
  demoSales,
  demoSav,
} from '../../../sandbox/data/demo.ts';
import { CommerceApiClient } from '../../../electron/api/client.ts';
import { exitCodes } from '../../../electron/cli/command.ts';
import {
  type LocalServer,
  sendJson,
  startLocalServer,
  withAuth,
} from '../api/support/local-server.ts';
import { type TestSandbox, startTestSandbox } from '../api/support/sandbox.ts';
import { type Run, inProcess, kioskctl } from './support.ts';

/** `kioskctl api` as a technician runs it, against the sandbox. */

/** The one JSON line a failure prints on stderr. */
function errorLine(run: Run): { code: string; status: number | null; message: string } {
  const lines = run.stderr.trim().split('\n');
  expect(lines, run.stderr).toHaveLength(1);
  return (
    JSON.parse(lines[0]!) as { error: { code: string; status: number | null; message: string } }
  ).error;
}

/** Runs tasks a few at a time: the machine has two cores and each child is a whole Node. */
async function limited<T>(tasks: readonly (() => Promise<T>)[], concurrency: number): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < tasks.length) {
        const index = next++;
        results[index] = await tasks[index]!();
      }
    }),
  );
  return results;
}

let sandbox: TestSandbox;
let dir: string;
let credentialsFile: string;

beforeAll(async () => {
  sandbox = await startTestSandbox({ products: 60 });
  dir = await mkdtemp(join(tmpdir(), 'kioskctl-'));
  credentialsFile = join(dir, 'credentials.json');
  await writeFile(
    credentialsFile,
    JSON.stringify({ email: sandbox.full.email, password: sandbox.full.password }),
  );
}, 30_000);

afterAll(async () => {
  await sandbox?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('kioskctl api', () => {
  test('every operation of the contract, once, through the CLI', async () => {
    // Ids the demo data does not fix come from the API itself.
    const lookup = new CommerceApiClient({
      baseUrl: sandbox.baseUrl,
      credentials: async () => sandbox.full,
    });
    const items = await lookup.listProductItemsOfProduct({
      params: { productId: demoProducts.availableEverywhere },
    });
    const characteristics = await lookup.listCharacteristics();
    lookup.close();

    const since = new Date(Date.now() - 24 * 3600 * 1000).toISOString();
    const invoicePdf = join(dir, 'invoice.pdf');
    const slipPdf = join(dir, 'slip.pdf');
    const calls: Record<keyof typeof operations, string[]> = {
      authenticate: [],
      ping: [],
      listCatalogChanges: ['--param', `since=${since}`],
      listCatalogProducts: ['--param', 'limit=2', '--param', 'availableOnly=true'],
      listProducts: ['--param', 'search=glacons', '--param', 'include=stock,media'],
      getProduct: ['--param', `productId=${demoProducts.promoted}`, '--param', 'include=items'],
      listProductItemsOfProduct: ['--param', `productId=${demoProducts.availableEverywhere}`],
      listProductItems: ['--param', 'limit=2'],
      getProductItem: ['--param', `itemId=${items.data[0]!.uuid}`],
      listCategories: [],
      listProductTypes: ['--param', 'limit=5'],
      listCharacteristics: [],
      listCharacteristicValues: ['--param', `characteristicId=${characteristics.data[0]!.id}`],
      listShops: [],
      listCustomers: ['--param', 'include=contact'],
      searchCustomers: ['--param', 'email=famille.moreau@example.com'],
      getCustomer: ['--param', `customerId=${demoCustomers.main}`],
      replaceCustomer: [
        '--param',
        `customerId=${demoCustomers.withoutContact}`,
        '--body',
        JSON.stringify({ typeCustomer: 'individual', firstName: 'Noé', lastName: 'Sansadresse' }),
      ],
      listCustomerCredits: ['--param', `customerId=${demoCustomers.main}`],
      getCustomerHistory: [
        '--param',
        `customerId=${demoCustomers.main}`,
        '--param',
        'include=sales,sav',
      ],
      listSales: ['--param', `customerId=${demoCustomers.main}`],
      getSale: ['--param', `saleId=${demoSales.withCredits}`],
      getSaleInvoice: ['--param', `saleId=${demoSales.withInvoice}`],
      downloadSaleInvoice: ['--param', `saleId=${demoSales.withInvoice}`, '--out', invoicePdf],
      listSav: ['--param', 'status=in_repair'],
      getSav: ['--param', `savId=${demoSav.inRepair}`],
      getSavLog: ['--param', `savId=${demoSav.closed}`],
      downloadSavSlip: ['--param', `savId=${demoSav.inRepair}`, '--out', slipPdf],
      getGiftCard: ['--param', `giftCardId=${demoGiftCards.active}`, '--param', 'include=usages'],
      debitGiftCard: [
        '--param',
        `giftCardId=${demoGiftCards.active}`,
        '--idempotency-key',
        randomUUID(),
        '--body',
        '{"amount":1.5,"currency":"EUR","reference":"kioskctl-test"}',
      ],
    };
    expect(Object.keys(calls).sort()).toEqual(Object.keys(operations).sort());

    const names = Object.keys(calls) as (keyof typeof operations)[];
    const runs = await limited(
      names.map(
        (name, index) => () =>
          // Half read the credentials file, half the environment.
          index % 2 === 0
            ? kioskctl([
                '--base-url',
                sandbox.baseUrl,
                '--credentials',
                credentialsFile,
                'api',
                name,
                ...calls[name],
              ])
            : kioskctl(['api', name, ...calls[name]], {
                KIOSK_API_BASE_URL: sandbox.baseUrl,
                KIOSK_API_EMAIL: sandbox.full.email,
                KIOSK_API_PASSWORD: sandbox.full.password,
              }),
      ),
      3,
    );

    const outputs = new Map<string, unknown>();
    names.forEach((name, index) => {
      const run = runs[index]!;
      expect(run.code, `${name}: ${run.stderr}`).toBe(exitCodes.ok);
      expect(run.stderr).toBe('');
      outputs.set(name, JSON.parse(run.stdout));
    });
    expect(outputs.get('ping')).toEqual({ version: expect.any(String) });
    expect(outputs.get('authenticate')).toMatchObject({ authenticated: true });
    expect(JSON.stringify(outputs.get('authenticate'))).not.toMatch(/eyJ/);
    expect(outputs.get('debitGiftCard')).toMatchObject({
      giftCardId: demoGiftCards.active,
      amount: 1.5,
    });
    for (const [name, file] of [
      ['downloadSaleInvoice', invoicePdf],
      ['downloadSavSlip', slipPdf],
    ] as const) {
      const bytes = await readFile(file);
      expect(outputs.get(name)).toEqual({ bytes: bytes.byteLength, out: file });
      expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    }
  }, 60_000);

  test('--list prints the 30 operations with method, path and scopes', async () => {
    const run = await kioskctl(['api', '--list']);
    expect(run.code).toBe(exitCodes.ok);
    const lines = run.stdout.trim().split('\n');
    expect(lines).toHaveLength(30);
    expect(lines.map((line) => line.split(/\s+/)[0])).toEqual(Object.keys(operations));
    expect(lines.find((line) => line.startsWith('debitGiftCard'))).toMatch(
      /PUT\s+\/v1\/gift-cards\/\{giftCardId\}\s+gift-cards:write/,
    );
  });

  test('exit 2 from the process: a bad flag', async () => {
    const run = await kioskctl(['api', 'ping', '--bogus']);
    expect(run.code).toBe(exitCodes.invalidRequest);
    expect(run.stdout).toBe('');
    expect(errorLine(run)).toMatchObject({
      code: 'USAGE',
      status: null,
      message: expect.stringMatching(/--bogus/),
    });
  });

  test('exit 2: unknown operations, bad input and missing configuration are refused before anything is sent', async () => {
    const env = {
      KIOSK_API_BASE_URL: sandbox.baseUrl,
      KIOSK_API_EMAIL: sandbox.full.email,
      KIOSK_API_PASSWORD: sandbox.full.password,
    };
    const cases: [readonly string[], Record<string, string>, string, RegExp][] = [
      [['api'], env, 'USAGE', /missing operationId/],
      [['stats'], env, 'USAGE', /unknown command/],
      [['api', 'fetchEverything'], env, 'USAGE', /unknown operationId/],
      [['api', 'ping', 'extra'], env, 'USAGE', /unexpected argument/],
      [['api', 'listProducts', '--param', 'limit=0'], env, 'INVALID_REQUEST', /query\.limit/],
      [['api', 'listProducts', '--param', 'colour=red'], env, 'INVALID_REQUEST', /query\.colour/],
      [['api', 'listProducts', '--param', 'limit'], env, 'USAGE', /name=value/],
      [['api', 'listProducts', '--param', 'limit=1', '--param', 'limit=2'], env, 'USAGE', /twice/],
      [['api', 'ping', '--param', 'page=1'], env, 'INVALID_REQUEST', /ping takes no query/],
      [
        [
          'api',
          'debitGiftCard',
          '--param',
          `giftCardId=${demoGiftCards.active}`,
          '--body',
          '{"amount":1,"currency":"EUR"}',
        ],
        env,
        'INVALID_REQUEST',
        /Idempotency-Key/,
      ],
      [['api', 'downloadSavSlip', '--param', `savId=${demoSav.inRepair}`], env, 'USAGE', /--out/],
      [['api', 'ping', '--out', join(dir, 'x.json')], env, 'USAGE', /PDF operations/],
      [
        [
          'api',
          'replaceCustomer',
          '--param',
          `customerId=${demoCustomers.main}`,
          '--body',
          '{not json',
        ],
        env,
        'USAGE',
        /not valid JSON/,
      ],
      [['api', 'authenticate', '--param', 'email=x'], env, 'USAGE', /takes no input/],
      [
        ['api', 'ping'],
        { KIOSK_API_BASE_URL: sandbox.baseUrl, KIOSK_VAULT: 'none' },
        'CONFIG',
        /no credentials/,
      ],
      [
        ['api', 'ping'],
        { KIOSK_API_EMAIL: 'a@b.test', KIOSK_API_PASSWORD: 'x' },
        'CONFIG',
        /base URL/,
      ],
      [
        ['api', 'ping', '--base-url', 'ftp://kiosk'],
        { KIOSK_API_EMAIL: 'a@b.test', KIOSK_API_PASSWORD: 'x' },
        'CONFIG',
        /http/,
      ],
      [['api', 'ping', '--credentials', join(dir, 'missing.json')], env, 'CONFIG', /cannot read/],
      [['api', 'ping'], { ...env, KIOSK_API_PASSWORD: '' }, 'CONFIG', /non-empty/],
    ];
    for (const [argv, caseEnv, code, message] of cases) {
      const run = await inProcess(argv, caseEnv);
      expect(run.code, `${argv.join(' ')}: ${run.stderr}`).toBe(exitCodes.invalidRequest);
      expect(run.stdout).toBe('');
      expect(errorLine(run)).toMatchObject({
        code,
        status: null,
        message: expect.stringMatching(message),
      });
    }
  });

  test('exit 3: an API error reply, with its status', async () => {
    const catalogOnly = sandbox.account(
      (scopes) => scopes.includes('products:read') && !scopes.includes('sales:read'),
    );
    const [notFound, forbidden] = await Promise.all([
      kioskctl([
        '--base-url',
        sandbox.baseUrl,
        '--credentials',
        credentialsFile,
        'api',
        'getProduct',
        '--param',
        'productId=prod_nope',
      ]),
      kioskctl(['api', 'listSales'], {
        KIOSK_API_BASE_URL: sandbox.baseUrl,
        KIOSK_API_EMAIL: catalogOnly.email,
        KIOSK_API_PASSWORD: catalogOnly.password,
      }),
    ]);
    expect(notFound!.code).toBe(exitCodes.apiError);
    expect(errorLine(notFound!)).toMatchObject({ code: 'RESOURCE_NOT_FOUND', status: 404 });
    expect(forbidden!.code).toBe(exitCodes.apiError);
    expect(errorLine(forbidden!)).toMatchObject({ code: 'FORBIDDEN', status: 403 });
  });

  test('exit 4: no answer; exit 5: an answer outside the contract', async () => {
    let server: LocalServer | undefined;
    try {
      server = await startLocalServer(
        withAuth((_request, response) => sendJson(response, 200, { version: 1 })),
      );
      const env = { KIOSK_API_EMAIL: 'kiosk@example.test', KIOSK_API_PASSWORD: 'pw' };
      const [violation, unreachable] = await Promise.all([
        kioskctl(['--base-url', server.baseUrl, 'api', 'listProducts'], env),
        kioskctl(['--base-url', 'http://127.0.0.1:1', 'api', 'ping'], env),
      ]);
      expect(violation!.code).toBe(exitCodes.contractViolation);
      expect(errorLine(violation!)).toMatchObject({ code: 'CONTRACT_VIOLATION', status: 200 });
      expect(errorLine(violation!).message).toMatch(/listProducts: data/);
      expect(unreachable!.code).toBe(exitCodes.network);
      expect(errorLine(unreachable!)).toMatchObject({ code: 'NETWORK_ERROR', status: null });
    } finally {
      await server?.close();
    }
  }, 30_000);
});
