import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  Customer,
  CustomerSearchReply,
  CreditsReply,
  CustomerHistory,
} from '../../../shared/api/customers.ts';
import { ambiguousEmail, demoCustomers } from '../../../sandbox/data/demo.ts';
import { type Client, data, emails, expectError, startClient } from './helpers.ts';

let client: Client;
beforeAll(async () => {
  client = await startClient();
});
afterAll(() => client.sandbox.close());

const search = (query: string) => client.as(emails.all, `/v1/customers/search?${query}`);

describe('GET /v1/customers/search', () => {
  test('an exact e-mail shared by two customers gives both: the caller must verify', async () => {
    const reply = await search(`email=${ambiguousEmail.email}&matchMode=exact`);
    expect(reply.status).toBe(200);
    const parsed = CustomerSearchReply.parse(reply.body);
    expect(parsed.data.map((customer) => customer.uuid).sort()).toEqual(
      [...ambiguousEmail.customerIds].sort(),
    );
    expect(parsed.pagination.total).toBe(2);
    // The contact block is there to verify with (the caller holds customers:pii:read).
    expect(parsed.data.every((customer) => customer.contact?.email === ambiguousEmail.email)).toBe(
      true,
    );
  });

  test('exact means the whole address (case aside), not a part of it', async () => {
    expect(data(await search(`email=${ambiguousEmail.email.toUpperCase()}`))).toHaveLength(2);
    expect(data(await search('email=famille.moreau'))).toEqual([]);
    expect(data(await search(`email=x${ambiguousEmail.email}`))).toEqual([]);
  });

  test('criteria combine with AND; nothing found is an empty list', async () => {
    const first = CustomerSearchReply.parse((await search(`email=${ambiguousEmail.email}`)).body)
      .data[0]!;
    const narrowed = await search(
      `email=${ambiguousEmail.email}&firstName=${encodeURIComponent(first.firstName!.toUpperCase())}`,
    );
    expect(data<{ uuid: string }>(narrowed).map((customer) => customer.uuid)).toEqual([first.uuid]);
    const none = await search(`email=${ambiguousEmail.email}&lastName=Nobody`);
    expect(none.status).toBe(200);
    expect(CustomerSearchReply.parse(none.body)).toEqual({
      data: [],
      pagination: { page: 1, limit: 50, total: 0, hasNextPage: false },
    });
  });

  test('names ignore accents and case; phones compare on their digits', async () => {
    const byName = data<{ uuid: string }>(await search('lastName=LEFEVRE&firstName=helene'));
    expect(byName.map((customer) => customer.uuid)).toContain(demoCustomers.main);
    const byPhone = data<{ uuid: string }>(await search('phone=%2B33612345678'));
    expect(byPhone.map((customer) => customer.uuid)).toContain(demoCustomers.main);
  });
});

describe('GET /v1/customers', () => {
  test('filters: e-mail (exact), shop, updatedSince; pagination', async () => {
    const byEmail = await client.as(emails.all, `/v1/customers?email=${ambiguousEmail.email}`);
    expect(data(byEmail)).toHaveLength(2);
    const all = await client.as(emails.all, '/v1/customers?limit=500');
    const customers = data<{ shopId: string | null; updatedAt: string }>(all);
    const shopId = customers.find((customer) => customer.shopId !== null)!.shopId!;
    const byShop = data<{ shopId: string }>(
      await client.as(emails.all, `/v1/customers?shopId=${shopId}&limit=500`),
    );
    expect(byShop.length).toBe(customers.filter((customer) => customer.shopId === shopId).length);
    const page = await client.as(emails.all, '/v1/customers?limit=2&page=2');
    expect((page.body as { pagination: unknown }).pagination).toEqual({
      page: 2,
      limit: 2,
      total: customers.length,
      hasNextPage: customers.length > 4,
    });
    const future = await client.as(emails.all, '/v1/customers?updatedSince=2999-01-01T00:00:00Z');
    expect(data(future)).toEqual([]);
  });

  test('an unknown customer is 404', async () => {
    expectError(
      await client.as(emails.all, '/v1/customers/customer_unknown'),
      404,
      'RESOURCE_NOT_FOUND',
    );
    expectError(
      await client.as(emails.all, '/v1/customers/customer_unknown/credits'),
      404,
      'RESOURCE_NOT_FOUND',
    );
    expectError(
      await client.as(emails.all, '/v1/customers/customer_unknown/history'),
      404,
      'RESOURCE_NOT_FOUND',
    );
  });
});

