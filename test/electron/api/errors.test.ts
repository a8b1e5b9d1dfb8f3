import { describe, expect, test } from 'vitest';
import { errorBody } from '../../../shared/api/errors.ts';
import {
  Conflict,
  ContractViolation,
  Forbidden,
  InternalError,
  InvalidRequest,
  NotFound,
  RateLimited,
  ServiceUnavailable,
  Unauthorized,
  errorFromReply,
  formatIssuePath,
} from '../../../electron/api/errors.ts';

const now = Date.parse('2025-06-01T09:00:00Z');
const json = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));
const reply = (status: number, body: Uint8Array, headers: Record<string, string> = {}) =>
  errorFromReply({ operationId: 'getProduct', status, headers, body, now });

describe('error mapping', () => {
  test('each status of the table maps to its class with the stable code parsed from the message', () => {
    const cases = [
      [400, 'INVALID_REQUEST', InvalidRequest],
      [401, 'UNAUTHORIZED', Unauthorized],
      [403, 'FORBIDDEN', Forbidden],
      [404, 'RESOURCE_NOT_FOUND', NotFound],
      [409, 'CONFLICT', Conflict],
      [429, 'RATE_LIMITED', RateLimited],
      [500, 'INTERNAL_SERVER_ERROR', InternalError],
      [503, 'SERVICE_UNAVAILABLE', ServiceUnavailable],
    ] as const;
    for (const [status, code, Class] of cases) {
      const error = reply(status, json(errorBody(code, 'something happened')));
      expect(error).toBeInstanceOf(Class);
      expect(error.code).toBe(code);
      expect(error.status).toBe(status);
      expect(error.explanation).toBe('something happened');
      expect(error.operationId).toBe('getProduct');
      expect(error.message).toBe(`${code}: something happened`);
    }
  });

  test('a business code other than the eight is kept; without one the table code is used', () => {
    const business = reply(
      409,
      json({ message: 'GIFT_CARD_INSUFFICIENT_BALANCE: balance is 3.00 EUR', statusCode: 409 }),
    );
    expect(business).toBeInstanceOf(Conflict);
    expect(business.code).toBe('GIFT_CARD_INSUFFICIENT_BALANCE');
    expect(business.explanation).toBe('balance is 3.00 EUR');

    const plain = reply(404, json({ message: 'no such thing' }));
    expect(plain.code).toBe('RESOURCE_NOT_FOUND');
    expect(plain.explanation).toBe('no such thing');
  });

  test('a body that is not an error object (proxy HTML, nothing) still gives the class of its status', () => {
    const html = reply(502, new TextEncoder().encode('<html>Bad gateway</html>'));
    expect(html).toBeInstanceOf(ServiceUnavailable);
    expect(html.code).toBe('SERVICE_UNAVAILABLE');
    const empty = reply(500, new Uint8Array());
    expect(empty).toBeInstanceOf(InternalError);
    expect(empty.explanation).toMatch(/without an error body/);
    expect(reply(418, new Uint8Array())).toBeInstanceOf(InvalidRequest);
    expect(reply(302, new Uint8Array())).toBeInstanceOf(ContractViolation);
  });

  test('Forbidden carries missingScopes; RateLimited carries retryAfterMs', () => {
    const forbidden = reply(
      403,
      json(errorBody('FORBIDDEN', 'missing scopes', { missingScopes: ['stock:read'] })),
    );
    expect(forbidden).toBeInstanceOf(Forbidden);
    expect((forbidden as Forbidden).missingScopes).toEqual(['stock:read']);

    const limited = reply(429, json(errorBody('RATE_LIMITED', 'slow down')), {
      'retry-after': '3',
    });
    expect((limited as RateLimited).retryAfterMs).toBe(3_000);
    const dated = reply(429, json(errorBody('RATE_LIMITED', 'slow down')), {
      'retry-after': 'Sun, 01 Jun 2025 09:00:05 GMT',
    });
    expect((dated as RateLimited).retryAfterMs).toBe(5_000);
  });

  test('errors serialise to plain data with a discriminating kind', () => {
    const forbidden = reply(
      403,
      json(errorBody('FORBIDDEN', 'nope', { missingScopes: ['sales:read'] })),
    );
    const wire = JSON.parse(JSON.stringify(forbidden)) as Record<string, unknown>;
    expect(wire).toEqual({
      kind: 'Forbidden',
      code: 'FORBIDDEN',
      status: 403,
      message: 'FORBIDDEN: nope',
      explanation: 'nope',
      operationId: 'getProduct',
      missingScopes: ['sales:read'],
    });
    expect(forbidden.name).toBe('Forbidden');
  });

  test('issue paths read like property accesses', () => {
    expect(formatIssuePath(['data', 3, 'items', 0, 'price'])).toBe('data[3].items[0].price');
    expect(formatIssuePath(['limit'], 'query')).toBe('query.limit');
    expect(formatIssuePath([])).toBe('');
  });
});
