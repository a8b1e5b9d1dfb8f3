import { mkdtempSync, writeFileSync } from 'node:fs';
import { type Server, createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { main } from '../../../electron/cli/kioskctl.ts';
import { defaultProfile } from '../../../shared/profile/index.ts';
import { type RunningSandbox, startSandbox } from '../../../sandbox/index.ts';

/**
 * `kioskctl contract check` as an integrator finishes it, against the real sandbox over HTTP with
 * a recording proxy in front: every read the kiosk makes is sent, with the kiosk's parameters;
 * `--gift-card` and `--customer` point it at records; a 4xx fails it with exit 11; a debit body
 * holding "?" fails it (exit 9) and no debit is ever sent.
 */

let sandbox: RunningSandbox;
let proxy: Server;
let proxyUrl: string;
let seen: { method: string; path: string; query: URLSearchParams }[] = [];
const dir = mkdtempSync(join(tmpdir(), 'kiosk-contract-check-'));

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, seed: 3, products: 20, control: true });
  const target = new URL(sandbox.baseUrl);
  proxy = createServer((incoming, outgoing) => {
    const url = new URL(incoming.url ?? '/', sandbox.baseUrl);
    seen.push({ method: incoming.method ?? 'GET', path: url.pathname, query: url.searchParams });
    const forward = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        method: incoming.method,
        path: incoming.url,
        headers: incoming.headers,
      },
      (reply) => {
        outgoing.writeHead(reply.statusCode ?? 502, reply.headers);
        reply.pipe(outgoing);
      },
    );
    incoming.pipe(forward);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => proxy.close(resolve));
  await sandbox.close();
});
beforeEach(() => {
  seen = [];
  sandbox.control!.setEmptyUsages(false);
});

async function check(args: readonly string[] = [], profile?: string) {
  const account = sandbox.accounts.find((a) => a.email === 'kiosk-all@sandbox.test')!;
  let stdout = '';
  let stderr = '';
  const globals = profile === undefined ? [] : ['--profile', profile];
  const code = await main([...globals, 'contract', 'check', ...args], {
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
    env: {
      KIOSK_API_BASE_URL: proxyUrl,
      KIOSK_API_EMAIL: account.email,
      KIOSK_API_PASSWORD: account.password,
    },
  });
  return { code, stdout, stderr };
}

const reads = (path: RegExp) => seen.filter((r) => r.method === 'GET' && path.test(r.path));

describe('kioskctl contract check', { timeout: 30_000 }, () => {
  test('calls every read the kiosk makes, with the parameters the kiosk sends; nothing written', async () => {
    const run = await check(['--json']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as {
      operations: { operationId: string; outcome: string }[];
      refused: string[];
      debitBodyUndecided: string[];
    };
    const ok = new Set(
      report.operations.filter((o) => o.outcome === 'ok').map((o) => o.operationId),
    );
    for (const operationId of [
      'listCatalogProducts',
      'listCatalogChanges',
      'listProductItems',
      'listProductItemsOfProduct',
      'getProductItem',
      'listCharacteristicValues',
      'searchCustomers',
      'getSavLog',
      'getGiftCard',
    ])
      expect(ok, operationId).toContain(operationId);
    // The catalogue as the sync reads it: both views, the page size it asks for.
    const catalogue = reads(/^\/v1\/catalog\/products$/).map((r) => r.query.get('displayedOnline'));
    expect(catalogue.sort()).toEqual(['false', 'true']);
    const changes = reads(/^\/v1\/catalog\/changes$/)[0]!.query;
    expect([...changes.keys()].sort()).toEqual(['limit', 'page', 'since']);
    // The customer search as the screen sends it: the spec's two, and the profile's criteria.
    const search = reads(/^\/v1\/customers\/search$/)[0]!.query;
    expect(search.get('matchMode')).toBe('exact');
    expect(search.get('email')).toMatch(/@/);
    const criteria = Object.values(defaultProfile.parameters.customerSearch);
    for (const name of search.keys())
      expect(['email', 'matchMode', 'page', 'limit', ...criteria]).toContain(name);
    expect([...search.keys()].some((name) => criteria.includes(name))).toBe(true);
    // The SAV log as its screen reads it: one request of up to 100 entries.
    expect(reads(/^\/v1\/sav\/[^/]+\/log$/)[0]!.query.get('limit')).toBe('100');
    expect(reads(/^\/v1\/characteristics\/[^/]+\/values$/)).toHaveLength(1);
    expect(reads(/^\/v1\/product-items\/[^/]+$/)).toHaveLength(1);
    expect(
      seen.filter(
        (r) => r.method !== 'GET' && r.path.startsWith('/v1/') && r.path !== '/v1/auth/token',
      ),
    ).toEqual([]);
  });

  test('a card with no usages: "not checked: the service returned no example", and the check passes', async () => {
    sandbox.control!.setEmptyUsages(true);
    const run = await check();
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      /not checked: the service returned no example of [^\n]*giftCardUsage\.reference/,
    );
    expect(run.stdout).toMatch(/giftCardUsage\.reference \*\s+not-checked/);
    expect(run.stdout).toContain('everything the kiosk needs resolves');
  });

  test('--gift-card and --customer point the check at those records; a 4xx on a read exits 11', async () => {
    const first = await check();
    expect(first.code).toBe(0);
    const customerId = reads(/^\/v1\/customers\/[^/]+$/)
      .find((r) => r.path !== '/v1/customers/search')!
      .path.split('/')[3]!;
    seen = [];
    const run = await check(['--customer', customerId, '--gift-card', 'no-such-card']);
    // Pointed at: no customer list read, that customer opened, that card asked for.
    expect(reads(/^\/v1\/customers$/)).toEqual([]);
    expect(reads(new RegExp(`^/v1/customers/${customerId}$`))).toHaveLength(1);
    expect(reads(/^\/v1\/gift-cards\/no-such-card$/)).toHaveLength(1);
    expect(run.code).toBe(11);
    expect(JSON.parse(run.stderr.trim())).toMatchObject({
      error: {
        code: 'CONTRACT_READ_REFUSED',
        message: expect.stringContaining('getGiftCard: 404'),
      },
    });
  });

  test('a debit body holding "?": exit 9, the slot named, no debit sent', async () => {
    const file = join(dir, 'undecided.json');
    writeFileSync(
      file,
      JSON.stringify({
        ...defaultProfile,
        $schema: undefined,
        giftCardDebit: { body: { ...defaultProfile.giftCardDebit.body, reference: '?' } },
      }),
    );
    const run = await check([], file);
    expect(run.code).toBe(9);
    expect(JSON.parse(run.stderr.trim())).toMatchObject({
      error: {
        code: 'CONTRACT_INCOMPLETE',
        message: expect.stringContaining('giftCardDebit.body.reference'),
      },
    });
    expect(run.stdout).toMatch(/DEBIT BODY UNDECIDED[^\n]*giftCardDebit\.body\.reference/);
    expect(seen.filter((r) => r.method === 'POST' && r.path.includes('gift-cards'))).toEqual([]);
  });
});
