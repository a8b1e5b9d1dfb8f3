import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import {
  demoCustomers,
  demoGiftCardBalances,
  demoGiftCards,
  demoSales,
  demoSav,
} from '../../../sandbox/data/demo.ts';
import type { LedgerEntry } from '../../../sandbox/index.ts';
import { ProductsReply } from '../../../shared/api/products.ts';
import { type Client, data, emails, expectError, startClient } from '../server/helpers.ts';

/** The alternate dialect over HTTP: 'not shown' shapes differ, everything the spec shows does not. */

let client: Client;
beforeAll(async () => {
  client = await startClient({ dialect: 'alternate' });
});
afterAll(() => client.sandbox.close());
afterEach(async () => {
  await client.control('POST', '/reset');
});

type Json = Record<string, unknown>;
const get = async (path: string) => {
  const reply = await client.as(emails.all, path);
  expect(reply.status, path).toBe(200);
  return reply.body as Json;
};
const cardPath = (id: string) => `/v1/gift-cards/${id}`;
const debit = (id: string, body: unknown, key: string = randomUUID()) =>
  client.as(emails.all, cardPath(id), {
    method: 'PUT',
    body,
    headers: { 'Idempotency-Key': key },
  });
const ledger = async (): Promise<LedgerEntry[]> =>
  ((await client.control('GET', '/ledger')).body as { debits: LedgerEntry[] }).debits;

describe('the alternate dialect reshapes every record the spec does not show', () => {
  test('reports its dialect, and ping answers { apiVersion }', async () => {
    expect(client.sandbox.dialect).toBe('alternate');
    expect(await get('/v1/ping')).toEqual({ apiVersion: expect.any(String) });
  });

  test('gift card: pan, status word, funds.remaining, validUntil, movements', async () => {
    const card = await get(`${cardPath(demoGiftCards.active)}?include=usages`);
    expect(card).toMatchObject({
      id: demoGiftCards.active,
      pan: expect.any(String),
      status: 'ACTIVE',
      funds: { remaining: demoGiftCardBalances.active },
    });
    for (const absent of ['balance', 'maskedNumber', 'expiresOn', 'usages'])
      expect(card).not.toHaveProperty(absent);
    expect(card).toHaveProperty('validUntil');
    const movements = card['movements'] as Json[];
    expect(movements.length).toBeGreaterThan(0);
    for (const movement of movements) {
      expect(movement).toMatchObject({ value: expect.any(Number), when: expect.any(String) });
      expect(movement).toHaveProperty('memo');
    }
    expect((await get(cardPath(demoGiftCards.inactive)))['status']).toBe('BLOCKED');
    expect((await get(cardPath(demoGiftCards.expired)))['status']).toBe('EXPIRED');
  });

  test('sale: reference, grandTotal, items; no status nor hasInvoice; the list envelope unchanged', async () => {
    const sale = await get(`/v1/sales/${demoSales.withInvoice}`);
    expect(sale).toMatchObject({
      uuid: demoSales.withInvoice,
      reference: expect.any(String),
      grandTotal: expect.any(Number),
    });
    for (const absent of ['number', 'status', 'hasInvoice', 'lines', 'totals'])
      expect(sale).not.toHaveProperty(absent);
    const [item] = sale['items'] as Json[];
    expect(item).toMatchObject({
      name: expect.any(String),
      qty: expect.any(Number),
      lineTotal: expect.any(Number),
    });
    const list = await get('/v1/sales?pageNumber=1&pageSize=2');
    expect(list['pagination']).toMatchObject({ page: 1, limit: 2, hasNextPage: true });
    expect((list['data'] as Json[])[0]).toHaveProperty('reference');

    const invoice = await get(`/v1/sales/${demoSales.withInvoice}/invoice`);
    expect(invoice).toMatchObject({ id: expect.any(String), invoiceNumber: expect.any(String) });
    expect(invoice).not.toHaveProperty('number');
  });

  test('SAV: caseNumber and stage words; its log entries are { when, stage, text }', async () => {
    const sav = await get(`/v1/sav/${demoSav.inRepair}`);
    expect(sav).toMatchObject({ uuid: demoSav.inRepair, caseNumber: expect.any(String) });
    expect(sav['stage']).toBe('REPAIRING');
    expect(sav).not.toHaveProperty('status');
    const log = await get(`/v1/sav/${demoSav.closed}/log`);
    for (const entry of log['data'] as Json[]) {
      expect(Object.keys(entry).sort()).toEqual(['stage', 'text', 'when']);
    }
    expect((log['data'] as Json[]).at(-1)?.['stage']).toBe('RETURNED');
    const ready = await get('/v1/sav?stage=READY_FOR_PICKUP');
    expect((ready['data'] as Json[]).map((entry) => entry['stage'])).toContain('READY_FOR_PICKUP');
    expect(new Set((ready['data'] as Json[]).map((entry) => entry['stage']))).toEqual(
      new Set(['READY_FOR_PICKUP']),
    );
  });

  test('customer: kind, contactDetails, registeredAt; credits and history renamed', async () => {
    const customer = await get(`/v1/customers/${demoCustomers.company}?include=contact`);
    expect(customer).toMatchObject({
      uuid: demoCustomers.company,
      kind: 'COMPANY',
      registeredAt: expect.any(String),
      contactDetails: expect.objectContaining({ city: expect.any(String) }),
    });
    for (const absent of ['typeCustomer', 'contact', 'createdAt'])
      expect(customer).not.toHaveProperty(absent);
    const person = await get(`/v1/customers/${demoCustomers.main}`);
    expect(person['kind']).toBe('PERSON');

    const credits = data(
      await client.as(emails.all, `/v1/customers/${demoCustomers.main}/credits`),
    );
    const card = credits.find((credit) => credit['kind'] === 'GIFT_CARD');
    expect(card).toMatchObject({ id: expect.any(String), balance: expect.any(Number) });
    expect(card?.['cardId']).toEqual(expect.any(String));
    expect(credits.map((credit) => credit['kind'])).toContain('CREDIT_NOTE');
    for (const credit of credits) {
      expect(credit).not.toHaveProperty('type');
      expect(credit).not.toHaveProperty('remainingAmount');
    }

    const history = await get(`/v1/customers/${demoCustomers.main}/history`);
    const [entry] = history['sales'] as Json[];
    expect(entry).toMatchObject({ uuid: expect.any(String), reference: expect.any(String) });
    expect(entry).toHaveProperty('grandTotal');
    expect(entry).not.toHaveProperty('number');
  });

  test('referentials: shops have label and no postalCode, categories and the like have name', async () => {
    const [shop] = data(await client.as(emails.all, '/v1/shops'));
    expect(shop).toMatchObject({ id: expect.any(String), label: expect.any(String) });
    expect(shop).not.toHaveProperty('name');
    expect(shop).not.toHaveProperty('postalCode');
    for (const path of ['/v1/categories', '/v1/product-types', '/v1/characteristics']) {
      const [record] = data(await client.as(emails.all, path));
      expect(record, path).toHaveProperty('name');
      expect(record, path).not.toHaveProperty('label');
    }
  });

  test('what the spec shows stays: /v1/products, the error object, auth', async () => {
    const products = await client.as(emails.all, '/v1/products?page=1&limit=3&availableOnly=true');
    expect(products.status).toBe(200);
    expect(() => ProductsReply.parse(products.body)).not.toThrow();
    expectError(await client.as(emails.all, `/v1/sales/sale_unknown`), 404, 'RESOURCE_NOT_FOUND');
  });
});

