import { expect, test } from 'vitest';
import { describeError } from '../../../renderer/i18n/describe-error.ts';
import { i18nFor } from '../../../renderer/i18n/use-i18n.ts';

const { t, fmt } = i18nFor('en');
const french = i18nFor('fr');

test('a 403 names the permission the account lacks, in plain words', () => {
  const text = describeError(
    {
      code: 'FORBIDDEN',
      message: 'FORBIDDEN: missing scope',
      details: {
        kind: 'Forbidden',
        status: 403,
        missingScopes: ['customers:read', 'customers:pii:read'],
      },
    },
    t,
    fmt,
  );
  expect(text.title).toBe('The kiosk’s account is not allowed to do this.');
  expect(text.detail).toBe(
    'It lacks the permission to read customers (customers:read), read customers’ contact details (customers:pii:read). An administrator can add it to the integration account.',
  );
  expect(describeError({ code: 'FORBIDDEN', message: '' }, french.t, french.fmt).detail).toContain(
    'Un droit manque',
  );
});

test('offline says what still works', () => {
  const text = describeError({ code: 'NETWORK_ERROR', message: 'socket hang up' }, t, fmt);
  expect(text.offline).toBe(true);
  expect(text.detail).toContain('Still working: product availability from the local catalogue');
  expect(
    describeError({ code: 'X', message: '', details: { kind: 'Timeout' } }, t, fmt).offline,
  ).toBe(true);
});

test('an offline limit says which limit and how much', () => {
  const text = describeError(
    {
      code: 'OUTBOX_LIMIT_EXCEEDED',
      message: '',
      details: {
        breach: {
          limit: 'maxOfflineDebitAmount',
          allowed: 150,
          wouldBe: 200,
          excess: 50,
          unit: 'EUR',
        },
      },
    },
    t,
    fmt,
  );
  expect(text.detail).toBe(
    'The limit is the largest debit accepted offline: €150.00. Ask for another payment method.',
  );
});

test('printing problems and unknown codes', () => {
  expect(describeError({ code: 'PRINT_OUT_OF_PAPER', message: '' }, t, fmt).title).toBe(
    'The printer is out of paper.',
  );
  const unknown = describeError({ code: 'SOMETHING_NEW', message: 'whatever' }, t, fmt);
  expect(unknown.title).toBe('Something went wrong.');
  expect(unknown.detail).toBe('Code: SOMETHING_NEW');
});
