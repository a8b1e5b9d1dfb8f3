import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import type { ConditionalScope, Operation } from '../../../shared/api/operation.ts';
import { operationList } from '../../../shared/api/operations.ts';
import { scopes as allScopes } from '../../../shared/api/scopes.ts';
import {
  demoCustomers,
  demoGiftCards,
  demoProducts,
  demoSales,
  demoSav,
} from '../../../sandbox/data/demo.ts';
import { type Client, data, emails, expectError, startClient } from './helpers.ts';

let client: Client;
let shopId: string;
/** The account whose scopes each case sets; restored after each test. */
const subject = emails.noGiftCardWrite;
const scopesPath = `/accounts/${encodeURIComponent(subject)}/scopes`;

beforeAll(async () => {
  client = await startClient();
  shopId = data<{ id: string }>(await client.as(emails.all, '/v1/shops'))[0]!.id;
});
afterAll(() => client.sandbox.close());
afterEach(async () => {
  await client.control('POST', '/reset');
});

const pathIds: Record<string, string> = {
  productId: demoProducts.availableEverywhere,
  customerId: demoCustomers.main,
  saleId: demoSales.withCredits,
  savId: demoSav.inRepair,
  giftCardId: demoGiftCards.active,
};

function pathOf(operation: Operation): string {
  return operation.path.replace(/\{([^}]+)\}/g, (_, name: string) => pathIds[name] ?? 'unknown');
}

/** A valid value for a parameter a rule looks at. */
function valueFor(param: string): string {
  const values: Record<string, string> = {
    // Substituted when the test runs (the shops are listed in beforeAll).
    shopId: '$shop',
    email: 'helene.lefevre@example.com',
    phone: '+33 6 12 34 56 78',
  };
  return values[param] ?? 'true';
}

/** Every query that triggers the rule: one per listed value, plus the empty query when absence triggers it. */
function triggeringQueries(rule: ConditionalScope): Record<string, string>[] {
  const when = rule.when;
  if ('always' in when) return [{}];
  if ('queryPresent' in when) return [{ [when.queryPresent]: valueFor(when.queryPresent) }];
  if ('queryEquals' in when) return [{ [when.queryEquals.param]: when.queryEquals.value }];
  if ('queryIncludes' in when)
    return when.queryIncludes.values.map((value) => ({ [when.queryIncludes.param]: value }));
  return [
    {},
    ...when.queryAbsentOrIncludes.values.map((value) => ({
      [when.queryAbsentOrIncludes.param]: value,
    })),
  ];
}

/** A second reading of the triggers, for the cases where two rules meet. */
function triggeredBy(rule: ConditionalScope, query: Record<string, string>): boolean {
  const when = rule.when;
  const has = (param: string, values: readonly string[]) =>
    (query[param] ?? '').split(',').some((value) => values.includes(value));
  if ('always' in when) return true;
  if ('queryPresent' in when) return when.queryPresent in query;
  if ('queryEquals' in when) return query[when.queryEquals.param] === when.queryEquals.value;
  if ('queryIncludes' in when) return has(when.queryIncludes.param, when.queryIncludes.values);
  return (
    !(when.queryAbsentOrIncludes.param in query) ||
    has(when.queryAbsentOrIncludes.param, when.queryAbsentOrIncludes.values)
  );
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Whether a block path (`data[].contact`, `customer.contact`, `data[type=gift_card]`) is present anywhere. */
function blockPresent(value: unknown, path: string): boolean {
  const [head, ...rest] = path.split('.');
  if (head === undefined || !isRecord(value)) return false;
  const match = /^(\w+)(\[\]|\[(\w+)=([^\]]+)\])?$/.exec(head)!;
  const [, name, bracket, key, wanted] = match;
  if (!(name! in value)) return false;
  const member = value[name!];
  if (bracket === undefined) return rest.length === 0 ? true : blockPresent(member, rest.join('.'));
  if (!Array.isArray(member)) return false;
  const elements =
    key === undefined
      ? member
      : member.filter((element) => isRecord(element) && element[key] === wanted);
  if (rest.length === 0) return elements.length > 0;
  return elements.some((element) => blockPresent(element, rest.join('.')));
}

const cases = operationList.flatMap((operation) =>
  (operation.scopes.conditional ?? []).flatMap((rule) =>
    triggeringQueries(rule).map((query) => ({ operation, rule, query })),
  ),
);

describe('every conditional scope rule of the contract table', () => {
  test.each(
    cases.map(
      (c) =>
        [
          `${c.operation.operationId} ${c.rule.effect} ${c.rule.scopes.join(',')} ?${new URLSearchParams(c.query)}`,
          c,
        ] as const,
    ),
  )('%s', async (_, { operation, rule, query }) => {
    const search = new URLSearchParams(query).toString().replace('%24shop', shopId);
    const url = `${pathOf(operation)}${search ? `?${search}` : ''}`;
    // With every scope, the request succeeds and (for omit rules) the block is there.
    const full = await client.as(emails.all, url);
    expect(full.status).toBe(200);
    if (rule.effect === 'omit')
      expect(blockPresent(full.body, rule.block!), `${rule.block} with every scope`).toBe(true);

    const without = allScopes.filter((scope) => !rule.scopes.includes(scope));
    expect((await client.control('PUT', scopesPath, { scopes: without })).status).toBe(200);
    const reply = await client.as(subject, url);
    // A forbidding rule on the same scopes triggered by the same query wins over an omitting one.
    const forbids =
      rule.effect === 'forbid' ||
      (operation.scopes.conditional ?? []).some(
        (other) =>
          other.effect === 'forbid' &&
          other.scopes.some((scope) => rule.scopes.includes(scope)) &&
          triggeredBy(other, query),
      );
    if (forbids) {
      const body = expectError(reply, 403, 'FORBIDDEN');
      expect(body.missingScopes).toEqual(expect.arrayContaining([...rule.scopes]));
    } else {
      expect(reply.status).toBe(200);
      expect(
        blockPresent(reply.body, rule.block!),
        `${rule.block} without ${rule.scopes.join(',')}`,
      ).toBe(false);
    }
  });
});

