import { describe, expect, test } from 'vitest';
import {
  REDACTED,
  createRedactingLogger,
  redact,
} from '../../../electron/logging/redacting-logger.ts';

describe('redacting logger', () => {
  test('sensitive keys are replaced at any depth', () => {
    expect(
      redact({
        headers: { Authorization: 'Bearer abc', accept: 'application/json' },
        body: { email: 'jane@example.test', password: 'hunter2', amount: 3 },
        customer: { contact: { phone: '0612345678' }, uuid: 'customer_1' },
        accessToken: 'x',
      }),
    ).toEqual({
      headers: { Authorization: REDACTED, accept: 'application/json' },
      body: { email: REDACTED, password: REDACTED, amount: 3 },
      customer: { contact: REDACTED, uuid: 'customer_1' },
      accessToken: REDACTED,
    });
  });

  test('secrets and contact data inside free text are scrubbed; dates and ids are kept', () => {
    const text = redact(
      'user jane.doe+kiosk@example.test called +33 6 12 34 56 78 with eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.sig at 2025-06-01T09:00:00Z for customer_42',
    );
    expect(text).toBe(
      `user ${REDACTED} called ${REDACTED} with ${REDACTED} at 2025-06-01T09:00:00Z for customer_42`,
    );
    expect(redact('Authorization: Bearer abc.def')).toBe(`Authorization: Bearer ${REDACTED}`);
  });

  test('errors keep their message only; cycles and buffers do not break a record', () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic['self'] = cyclic;
    const error = Object.assign(new Error('boom for x@y.test'), {
      config: { headers: { Authorization: 'Bearer t' } },
    });
    expect(redact({ error, cyclic, bytes: new Uint8Array(3) })).toEqual({
      error: { name: 'Error', message: `boom for ${REDACTED}` },
      cyclic: { a: 1, self: '[truncated]' },
      bytes: '[3 bytes]',
    });
  });

  test('writes one JSON line per record at or above the level', () => {
    const lines: string[] = [];
    const logger = createRedactingLogger({
      sink: (line) => lines.push(line),
      level: 'info',
      now: () => 0,
      base: { component: 'api' },
    });
    logger.debug('hidden');
    logger.info('api.exchange', { status: 200, password: 'p' });
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toEqual({
      time: '1970-01-01T00:00:00.000Z',
      level: 'info',
      event: 'api.exchange',
      component: 'api',
      status: 200,
      password: REDACTED,
    });
  });
});

describe('the logger never throws into the program', () => {
  test('a sink that throws loses its line, nothing else', () => {
    const logger = createRedactingLogger({
      sink: () => {
        throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
      },
    });
    expect(() => logger.error('x.failed', { n: 1 })).not.toThrow();
  });

  test('fields that throw when read still give a record', () => {
    const lines: string[] = [];
    const logger = createRedactingLogger({ sink: (line) => lines.push(line), now: () => 0 });
    const hostile = {
      get boom(): never {
        throw new Error('getter');
      },
    };
    logger.warn('x.odd', { hostile });
    expect(JSON.parse(lines[0]!)).toEqual({
      time: '1970-01-01T00:00:00.000Z',
      level: 'warn',
      event: 'x.odd',
      unserializable: true,
    });
  });
});