describe('the alternate dialect refuses the parameters it does not take', () => {
  test.each([
    ['/v1/shops?page=1', 'page'],
    ['/v1/sales?limit=5', 'limit'],
    [`/v1/customers/search?email=a%40example.com&page=1`, 'page'],
    [`/v1/customers/search?email=a%40example.com&pageSize=5`, 'pageSize'],
    [`/v1/sav/${demoSav.closed}/log?limit=5`, 'limit'],
    [`/v1/sav/${demoSav.closed}/log?pageNumber=1`, 'pageNumber'],
    ['/v1/product-items?availableOnly=false', 'availableOnly'],
    ['/v1/sav?status=ready', 'status'],
  ])('%s: 400 unknown parameter `%s`', async (path, name) => {
    const body = expectError(await client.as(emails.all, path), 400, 'INVALID_REQUEST');
    expect(body.message).toContain(`unknown query parameter \`${name}\``);
  });

  test('pageNumber/pageSize page the not-shown lists; search and SAV log take none', async () => {
    const page2 = await get('/v1/customers?pageNumber=2&pageSize=3');
    expect(page2['pagination']).toMatchObject({ page: 2, limit: 3 });
    expect((await client.as(emails.all, '/v1/product-items?pageSize=2')).status).toBe(200);
    expect((await client.as(emails.all, `/v1/sav/${demoSav.closed}/log`)).status).toBe(200);
  });
});

describe('a debit in the alternate dialect', () => {
  const body = { debit: { value: 12.5 }, memo: 'kiosk-alt-1', storeId: undefined as unknown };

  test('applied once in the ledger, the same key replays the same reply', async () => {
    const shops = data(await client.as(emails.all, '/v1/shops'));
    const sent = { ...body, storeId: shops[0]?.['id'] };
    const key = randomUUID();
    const first = await debit(demoGiftCards.active, sent, key);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      id: expect.any(String),
      remaining: demoGiftCardBalances.active - 12.5,
      when: expect.any(String),
      memo: 'kiosk-alt-1',
    });
    const again = await debit(demoGiftCards.active, sent, key);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);

    const entries = await ledger();
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      giftCardId: demoGiftCards.active,
      amount: 12.5,
      reference: 'kiosk-alt-1',
      idempotencyKey: key,
    });
    const card = await get(`${cardPath(demoGiftCards.active)}?include=usages`);
    expect((card['funds'] as Json)['remaining']).toBe(demoGiftCardBalances.active - 12.5);
    expect((card['movements'] as Json[]).at(-1)).toMatchObject({
      value: 12.5,
      memo: 'kiosk-alt-1',
    });

    const otherBody = expectError(
      await debit(demoGiftCards.active, { ...sent, debit: { value: 13 } }, key),
      409,
      'CONFLICT',
    );
    expect(otherBody.message).toMatch(/different body/);
    expect(await ledger()).toHaveLength(1);
  });

  test.each([
    [{ amount: 12.5, currency: 'EUR', reference: 'kiosk-default' }, 'amount'],
    [{ debit: { value: 12.5 }, currency: 'EUR', memo: 'kiosk-alt' }, 'currency'],
    [{ debit: { value: 12.5, currency: 'EUR' } }, 'debit.currency'],
  ])('the body %j is refused 400 (unknown field `%s`), nothing applied', async (sent, name) => {
    const reply = expectError(await debit(demoGiftCards.active, sent), 400, 'INVALID_REQUEST');
    expect(reply.message).toContain(`unknown field \`${name}\``);
    expect(await ledger()).toHaveLength(0);
  });

  test('business refusals keep the spec error object', async () => {
    const reply = await debit(demoGiftCards.lowBalance, { debit: { value: 50 } });
    expect(reply.status).toBe(409);
    expect(reply.body).toMatchObject({ code: 'INSUFFICIENT_BALANCE', statusCode: 409 });
    expect(await ledger()).toHaveLength(0);
  });
});
