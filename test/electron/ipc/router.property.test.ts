import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type MessageName,
  ipcErrorCodes,
  ipcMessages,
  messageNames,
} from '../../../shared/ipc/index.ts';
import { createIpcRouter, type KioskHandlers } from '../../../electron/ipc/router.ts';
import { validRequests } from '../../shared/ipc/samples.ts';
import { APP_ORIGIN, KIOSK_PAGE, type KioskFixture, startKioskFixture } from '../kiosk/support.ts';

/**
 * Thousands of hostile payloads per channel, against the real services (real sandbox, real
 * SQLite) behind counters: every one gets IPC_INVALID_REQUEST, no handler runs, the sandbox sees
 * no request, and nothing is polluted or crashes.
 */

const RUNS_PER_CHANNEL = 1_000;

const POLLUTION_KEYS = ['__proto__', 'constructor', 'prototype', '__defineGetter__', 'toString'];

/** Values of every JSON kind, nested, including giant strings and numbers of every shape. */
const junk: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.constant(null),
    fc.boolean(),
    fc.double(),
    fc.integer(),
    fc.constantFrom(Number.NaN, Infinity, -Infinity, -0, 2 ** 53, -1, 0),
    fc.string(),
    fc.string({ unit: 'binary', maxLength: 50 }),
    fc.constantFrom('', ' ', '\u0000', '../../etc/passwd', '<script>', 'a'.repeat(100_000)),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.oneof(fc.string(), fc.constantFrom(...POLLUTION_KEYS)), tie('value'), {
      maxKeys: 4,
    }),
  ),
})).value;

/** A key the (closed) request schemas do not have: a payload carrying one is always invalid. */
const foreignKey = fc.oneof(
  fc.constantFrom(...POLLUTION_KEYS),
  fc.string({ minLength: 1, maxLength: 20 }),
);

function hostilePayloads(name: MessageName): fc.Arbitrary<unknown> {
  const base = validRequests[name] as Record<string, unknown>;
  const fields = Object.keys(base);
  const known = new Set(
    Object.keys((ipcMessages[name].request as unknown as { shape?: object }).shape ?? {}),
  );
  const extraKey = foreignKey.filter((key) => !known.has(key));
  return fc.oneof(
    // Not an object at all.
    fc.oneof(
      fc.constant(null),
      fc.constant(undefined),
      fc.string(),
      fc.double(),
      fc.boolean(),
      fc.array(junk),
    ),
    // The valid request plus a foreign key (own property, as JSON.parse makes `__proto__`).
    fc.tuple(extraKey, junk).map(([key, value]) => {
      const payload = JSON.parse(JSON.stringify(base)) as Record<string, unknown>;
      Object.defineProperty(payload, key, {
        value,
        enumerable: true,
        configurable: true,
        writable: true,
      });
      return payload;
    }),
    // Every field of the valid request replaced by junk of another type, plus a foreign key so
    // the payload is invalid even when the junk happens to fit.
    fc
      .tuple(extraKey, fc.array(junk, { minLength: fields.length, maxLength: fields.length }))
      .map(([key, values]) => {
        const payload: Record<string, unknown> = Object.fromEntries(
          fields.map((field, index) => [field, values[index]]),
        );
        Object.defineProperty(payload, key, {
          value: 1,
          enumerable: true,
          configurable: true,
          writable: true,
        });
        return payload;
      }),
    // Raw JSON text with prototype-pollution keys, parsed as a transport would.
    fc
      .constantFrom(...POLLUTION_KEYS)
      .map((key) => JSON.parse(`{"${key}": {"polluted": true}, "${fields[0] ?? 'x'}": 1}`)),
  );
}