describe('PUT /v1/customers/{customerId}', () => {
  const path = `/v1/customers/${demoCustomers.company}`;

  test('is a full replacement: omitted optional fields are cleared or reset', async () => {
    const before = Customer.parse((await client.as(emails.all, `${path}?include=contact`)).body);
    const full = {
      typeCustomer: 'company',
      firstName: 'Anne',
      lastName: 'Durand',
      email: 'anne.durand@example.com',
      billingDifferentAddress: true,
      communication: 'email',
      phoneCommunication: true,
      emailCommunication: true,
      personalInformations: true,
      shopId: before.shopId ?? 'shop_lyon-part-dieu',
    };
    const first = await client.as(emails.all, path, { method: 'PUT', body: full });
    expect(first.status).toBe(200);
    const { email, ...rest } = full;
    expect(Customer.parse(first.body)).toMatchObject({ ...rest, contact: { email } });

    const minimal = await client.as(emails.all, path, {
      method: 'PUT',
      body: { typeCustomer: 'individual', firstName: 'Anne', lastName: 'Martin' },
    });
    expect(minimal.status).toBe(200);
    const replaced = Customer.parse(minimal.body);
    expect(replaced).toMatchObject({
      uuid: demoCustomers.company,
      typeCustomer: 'individual',
      firstName: 'Anne',
      lastName: 'Martin',
      shopId: null,
      billingDifferentAddress: false,
      communication: 'none',
      phoneCommunication: false,
      emailCommunication: false,
      personalInformations: false,
    });
    expect(replaced.contact?.email).toBeNull();
    // Contact fields outside the body are not modifiable here and stay.
    expect(replaced.contact?.phone).toBe(before.contact?.phone);
    expect(Date.parse(replaced.updatedAt)).toBeGreaterThan(Date.parse(before.updatedAt));
    expect(replaced).not.toHaveProperty('internalComments');

    // The detail shows the same thing afterwards.
    const after = Customer.parse((await client.as(emails.all, `${path}?include=contact`)).body);
    expect(after).toEqual(replaced);
  });

  test('the reply shows what the caller may see: no contact block without customers:pii:read', async () => {
    const scopesPath = `/accounts/${encodeURIComponent(emails.noGiftCardWrite)}/scopes`;
    await client.control('PUT', scopesPath, {
      scopes: ['customers:read', 'customers:write', 'customers:pii:write'],
    });
    try {
      const reply = await client.as(emails.noGiftCardWrite, path, {
        method: 'PUT',
        body: {
          typeCustomer: 'company',
          firstName: 'Anne',
          lastName: 'Durand',
          email: 'anne@example.com',
        },
      });
      expect(reply.status).toBe(200);
      expect(reply.body).not.toHaveProperty('contact');
    } finally {
      await client.control('POST', '/reset');
    }
  });

  test('refusals: 404 unknown customer, 400 bad body or unknown shop, 403 without the write scopes', async () => {
    const body = { typeCustomer: 'individual', firstName: 'A', lastName: 'B' };
    expectError(
      await client.as(emails.all, '/v1/customers/customer_unknown', { method: 'PUT', body }),
      404,
      'RESOURCE_NOT_FOUND',
    );
    expectError(
      await client.as(emails.all, path, { method: 'PUT', body: { ...body, nickname: 'x' } }),
      400,
      'INVALID_REQUEST',
    );
    expectError(
      await client.as(emails.all, path, {
        method: 'PUT',
        body: { ...body, email: 'not-an-email' },
      }),
      400,
      'INVALID_REQUEST',
    );
    expectError(
      await client.as(emails.all, path, { method: 'PUT', body: { firstName: 'A', lastName: 'B' } }),
      400,
      'INVALID_REQUEST',
    );
    expectError(
      await client.as(emails.all, path, {
        method: 'PUT',
        body: { ...body, shopId: 'shop_nowhere' },
      }),
      400,
      'INVALID_REQUEST',
    );
    expectError(
      await client.as(emails.all, path, {
        method: 'PUT',
        rawBody: '{"typeCustomer":',
        headers: { 'content-type': 'application/json' },
      }),
      400,
      'INVALID_REQUEST',
    );
    const forbidden = expectError(
      await client.as(emails.readonly, path, { method: 'PUT', body }),
      403,
      'FORBIDDEN',
    );
    expect(forbidden.missingScopes).toEqual(['customers:pii:write', 'customers:write']);
  });
});

describe('credits and history', () => {
  test('credits: `types` filters the kinds', async () => {
    const path = `/v1/customers/${demoCustomers.main}/credits`;
    const all = CreditsReply.parse((await client.as(emails.all, path)).body).data;
    expect(new Set(all.map((credit) => credit.type))).toEqual(
      new Set(['credit_note', 'gift_card']),
    );
    const notes = CreditsReply.parse(
      (await client.as(emails.all, `${path}?types=credit_note`)).body,
    ).data;
    expect(notes.length).toBeGreaterThan(0);
    expect(notes.every((credit) => credit.type === 'credit_note')).toBe(true);
    const both = CreditsReply.parse(
      (await client.as(emails.all, `${path}?types=credit_note,gift_card`)).body,
    );
    expect(both.data).toEqual(all);
    // Without gift-cards:read and without a filter, gift cards are left out (and not counted).
    const scopesPath = `/accounts/${encodeURIComponent(emails.noGiftCardWrite)}/scopes`;
    await client.control('PUT', scopesPath, {
      scopes: ['customers:read', 'customer-credits:read'],
    });
    try {
      const withoutCards = CreditsReply.parse((await client.as(emails.noGiftCardWrite, path)).body);
      expect(withoutCards.data).toEqual(notes);
      expect(withoutCards.pagination.total).toBe(notes.length);
    } finally {
      await client.control('POST', '/reset');
    }
  });

  test('history: every family by default, only the requested ones with include', async () => {
    const path = `/v1/customers/${demoCustomers.main}/history`;
    const all = CustomerHistory.parse((await client.as(emails.all, path)).body);
    expect(Object.keys(all).sort()).toEqual(['credits', 'customerId', 'orders', 'sales', 'sav']);
    for (const family of ['sales', 'orders', 'sav', 'credits'] as const)
      expect(all[family]!.length).toBeGreaterThan(0);
    const some = CustomerHistory.parse(
      (await client.as(emails.all, `${path}?include=sav,sales`)).body,
    );
    expect(Object.keys(some).sort()).toEqual(['customerId', 'sales', 'sav']);
  });
});
