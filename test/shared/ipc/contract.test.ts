import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import {
  type KioskApi,
  IPC_EVENT_PREFIX,
  IPC_PREFIX,
  IpcError,
  eventNames,
  ipcEvents,
  ipcMessages,
  ipcResultOf,
  listenerNameOf,
  messageByChannel,
  messageNames,
} from '../../../shared/ipc/index.ts';
import { validRequests } from './samples.ts';
import { schemaKeys } from './schema-keys.ts';

/** Keys that would carry a secret to the renderer. */
const SECRET_KEY = /password|passwd|token|jwt|secret|api[-_]?key|idempotency/i;

describe('the IPC contract', () => {
  it('gives every message its own channel under the kiosk prefix', () => {
    const channels = messageNames.map((name) => ipcMessages[name].channel);
    expect(new Set(channels).size).toBe(channels.length);
    for (const name of messageNames) {
      expect(ipcMessages[name].channel).toBe(`${IPC_PREFIX}${name}`);
      expect(ipcMessages[name].channel.startsWith(IPC_EVENT_PREFIX)).toBe(false);
      expect(messageByChannel(ipcMessages[name].channel)).toBe(name);
    }
    expect(messageByChannel('kiosk:toString')).toBeUndefined();
    expect(messageByChannel('kiosk:__proto__')).toBeUndefined();
  });

  it('gives every event its own channel under the event prefix', () => {
    const channels = eventNames.map((name) => ipcEvents[name].channel);
    expect(new Set(channels).size).toBe(channels.length);
    for (const channel of channels) expect(channel.startsWith(IPC_EVENT_PREFIX)).toBe(true);
  });

  it('covers every group the kiosk needs', () => {
    const groups = new Set(messageNames.map((name) => ipcMessages[name].group));
    expect([...groups].sort()).toEqual(
      [
        'catalog',
        'customers',
        'gift-cards',
        'printing',
        'sales',
        'sav',
        'settings',
        'status',
      ].sort(),
    );
    expect(eventNames.sort()).toEqual(
      ['connectivityChanged', 'outboxChanged', 'printJobChanged', 'syncProgress'].sort(),
    );
  });

  it.each(messageNames)('%s: the sample request is valid', (name) => {
    const result = ipcMessages[name].request.safeParse(validRequests[name]);
    expect(result.error?.issues ?? []).toEqual([]);
  });

  it.each(messageNames)('%s: the request schema is closed (extra keys are refused)', (name) => {
    for (const key of ['__proto__', 'constructor', 'prototype', 'extra']) {
      const payload = JSON.parse(
        JSON.stringify({ ...validRequests[name] })
          .replace(/^\{/, `{"${key}":{"polluted":true},`)
          .replace(/,\}$/, '}'),
      ) as unknown;
      expect(Object.hasOwn(payload as object, key)).toBe(true);
      expect(ipcMessages[name].request.safeParse(payload).success).toBe(false);
    }
  });

  it('marks exactly the settings and credential writes as administrator messages', () => {
    const admin = messageNames.filter((name) => ipcMessages[name].admin);
    expect(admin.sort()).toEqual(['setCredentials', 'updateSettings']);
    for (const name of admin) expect(schemaKeys(ipcMessages[name].request)).toContain('adminPin');
  });

  it('searches customers by the exact e-mail or any other criterion, at least one', () => {
    const schema = ipcMessages.searchCustomers.request;
    expect(schema.safeParse({ email: 'a@example.com' }).success).toBe(true);
    expect(schema.safeParse({ email: 'a@example.com', postalCode: '69003' }).success).toBe(true);
    expect(
      schema.safeParse({ email: 'a@example.com', lastName: 'Moreau', firstName: 'Julien' }).success,
    ).toBe(true);
    // By a name alone (main refuses it when the service takes no name: the handler's test).
    expect(schema.safeParse({ lastName: 'Moreau' }).success).toBe(true);
    // Never without a criterion, never a partial address, never an empty criterion.
    expect(schema.safeParse({}).success).toBe(false);
    expect(schema.safeParse({ limit: 20 }).success).toBe(false);
    expect(schema.safeParse({ email: 'moreau' }).success).toBe(false);
    expect(schema.safeParse({ email: 'a@example.com', firstName: '   ' }).success).toBe(false);
  });

  it('settings changes: an http(s) base URL or the sandbox, offline limits within bounds', () => {
    const changes = (value: object) =>
      ipcMessages.updateSettings.request.safeParse({ adminPin: '1234', changes: value }).success;
    expect(changes({})).toBe(true);
    expect(changes({ apiBaseUrl: null })).toBe(true);
    expect(changes({ apiBaseUrl: 'http://127.0.0.1:4010' })).toBe(true);
    expect(changes({ apiBaseUrl: 'https://commerce.example.com/api' })).toBe(true);
    for (const bad of [
      'ftp://commerce.example.com',
      'javascript:alert(1)',
      'commerce.example.com',
      'https://user:pass@commerce.example.com',
      'https://commerce.example.com/?token=x',
      'https://commerce.example.com/#x',
      '',
    ]) {
      expect(changes({ apiBaseUrl: bad }), bad).toBe(false);
    }
    expect(changes({ offlineLimits: {} })).toBe(true);
    expect(
      changes({
        offlineLimits: {
          maxOfflineDebitAmount: 0,
          maxPendingAmount: 2_000.5,
          maxPendingAmountPerCard: 300,
          maxPendingCount: 10,
          maxAgeMs: 24 * 3_600_000,
        },
      }),
    ).toBe(true);
    for (const bad of [
      { maxOfflineDebitAmount: -1 },
      { maxOfflineDebitAmount: 1.005 },
      { maxPendingAmount: Number.POSITIVE_INFINITY },
      { maxPendingCount: 2.5 },
      { maxPendingCount: '10' },
      { maxAgeMs: 1_000 },
      { maxAgeMs: 365 * 24 * 3_600_000 },
      { maxAge: 3_600_000 },
    ]) {
      expect(changes({ offlineLimits: bad }), JSON.stringify(bad)).toBe(false);
    }
  });

  it('never coerces: numbers as strings are refused', () => {
    expect(ipcMessages.cancelDebit.request.safeParse({ debitId: '1' }).success).toBe(false);
    expect(
      ipcMessages.debitGiftCard.request.safeParse({ ...validRequests.debitGiftCard, amount: '1.5' })
        .success,
    ).toBe(false);
    expect(
      ipcMessages.debitGiftCard.request.safeParse({ ...validRequests.debitGiftCard, amount: 1.005 })
        .success,
    ).toBe(false);
  });

  it('errors cross as { code, message, details? }', () => {
    expect(IpcError.safeParse({ code: 'X', message: 'm' }).success).toBe(true);
    expect(
      IpcError.safeParse({ code: 'X', message: 'm', details: { a: [1, 'b', null] } }).success,
    ).toBe(true);
    expect(IpcError.safeParse({ code: 'X', message: 'm', stack: 'at ...' }).success).toBe(false);
    const envelope = ipcResultOf(z.string());
    expect(envelope.safeParse({ ok: true, value: 'v' }).success).toBe(true);
    expect(envelope.safeParse({ ok: false, error: { code: 'X', message: 'm' } }).success).toBe(
      true,
    );
    expect(envelope.safeParse({ ok: true }).success).toBe(false);
  });
});

