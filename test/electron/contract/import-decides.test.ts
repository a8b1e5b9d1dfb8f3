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
