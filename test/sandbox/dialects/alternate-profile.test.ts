import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  demoCustomers,
  demoGiftCardBalances,
  demoGiftCards,
  demoSales,
  demoSav,
} from '../../../sandbox/data/demo.ts';
import {
  type FieldSpec,
  IntegrationProfile,
  type RecordKind,
  debitBodyOf,
  defaultProfile,
  locationOf,
  recordKindNames,
  recordKinds,
  resolveField,
  resolveRecord,
} from '../../../shared/profile/index.ts';
import { type Client, data, emails, startClient } from '../server/helpers.ts';

/** The shipped profile of the alternate dialect, against the alternate dialect's real replies. */

const profile = IntegrationProfile.parse(
  JSON.parse(
    readFileSync(
      new URL('../../../sandbox/dialects/alternate.profile.json', import.meta.url),
      'utf8',
    ),
  ),
);

let client: Client;
/** Real replies of the alternate dialect, a few records of each kind. */
const samples = new Map<RecordKind, unknown[]>();

type Json = Record<string, unknown>;
const get = async (path: string) => {
  const reply = await client.as(emails.all, path);
  expect(reply.status, path).toBe(200);
  return reply.body as Json;
};
const add = (kind: RecordKind, ...records: unknown[]) =>
  samples.set(kind, [...(samples.get(kind) ?? []), ...records]);

beforeAll(async () => {
  client = await startClient({ dialect: 'alternate' });
  const shopId = data(await client.as(emails.all, '/v1/shops'))[0]?.['id'] as string;
  const body = debitBodyOf(profile, {
    amount: 5,
    currency: 'EUR',
    reference: 'kiosk-profile-1',
    shopId,
  });
  const receipt = await client.as(emails.all, `/v1/gift-cards/${demoGiftCards.active}`, {
    method: 'PUT',
    body,
    headers: { 'Idempotency-Key': randomUUID() },
  });
  expect(receipt.status).toBe(200);
  add('debitReceipt', receipt.body);

  add('ping', await get('/v1/ping'));
  const card = await get(`/v1/gift-cards/${demoGiftCards.active}?include=usages`);
  add('giftCard', card);
  add('giftCardUsage', ...(card['movements'] as unknown[]));
  for (const id of [demoSales.withInvoice, demoSales.withCredits]) {
    const sale = await get(`/v1/sales/${id}`);
    add('sale', sale);
    add('saleLine', ...(sale['items'] as unknown[]));
    add('saleCredit', ...((sale['paidWith'] as unknown[] | undefined) ?? []));
  }
  add('invoice', await get(`/v1/sales/${demoSales.withInvoice}/invoice`));
  add('sav', await get(`/v1/sav/${demoSav.inRepair}`), await get(`/v1/sav/${demoSav.ready}`));
  add('savLogEntry', ...data(await client.as(emails.all, `/v1/sav/${demoSav.closed}/log`)));
  for (const id of [demoCustomers.main, demoCustomers.company])
    add('customer', await get(`/v1/customers/${id}?include=contact,internalComments`));
  add(
    'credit',
    ...data(await client.as(emails.all, `/v1/customers/${demoCustomers.main}/credits`)),
  );
  const history = await get(`/v1/customers/${demoCustomers.main}/history`);
  add('customerHistory', history);
  for (const family of ['sales', 'orders', 'sav', 'credits'])
    add('historyEntry', ...((history[family] as unknown[] | undefined) ?? []));
  add('shop', ...data(await client.as(emails.all, '/v1/shops')));
  add('category', ...data(await client.as(emails.all, '/v1/categories')));
  add('productType', ...data(await client.as(emails.all, '/v1/product-types')));
  add('characteristic', ...data(await client.as(emails.all, '/v1/characteristics')));
});
afterAll(() => client.sandbox.close());

const fieldsOf = (kind: RecordKind) =>
  Object.entries(recordKinds[kind].fields) as [string, FieldSpec][];

describe('sandbox/dialects/alternate.profile.json', () => {
  test('covers every record kind with a real reply', () => {
    for (const kind of recordKindNames) expect(samples.get(kind)?.length, kind).toBeGreaterThan(0);
  });

  test.each(recordKindNames)('%s: every needed value resolves on every record', (kind) => {
    for (const record of samples.get(kind) ?? []) {
      for (const [field, spec] of fieldsOf(kind)) {
        if (!spec.needed) continue;
        const resolution = resolveField(record, locationOf(profile, kind, field), spec);
        expect(resolution.status, `${kind}.${field}`).toBe('found');
      }
      const view = resolveRecord(profile, kind, record);
      if (recordKinds[kind].identity !== 'none') expect(view.id, kind).toEqual(expect.any(String));
    }
  });

  test.each(recordKindNames)(
    '%s: every value the profile locates is found, with its type, in some record',
    (kind) => {
      for (const [field, spec] of fieldsOf(kind)) {
        const paths = locationOf(profile, kind, field);
        if (paths === null) continue;
        const found = (samples.get(kind) ?? []).some(
          (record) => resolveField(record, paths, spec).status === 'found',
        );
        expect(found, `${kind}.${field} at ${paths.join(' | ')}`).toBe(true);
      }
    },
  );

  test('its status words say what the kiosk needs to know', () => {
    const card = resolveRecord(profile, 'giftCard', samples.get('giftCard')?.[0]);
    expect(profile.statuses.giftCardDebitable).toContain(card['status']);
    expect(card['balance']).toBe(demoGiftCardBalances.active - 5);
    const kinds = (samples.get('credit') ?? []).map(
      (credit) => resolveRecord(profile, 'credit', credit)['type'],
    );
    expect(kinds.some((kind) => profile.statuses.creditIsGiftCard.includes(kind as string))).toBe(
      true,
    );
    const company = resolveRecord(profile, 'customer', samples.get('customer')?.[1]);
    expect(profile.statuses.customerIsCompany).toContain(company['customerType']);
  });

  test('the default profile does not find the gift card balance in the alternate dialect', () => {
    const record = samples.get('giftCard')?.[0];
    const spec = recordKinds.giftCard.fields.balance;
    expect(resolveField(record, locationOf(defaultProfile, 'giftCard', 'balance'), spec)).toEqual({
      status: 'missing',
      tried: ['balance'],
    });
    expect(resolveRecord(defaultProfile, 'giftCard', record)['balance']).toBeNull();
  });
});