describe('base scopes', () => {
  test('each missing `all` scope is listed in missingScopes', async () => {
    await client.control('PUT', scopesPath, { scopes: ['products:read'] });
    const body = expectError(await client.as(subject, '/v1/catalog/products'), 403, 'FORBIDDEN');
    expect(body.missingScopes).toEqual(['referentials:read', 'stock:read']);
  });

  test('the history needs customers:read and at least one family scope', async () => {
    await client.control('PUT', scopesPath, { scopes: ['customers:read'] });
    const body = expectError(
      await client.as(subject, `/v1/customers/${demoCustomers.main}/history`),
      403,
      'FORBIDDEN',
    );
    expect(body.missingScopes).toEqual([
      'customer-credits:read',
      'orders:read',
      'sales:read',
      'sav:read',
    ]);
    await client.control('PUT', scopesPath, { scopes: ['customers:read', 'sav:read'] });
    const reply = await client.as(subject, `/v1/customers/${demoCustomers.main}/history`);
    expect(reply.status).toBe(200);
    expect(Object.keys(reply.body as object).sort()).toEqual(['customerId', 'sav']);
  });

  test('several forbidding rules report every missing scope at once', async () => {
    await client.control('PUT', scopesPath, { scopes: ['products:read'] });
    const body = expectError(
      await client.as(subject, `/v1/products?availableOnly=true&shopId=${shopId}`),
      403,
      'FORBIDDEN',
    );
    expect(body.missingScopes).toEqual(['stock:read']);
    expect(body.message).toMatch(/availableOnly/);
  });
});

describe('the seeded account with products:read but without stock:read', () => {
  test('reads product references, and is refused each rule that needs availability', async () => {
    const account = emails.productsNoStock;
    expect((await client.as(account, '/v1/products?limit=5')).status).toBe(200);
    const productId = (
      data(await client.as(account, '/v1/products?limit=1'))[0] as { uuid: string }
    ).uuid;
    expect((await client.as(account, `/v1/products/${productId}`)).status).toBe(200);
    for (const path of [
      '/v1/products?availableOnly=true',
      `/v1/products?shopId=${shopId}`,
      '/v1/products?include=stock',
      `/v1/products/${productId}?include=items`,
      `/v1/products/${productId}/items`,
      '/v1/catalog/products',
    ]) {
      const body = expectError(await client.as(account, path), 403, 'FORBIDDEN');
      expect(body.missingScopes, path).toEqual(['stock:read']);
    }
  });
});

describe('personal data and internal comments', () => {
  test('the read-only account never sees contact data nor internal comments', async () => {
    const customers = await client.as(
      emails.readonly,
      '/v1/customers?include=contact,internalComments&limit=500',
    );
    expect(customers.status).toBe(200);
    for (const customer of data(customers)) {
      expect(customer).not.toHaveProperty('contact');
      expect(customer).not.toHaveProperty('internalComments');
      expect(customer).toHaveProperty('lastName');
    }
    const one = await client.as(
      emails.readonly,
      `/v1/customers/${demoCustomers.main}?include=contact,internalComments`,
    );
    expect(one.body).not.toHaveProperty('contact');
    expect(one.body).not.toHaveProperty('internalComments');

    for (const path of ['/v1/sales?limit=500', '/v1/sav?limit=500']) {
      const reply = await client.as(emails.readonly, path);
      for (const record of data<{ customer: Record<string, unknown> | null }>(reply)) {
        if (record.customer) expect(record.customer).not.toHaveProperty('contact');
      }
    }
    const json = JSON.stringify((await client.as(emails.readonly, '/v1/sales?limit=500')).body);
    expect(json).not.toContain('helene.lefevre@example.com');
  });

  test('personal-data filters and the search need customers:pii:read', async () => {
    expectError(
      await client.as(emails.readonly, '/v1/customers?email=helene.lefevre@example.com'),
      403,
      'FORBIDDEN',
    );
    const search = expectError(
      await client.as(emails.readonly, '/v1/customers/search?email=helene.lefevre@example.com'),
      403,
      'FORBIDDEN',
    );
    expect(search.missingScopes).toEqual(['customers:pii:read']);
  });

  test('nothing sensitive is included unless requested, even with every scope', async () => {
    const customer = await client.as(emails.all, `/v1/customers/${demoCustomers.main}`);
    expect(customer.body).not.toHaveProperty('contact');
    expect(customer.body).not.toHaveProperty('internalComments');
    const withBoth = await client.as(
      emails.all,
      `/v1/customers/${demoCustomers.main}?include=contact,internalComments`,
    );
    expect(withBoth.body).toHaveProperty('contact.email', 'helene.lefevre@example.com');
    expect(withBoth.body).toHaveProperty('internalComments');

    const card = await client.as(emails.all, `/v1/gift-cards/${demoGiftCards.active}`);
    for (const block of ['customer', 'origin', 'usages', 'invoice'])
      expect(card.body).not.toHaveProperty(block);
    expect(card.body).toHaveProperty('maskedNumber');
  });
});
