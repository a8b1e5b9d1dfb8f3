import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Health } from '../../../shared/api/auth.ts';
import { operationList } from '../../../shared/api/operations.ts';
import { demoProducts } from '../../../sandbox/data/demo.ts';
import { type Client, emails, expectError, startClient } from './helpers.ts';

let client: Client;
beforeAll(async () => {
  client = await startClient();
});
afterAll(() => client.sandbox.close());

describe('routes absent from the contract', () => {
  test('GET /health is public and carries no business data', async () => {
    const reply = await client.request('/health');
    expect(reply.status).toBe(200);
    expect(Health.strict().parse(reply.body)).toEqual({ status: 'ok' });
  });

  test('an unknown path is 404 RESOURCE_NOT_FOUND in the error format', async () => {
    const token = await client.login(emails.all);
    for (const path of [
      '/v1/orders',
      '/v1',
      '/',
      '/v2/ping',
      '/v1/ping/',
      '/V1/PING',
      '/v1/products/x/y/z',
    ]) {
      expectError(await client.request(path, { token }), 404, 'RESOURCE_NOT_FOUND');
    }
  });

  test('every POST /v1/* is 404, with or without a token', async () => {
    const token = await client.login(emails.all);
    for (const operation of operationList.filter((op) => op.path.startsWith('/v1/'))) {
      const path = operation.path.replace(/\{[^}]+\}/g, 'x');
      expectError(
        await client.request(path, { method: 'POST', token, body: {} }),
        404,
        'RESOURCE_NOT_FOUND',
      );
    }
    expectError(
      await client.request('/v1/customers', { method: 'POST', body: {} }),
      404,
      'RESOURCE_NOT_FOUND',
    );
  });

  test('other methods on contract paths are 404 (HEAD, DELETE, PATCH, PUT on a GET route, GET /auth)', async () => {
    const token = await client.login(emails.all);
    for (const [method, path] of [
      ['HEAD', '/v1/ping'],
      ['DELETE', '/v1/customers/x'],
      ['PATCH', '/v1/gift-cards/x'],
      ['PUT', '/v1/products/x'],
      ['GET', '/auth'],
      ['OPTIONS', '/v1/ping'],
    ] as const) {
      const reply = await client.request(path, { method, token });
      expect(reply.status, `${method} ${path}`).toBe(404);
      if (method !== 'HEAD') expectError(reply, 404, 'RESOURCE_NOT_FOUND');
    }
  });

  test('the control surface does not exist without --control', async () => {
    const { startSandbox } = await import('../../../sandbox/index.ts');
    const plain = await startSandbox();
    try {
      expect(plain.control).toBeUndefined();
      for (const [method, path] of [
        ['GET', '/__sandbox/'],
        ['GET', '/__sandbox/ledger'],
        ['POST', '/__sandbox/clock/advance'],
        ['POST', '/__sandbox/faults'],
      ] as const) {
        const response = await fetch(`${plain.baseUrl}${path}`, {
          method,
          ...(method === 'POST'
            ? { body: '{}', headers: { 'content-type': 'application/json' } }
            : {}),
        });
        expect(response.status).toBe(404);
        expect(((await response.json()) as { code: string }).code).toBe('RESOURCE_NOT_FOUND');
      }
    } finally {
      await plain.close();
    }
  });
});

describe('validation (400 INVALID_REQUEST, first offending parameter named)', () => {
  const cases: [string, RegExp][] = [
    ['/v1/catalog/products?foo=1', /unknown query parameter `foo`/],
    ['/v1/catalog/products?limit=0', /`limit`/],
    ['/v1/catalog/products?limit=501', /`limit`/],
    ['/v1/catalog/products?limit=abc', /`limit`/],
    ['/v1/catalog/products?page=0', /`page`/],
    ['/v1/catalog/products?page=1.5', /`page`/],
    ['/v1/catalog/products?availableOnly=yes', /`availableOnly`/],
    ['/v1/catalog/products?updatedSince=yesterday', /`updatedSince`/],
    ['/v1/catalog/products?shopUuid=', /`shopUuid`/],
    ['/v1/catalog/products?limit=1&limit=2', /`limit` is given more than once/],
    ['/v1/products?search=', /`search`/],
    [`/v1/products?search=${'a'.repeat(301)}`, /`search`/],
    [`/v1/products?shopId=${'s'.repeat(65)}`, /`shopId`/],
    ['/v1/products?supplierId=', /`supplierId`/],
    ['/v1/products?include=media,%20stock', /`include`/],
    ['/v1/products?include=media,,stock', /`include`/],
    ['/v1/products?include=items', /`include`/],
    ['/v1/products?include=Media', /`include`/],
    ['/v1/catalog/changes', /`since`: is required/],
    ['/v1/catalog/changes?since=2024-01-01T00:00:00Z&types=products,%20shops', /`types`/],
    ['/v1/catalog/changes?since=2024-01-01T00:00:00Z&types=product', /`types`/],
    ['/v1/catalog/changes?since=2024-01-01T00:00:00Z&limit=501', /`limit`/],
    [
      '/v1/catalog/changes?since=2024-01-02T00:00:00Z&until=2024-01-01T00:00:00Z',
      /`until` is before `since`/,
    ],
    ['/v1/ping?verbose=1', /unknown query parameter `verbose`/],
    [`/v1/product-items/${demoProducts.hidden}?include=stock`, /unknown query parameter `include`/],
    ['/v1/customers/search', /at least one criterion/],
    ['/v1/customers/search?email=a@b.c&matchMode=fuzzy', /`matchMode`/],
    ['/v1/customers/x/credits?types=gift_card,voucher', /`types`/],
  ];
  test.each(cases)('%s', async (path, explanation) => {
    const body = expectError(await client.as(emails.all, path), 400, 'INVALID_REQUEST');
    expect(body.message).toMatch(explanation);
  });

  test('POST /auth validates its body', async () => {
    const bodies: [string, string][] = [
      ['', 'application/json'],
      ['{', 'application/json'],
      ['{"email":"a"}', 'application/json'],
      ['{"email":"a","password":"b","extra":1}', 'application/json'],
      ['email=a&password=b', 'application/x-www-form-urlencoded'],
      ['[]', 'application/json'],
    ];
    for (const [rawBody, type] of bodies) {
      expectError(
        await client.request('/auth', {
          method: 'POST',
          rawBody,
          headers: { 'content-type': type },
        }),
        400,
        'INVALID_REQUEST',
      );
    }
  });

  test('a body that is too large is an invalid request', async () => {
    const rawBody = JSON.stringify({ email: 'a'.repeat(2 * 1024 * 1024), password: 'x' });
    expectError(
      await client.request('/auth', {
        method: 'POST',
        rawBody,
        headers: { 'content-type': 'application/json' },
      }),
      400,
      'INVALID_REQUEST',
    );
  });

  test('authentication comes before validation; validation before the conditional scope rules', async () => {
    expectError(await client.request('/v1/catalog/products?foo=1'), 401, 'UNAUTHORIZED');
    // The catalogue account lacks customers:read: the base scopes answer first.
    expectError(await client.as(emails.catalog, '/v1/customers?foo=1'), 403, 'FORBIDDEN');
  });
});
