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

describe('contract import: a closed record fills its fields from what no other field claims', () => {
  const reply = (schema: unknown) => ({
    get: { responses: { '200': { content: { 'application/json': { schema } } } } },
  });
  const closed = (properties: Record<string, unknown>) => ({
    type: 'object',
    additionalProperties: false,
    properties,
  });
  const money = { type: 'number' };
  const derive = async (paths: Record<string, unknown>, components: unknown = {}) => {
    const file = join(mkdtempSync(join(tmpdir(), 'kiosk-import-')), 'closed.openapi.json');
    writeFileSync(
      file,
      JSON.stringify({ openapi: '3.0.3', info: { title: 'T', version: '1' }, paths, components }),
    );
    return importContract(file, defaultProfile);
  };

  test('money is never taken by elimination: an unclaimed amount no name points at is "?"', async () => {
    const { profile, undecided, guessed } = await derive({
      '/v1/customers/{customerId}/credits': reply({
        type: 'object',
        properties: {
          data: { type: 'array', items: closed({ id: { type: 'string' }, rest: money }) },
        },
      }),
      '/v1/sales/{saleId}/invoice': reply(
        closed({ id: { type: 'string' }, ref: { type: 'string' } }),
      ),
    });
    expect(profile.records.credit).toMatchObject({ remainingAmount: '?' });
    expect(undecided).toContain('credit.remainingAmount');
    expect(guessed).not.toContain('credit.remainingAmount');
    // No unclaimed amount at all: the document says the service sends none.
    expect(profile.records.invoice).toMatchObject({ number: 'ref', total: null });
  });

  test("a property's own description decides; a shared component's description does not", async () => {
    const components = {
      schemas: { Money: { type: 'number', description: 'The total, in euros.' } },
    };
    const { profile } = await derive(
      {
        '/v1/sales/{saleId}': reply(
          closed({
            uuid: { type: 'string' },
            number: { type: 'string' },
            due: {
              allOf: [{ $ref: '#/components/schemas/Money' }],
              description: 'What is still to pay.',
            },
            paid: { $ref: '#/components/schemas/Money' },
          }),
        ),
      },
      components,
    );
    // `due` is a synonym of remainingToPay and described so; `paid` carries Money's description
    // ("The total"), which says what the type is, not which amount: it is the amount paid.
    expect(profile.records.sale).toMatchObject({
      remainingToPay: 'due',
      amountPaid: 'paid',
      total: null,
    });
  });

  test('a text is not filled with a date-time, nor a status word; several open texts take nothing unless one is needed', async () => {
    const { profile, guessed } = await derive({
      '/v1/sav/{savId}': reply(
        closed({
          uuid: { type: 'string' },
          dossier: { type: 'string' },
          opened: { type: 'string', format: 'date-time' },
          phase: { type: 'string', enum: ['open', 'closed'] },
        }),
      ),
    });
    // number is needed: it takes the only plain string; itemLabel and issue are left with none.
    expect(profile.records.sav).toMatchObject({
      number: 'dossier',
      createdAt: 'opened',
      status: null,
      itemLabel: null,
      issue: null,
    });
    // `opened` abbreviates the synonym openedAt: named, not guessed.
    expect(guessed).toEqual(['sav.number']);
  });

  test('the kinds inside a list the record does not have are null; an undescribed route\'s stay "?"', async () => {
    const { profile, undecided } = await derive({
      '/v1/gift-cards/{giftCardId}': reply(
        closed({ id: { type: 'string' }, state: { type: 'string' }, balance: money }),
      ),
    });
    expect(profile.records.giftCard).toMatchObject({ usages: null });
    expect(profile.records.giftCardUsage).toEqual({ reference: null, amount: null, at: null });
    // The sale's route is not in the document: nothing decides its fields, or its lines'.
    expect(profile.records.sale).toMatchObject({ number: '?', total: '?', lines: '?' });
    expect(profile.records.saleLine).toEqual({ label: '?', quantity: '?', total: '?' });
    expect(undecided).toEqual(expect.arrayContaining(['sale.number', 'saleLine.label']));
    expect(undecided).not.toContain('giftCardUsage.reference');
  });
});
