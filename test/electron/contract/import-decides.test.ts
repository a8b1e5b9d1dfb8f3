import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { importContract } from '../../../electron/contract/index.ts';
import { defaultProfile } from '../../../shared/profile/index.ts';

/**
 * `contract import` decides what the document decides (issue 33 part 4): a closed record's absent
 * field is null, an open one's stays "?"; `allOf`, `oneOf` and `$ref` chains are followed down to
 * scalars; the profile is named from `info.title` and `info.version`.
 */

const fixture = new URL('./fixtures/closed-vendor.openapi.json', import.meta.url).pathname;

describe('contract import on a document with closed schemas and allOf-wrapped scalars', () => {
  test('decides null, paths through allOf/$ref/oneOf, and the name', async () => {
    const { profile, undecided } = await importContract(fixture, defaultProfile);
    expect(profile.name).toBe('Acme Commerce v2.3.0');
    // Closed: what the schema does not have is not provided.
    expect(profile.records.giftCard).toMatchObject({
      balance: 'balance',
      status: 'status',
      maskedNumber: null,
      expiresOn: null,
      usages: null,
    });
    expect(profile.records.debitReceipt).toMatchObject({ id: 'id', balance: 'balance' });
    expect(undecided.filter((name) => name.startsWith('giftCard.'))).toEqual([]);
    // Open: described in part, so what it does not list stays for a person.
    expect(profile.records.sale).toMatchObject({ number: 'number', status: '?' });
    expect(undecided).toContain('sale.status');
    // The debit amount is an allOf around a $ref to a number; the reference a oneOf of strings.
    expect(profile.giftCardDebit.body).toEqual({
      amount: 'amount',
      currency: null,
      reference: 'reference',
      shopId: null,
    });
  });
});

describe('contract import: parameters from what the document declares', () => {
  const query = (name: string, schema: unknown = { type: 'string' }) => ({
    name,
    in: 'query',
    schema,
  });
  const document = {
    openapi: '3.0.3',
    info: { title: 'Strict Shop', version: '1' },
    paths: {
      '/v1/customers/search': {
        get: { parameters: [query('email'), query('matchMode'), query('surname'), query('zip')] },
      },
      '/v1/customers/{customerId}': { get: { parameters: [] } },
      '/v1/customers/{customerId}/history': {
        get: {
          parameters: [
            query('include', { type: 'array', items: { type: 'string', enum: ['sales', 'sav'] } }),
          ],
        },
      },
      '/v1/gift-cards/{giftCardId}': {
        get: { parameters: [query('include', { type: 'string', enum: ['customer', 'usages'] })] },
      },
      '/v1/shops': { get: { parameters: [] } },
      '/v1/sales': {
        get: {
          parameters: [query('page', { type: 'integer' }), query('limit', { type: 'integer' })],
        },
      },
    },
  };

  test('criteria, include values and paging as declared; an undescribed list stays "?"', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'kiosk-import-')), 'strict.openapi.json');
    writeFileSync(file, JSON.stringify(document));
    const { profile, undecided } = await importContract(file, defaultProfile);
    expect(profile.parameters.customerSearch).toEqual({
      lastName: 'surname',
      firstName: null,
      phone: null,
      postalCode: 'zip',
    });
    // Declared without `include`: the service takes none.
    expect(profile.parameters.customerContact).toBeNull();
    expect(profile.parameters.customerHistory).toEqual({
      name: 'include',
      families: { sales: 'sales', orders: null, sav: 'sav', credits: null },
    });
    expect(profile.parameters.giftCardUsages).toEqual({ name: 'include', value: 'usages' });
    // Declared without paging: unpaged. Declared with it: paged. Not described: "?", not unpaged.
    expect(profile.parameters.page).toBe('page');
    expect(profile.parameters.unpaged).toContain('listShops');
    expect(profile.parameters.unpaged).not.toContain('listSales');
    expect(profile.parameters.unpaged).not.toContain('listCategories');
    expect(undecided).toContain('parameters.unpaged: listCategories');
    expect(undecided).not.toContain('parameters.unpaged: listShops');
  });
});