describe('the renderer-reachable surface returns no credential or token', () => {
  it.each(messageNames)('%s: no secret-bearing key in the reply schema', (name) => {
    const keys = schemaKeys(ipcMessages[name].reply);
    expect(keys.filter((key) => SECRET_KEY.test(key.split('.').at(-1) ?? ''))).toEqual([]);
  });

  it.each(eventNames)('%s: no secret-bearing key in the event payload', (name) => {
    const keys = schemaKeys(ipcEvents[name].payload);
    expect(keys.filter((key) => SECRET_KEY.test(key.split('.').at(-1) ?? ''))).toEqual([]);
  });

  it('says where the credentials are kept, never what they are', () => {
    for (const name of ['getStatus', 'getSettings', 'updateSettings', 'setCredentials'] as const) {
      const keys = schemaKeys(ipcMessages[name].reply).filter((key) =>
        key.startsWith('credentials.'),
      );
      expect(keys.sort()).toEqual(
        [
          'credentials.backend',
          'credentials.configured',
          // The API origin they belong to: where they may be sent, not what they are.
          'credentials.origin',
          'credentials.problem',
          'credentials.problem.code',
          'credentials.problem.message',
          'credentials.skipped',
          'credentials.skipped[].backend',
          'credentials.skipped[].code',
          'credentials.skipped[].reason',
          'credentials.warning',
          'credentials.writable',
        ].sort(),
      );
    }
  });

  it('names one method per message and one listener per event, nothing generic', () => {
    expectTypeOf<keyof KioskApi>().toEqualTypeOf<
      (typeof messageNames)[number] | `on${Capitalize<(typeof eventNames)[number]>}`
    >();
    expect(eventNames.map(listenerNameOf).sort()).toEqual(
      ['onConnectivityChanged', 'onOutboxChanged', 'onPrintJobChanged', 'onSyncProgress'].sort(),
    );
    for (const generic of ['invoke', 'send', 'on', 'call', 'request']) {
      expect(messageNames as readonly string[]).not.toContain(generic);
    }
  });
});
