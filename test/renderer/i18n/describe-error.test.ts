import { expect, test } from 'vitest';
import { describeError, refusalText } from '../../../renderer/i18n/describe-error.ts';
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

test('a refusal from another service: the words for its code, then the service’s own explanation', () => {
  // A 409 CONFLICT whose explanation is the real reason.
  expect(refusalText({ code: 'CONFLICT', message: 'CONFLICT: insufficient balance' }, t)).toBe(
    'The service refused the operation. The service says: “insufficient balance”.',
  );
  // A 404: no raw code on the French screen, the explanation kept as the service said it.
  expect(
    refusalText(
      { code: 'RESOURCE_NOT_FOUND', message: 'RESOURCE_NOT_FOUND: gift card not found.' },
      french.t,
    ),
  ).toBe('Le service ne connaît pas cette carte. Le service indique : « gift card not found ».');
  // A code the kiosk has no words for is still a refusal, named; a body-less reply adds nothing.
  expect(
    refusalText({ code: 'CARD_BLOCKED', message: 'CARD_BLOCKED: blocked by the bank' }, t),
  ).toBe('The service refused it (code CARD_BLOCKED). The service says: “blocked by the bank”.');
  expect(
    refusalText({ code: 'CONFLICT', message: 'CONFLICT: HTTP 409 without an error body' }, t),
  ).toBe('The service refused the operation.');
  // A message not in the spec's form is not shown as the service's words.
  expect(refusalText({ code: 'CONFLICT', message: 'socket closed' }, t)).toBe(
    'The service refused the operation.',
  );
});

test('a service error on any screen keeps the service’s explanation after the kiosk’s words', () => {
  const text = describeError(
    {
      code: 'RESOURCE_NOT_FOUND',
      message: 'RESOURCE_NOT_FOUND: sale not found',
      details: { kind: 'NotFound', status: 404 },
    },
    french.t,
    french.fmt,
  );
  expect(text.title).toBe(french.t('error.notFound'));
  expect(text.detail).toBe('Le service indique : « sale not found ».');
  // The kiosk's own errors never pass their English message off as the service's.
  expect(
    describeError({ code: 'OUTBOX_NOT_FOUND', message: 'OUTBOX_NOT_FOUND: no debit' }, t, fmt)
      .detail,
  ).toBeNull();
});