describe('the IPC router under hostile payloads (real services)', () => {
  let fixture: KioskFixture;
  const calls = new Map<MessageName, number>();

  beforeAll(async () => {
    fixture = await startKioskFixture();
  }, 60_000);
  afterAll(async () => {
    await fixture?.close();
  });

  it.each(messageNames)(
    '%s: every hostile payload gets a typed validation error and reaches no service',
    async (name) => {
      // The real handlers behind counters: a handler that runs is a service reached.
      const counted = Object.fromEntries(
        messageNames.map((message) => [
          message,
          (request: unknown) => {
            calls.set(message, (calls.get(message) ?? 0) + 1);
            return (fixture.services.handlers[message] as (request: unknown) => unknown)(request);
          },
        ]),
      ) as unknown as KioskHandlers;
      let pinChecks = 0;
      const router = createIpcRouter({
        handlers: counted,
        allowedOrigins: [APP_ORIGIN],
        adminGuard: {
          verify: (pin) => {
            pinChecks += 1;
            fixture.services.adminGuard.verify(pin);
          },
        },
      });
      const requestsBefore = fixture.requestCount();

      await fc.assert(
        fc.asyncProperty(hostilePayloads(name), async (payload) => {
          const result = await router.handle(ipcMessages[name].channel, payload, KIOSK_PAGE);
          expect(result.ok).toBe(false);
          if (result.ok) return;
          expect(result.error.code).toBe(ipcErrorCodes.invalidRequest);
          expect(typeof result.error.message).toBe('string');
          expect(result.error.message.length).toBeLessThanOrEqual(1_000);
          // The reply is plain data: it survives JSON (both transports) unchanged.
          expect(JSON.parse(JSON.stringify(result))).toEqual(result);
        }),
        { numRuns: RUNS_PER_CHANNEL },
      );

      expect(calls.get(name) ?? 0).toBe(0);
      expect(pinChecks).toBe(0);
      expect(fixture.requestCount()).toBe(requestsBefore);
      expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
      expect(Object.prototype).not.toHaveProperty('polluted');
    },
    60_000,
  );

  it('no handler at all ran during the hostile runs, and the outbox is empty', () => {
    expect([...calls.values()].reduce((sum, count) => sum + count, 0)).toBe(0);
    expect(fixture.services.parts.outbox.summary().openCount).toBe(0);
  });
});

describe('the IPC router under any payload (counting handlers)', () => {
  it('calls a handler exactly when the payload matches the schema, never throws', async () => {
    let called = 0;
    const handlers = Object.fromEntries(
      messageNames.map((message) => [
        message,
        () => {
          called += 1;
          throw new Error('stub: reached');
        },
      ]),
    ) as unknown as KioskHandlers;
    const router = createIpcRouter({
      handlers,
      allowedOrigins: [APP_ORIGIN],
      adminGuard: { verify: () => undefined },
    });
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...messageNames), junk, async (name, payload) => {
        const before = called;
        const valid = ipcMessages[name].request.safeParse(payload).success;
        const result = await router.handle(ipcMessages[name].channel, payload, KIOSK_PAGE);
        expect(result.ok).toBe(false);
        if (result.ok) return;
        if (valid) {
          expect(called).toBe(before + 1);
          expect(result.error.code).toBe(ipcErrorCodes.internal);
        } else {
          expect(called).toBe(before);
          expect(result.error.code).toBe(ipcErrorCodes.invalidRequest);
        }
      }),
      { numRuns: 3_000 },
    );
  });

  it('refuses unknown channels and foreign senders before looking at the payload', async () => {
    let called = 0;
    const handlers = Object.fromEntries(
      messageNames.map((message) => [message, () => (called += 1)]),
    ) as unknown as KioskHandlers;
    const router = createIpcRouter({
      handlers,
      allowedOrigins: [APP_ORIGIN],
      adminGuard: { verify: () => undefined },
    });
    await fc.assert(
      fc.asyncProperty(fc.string(), junk, async (channel, payload) => {
        fc.pre(!messageNames.some((name) => ipcMessages[name].channel === channel));
        const result = await router.handle(channel, payload, KIOSK_PAGE);
        expect(result).toMatchObject({ ok: false, error: { code: ipcErrorCodes.unknownChannel } });
      }),
      { numRuns: 1_000 },
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...messageNames),
        fc.oneof(
          fc.webUrl(),
          fc.constantFrom(
            'commerce-kiosk://evil/index.html',
            'app://kiosk/index.html',
            'commerce-kiosk://kiosk.evil/x',
            'file:///etc/passwd',
            'null',
            '',
          ),
        ),
        fc.boolean(),
        async (name, frameUrl, isMainFrame) => {
          const result = await router.handle(ipcMessages[name].channel, validRequests[name], {
            frameUrl,
            isMainFrame,
          });
          expect(result).toMatchObject({
            ok: false,
            error: { code: ipcErrorCodes.forbiddenSender },
          });
        },
      ),
      { numRuns: 1_000 },
    );
    expect(called).toBe(0);
  });
});
