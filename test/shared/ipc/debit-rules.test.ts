import { describe, expect, it } from 'vitest';
import { DebitAmount, DebitReference, GiftCardDebit } from '../../../shared/api/gift-cards.ts';
import { Id, IdFilter, Text } from '../../../shared/api/primitives.ts';
import { RecordId } from '../../../shared/ipc/common.ts';
import {
  CallerDebitReference,
  DebitGiftCardRequest,
  DebitReply,
  GiftCardLookup,
  MAX_DEBIT_REFERENCE_LENGTH,
} from '../../../shared/ipc/gift-cards.ts';

/** The rules every door shares: ids, a debit's reference and its amount. */

describe('ids', () => {
  it.each([Id, IdFilter, RecordId])('refuse a lone surrogate, high or low (%#)', (schema) => {
    expect(schema.safeParse('gift_card_1').success).toBe(true);
    expect(schema.safeParse('gift_card_\ud800').success).toBe(false);
    expect(schema.safeParse('\udc00gift_card').success).toBe(false);
    // A whole pair is a character like any other.
    expect(schema.safeParse('gift_card_\ud83d\ude00').success).toBe(true);
  });

  it('a record id has no spaces around it and at most 64 characters', () => {
    expect(RecordId.safeParse(' gift_card_1').success).toBe(false);
    expect(RecordId.safeParse('gift_card_1\n').success).toBe(false);
    expect(RecordId.safeParse('x'.repeat(64)).success).toBe(true);
    expect(RecordId.safeParse('x'.repeat(65)).success).toBe(false);
  });

  it('Text keeps its check under further rules', () => {
    expect(Text.max(5).safeParse('ab\ud800').success).toBe(false);
    expect(Text.max(5).safeParse('abcdef').success).toBe(false);
  });
});

describe('a debit reference', () => {
  it.each(['till-3', 'Sale #42 / 3:1', 'a_b.c', 'x'.repeat(MAX_DEBIT_REFERENCE_LENGTH)])(
    'accepts %j',
    (reference) => {
      expect(CallerDebitReference.parse(reference)).toBe(reference);
    },
  );

  it('trims the spaces around it, then applies the rule', () => {
    expect(CallerDebitReference.parse('  till-3 ')).toBe('till-3');
    expect(CallerDebitReference.safeParse('   ').success).toBe(false);
  });

  it.each([
    'a\nb',
    'a\rb',
    'a\tb',
    'ann@example.com',
    'caf\u00e9',
    'till-3\ud800',
    'x'.repeat(MAX_DEBIT_REFERENCE_LENGTH + 1),
    '',
  ])('refuses %j', (reference) => {
    expect(CallerDebitReference.safeParse(reference).success).toBe(false);
  });

  it('is the rule of the IPC message, and of the body the service receives', () => {
    const request = {
      requestId: '5f0c1f2e-8a3b-4c6d-9e7f-0a1b2c3d4e5f',
      giftCardId: 'gift_card_1',
      amount: 1,
      policy: 'prefer_online',
    } as const;
    expect(DebitGiftCardRequest.safeParse({ ...request, reference: 'a\nb' }).success).toBe(false);
    expect(DebitGiftCardRequest.parse({ ...request, reference: ' r1 ' }).reference).toBe('r1');
    expect(DebitReference.safeParse('r1/0123456789abcdef').success).toBe(true);
    expect(
      GiftCardDebit.safeParse({ amount: 1, currency: 'EUR', reference: 'ann@example.com' }).success,
    ).toBe(false);
    expect(DebitReference.safeParse('x'.repeat(65)).success).toBe(false);
  });
});

describe('a debit amount', () => {
  it.each([0.01, 1, 12.5, 100_000, 0.1 + 0.2])('accepts %s', (amount) => {
    expect(DebitAmount.safeParse(amount).success).toBe(true);
  });

  it.each([0, -1, 1.234, 100_000.01, Number.NaN, Number.POSITIVE_INFINITY])(
    'refuses %s',
    (amount) => {
      expect(DebitAmount.safeParse(amount).success).toBe(false);
    },
  );

  it('is the rule of the IPC message', () => {
    expect(DebitGiftCardRequest.shape.amount).toBe(DebitAmount);
  });
});

describe('a gift card look-up', () => {
  const view = {
    id: 'gift_card_1',
    otherFields: [{ name: 'brand', value: 'Noël' }],
    maskedNumber: null,
    status: 'ACTIVE',
    balance: 25.5,
    currency: null,
    expiresOn: null,
    usages: null,
  };

  it('from the service: the card read through the profile, with whether it may be debited', () => {
    expect(GiftCardLookup.parse({ ...view, source: 'service', debitable: true })).toMatchObject({
      source: 'service',
      balance: 25.5,
    });
    expect(GiftCardLookup.safeParse({ ...view, source: 'service' }).success).toBe(false);
    expect(
      GiftCardLookup.safeParse({ ...view, source: 'service', id: null, debitable: null }).success,
    ).toBe(false);
    // A field of the service's own is in otherFields, never beside the view's.
    expect(
      GiftCardLookup.safeParse({ ...view, source: 'service', debitable: true, brand: 'x' }).success,
    ).toBe(false);
  });

  it('from the cache: the last read, with whether it may be debited', () => {
    const cached = {
      source: 'cache',
      id: 'gift_card_1',
      maskedNumber: null,
      status: null,
      balance: null,
      expiresOn: null,
      asOf: null,
      debitable: null,
    };
    expect(GiftCardLookup.parse(cached)).toEqual(cached);
    expect(GiftCardLookup.safeParse({ ...cached, debitable: undefined }).success).toBe(false);
  });
});

describe("a debit's reply", () => {
  it("is a view of the receipt or of the usage, never the service's own shape", () => {
    expect(
      DebitReply.parse({ kind: 'receipt', receipt: { id: null, otherFields: [], balance: 12 } }),
    ).toMatchObject({ receipt: { balance: 12 } });
    expect(
      DebitReply.safeParse({
        kind: 'usage',
        usage: { id: null, otherFields: [], reference: 'kiosk/1', amount: 2, at: null },
      }).success,
    ).toBe(true);
    expect(
      DebitReply.safeParse({ kind: 'receipt', receipt: { id: 'r1', balance: 12, amount: 2 } })
        .success,
    ).toBe(false);
  });
});
