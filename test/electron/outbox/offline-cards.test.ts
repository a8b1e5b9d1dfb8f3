import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type ConnectivityStatus,
  OfflineCardRefused,
  Outbox,
  resolveLimits,
} from '../../../electron/outbox/index.ts';
import { SettingsStore } from '../../../electron/kiosk/settings-store.ts';
import { defaultOfflineLimits } from '../../../electron/outbox/limits.ts';
import { kioskSchema } from '../../../electron/schema.ts';
import type { KioskSettings } from '../../../shared/ipc/index.ts';
import { type KioskDatabase, openDatabase } from '../../../electron/storage/index.ts';

/**
 * Offline, a debit is checked against what the kiosk last read of the card: the outbox on a real
 * SQLite file, its connectivity set by the test.
 */

/** The kiosk schema with the card cache (version 7), a no-op standing in for a version not yet listed. */
const card = (overrides: Record<string, unknown> = {}) => ({
  id: 'gc_offline_1',
  maskedNumber: '**** 9088',
  status: 'active',
  initialAmount: 50,
  balance: 4.5,
  currency: 'EUR',
  expiresOn: '2027-12-31',
  createdAt: '2026-01-02T10:00:00Z',
  customer: { uuid: 'cu_1', firstName: 'Alice', lastName: 'Martin' },
  ...overrides,
});

let dir: string;
let db: KioskDatabase;
let connectivity: ConnectivityStatus;
let outbox: Outbox;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'kiosk-cards-'));
  db = openDatabase({ dataDir: dir, schema: kioskSchema });
  connectivity = 'offline';
  outbox = new Outbox({ db, connectivity: () => connectivity });
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const refusalOf = (work: () => unknown) => {
  try {
    work();
  } catch (error) {
    if (error instanceof OfflineCardRefused) return { code: error.code, ...error.refusal };
    throw error;
  }
  throw new Error('the debit was accepted');
};

describe('the card cache', () => {
  it('keeps the card values and nothing of the customer', () => {
    expect(outbox.recordCard(card())).toBe(true);
    expect(outbox.knownCard('gc_offline_1')).toMatchObject({
      giftCardId: 'gc_offline_1',
      maskedNumber: '**** 9088',
      status: 'active',
      balance: 4.5,
      expiresOn: '2027-12-31',
    });
    const rows = db.connection.prepare('SELECT * FROM outbox_card_cache').all();
    expect(JSON.stringify(rows)).not.toMatch(/Alice|Martin|cu_1/);
  });

  it('reads an unexpected card tolerantly: unknown values, never a failure', () => {
    expect(outbox.recordCard(card({ balance: '4.50', status: 7 }))).toBe(true);
    expect(outbox.knownCard('gc_offline_1')).toMatchObject({ balance: null, status: null });
    expect(outbox.recordCard({ balance: 3 })).toBe(false);
    expect(outbox.recordCard(null)).toBe(false);
  });
});

describe('a debit, offline or not', () => {
  it('is refused over the balance read minus the debits still waiting, with both figures', () => {
    outbox.recordCard(card());
    const readAt = outbox.knownCard('gc_offline_1')!.readAt;
    expect(refusalOf(() => outbox.enqueue({ giftCardId: 'gc_offline_1', amount: 20 }))).toEqual({
      code: 'OUTBOX_OVER_KNOWN_BALANCE',
      rule: 'OUTBOX_OVER_KNOWN_BALANCE',
      knownBalance: 4.5,
      pending: 0,
      available: 4.5,
      amount: 20,
      asOf: readAt,
    });
    expect(outbox.enqueue({ giftCardId: 'gc_offline_1', amount: 4 }).delivery).toBe(
      'stored-offline',
    );
    expect(
      refusalOf(() => outbox.enqueue({ giftCardId: 'gc_offline_1', amount: 1 })),
    ).toMatchObject({ knownBalance: 4.5, pending: 4, available: 0.5 });
    expect(outbox.enqueue({ giftCardId: 'gc_offline_1', amount: 0.5 }).debit.state).toBe('pending');
    expect(outbox.summary().openCount).toBe(2);
  });

  it('on a card never read follows the policy: up to 50 EUR by default, or refused', () => {
    expect(outbox.enqueue({ giftCardId: 'gc_never_read', amount: 50 }).debit.state).toBe('pending');
    expect(
      refusalOf(() => outbox.enqueue({ giftCardId: 'gc_never_read', amount: 50.01 })),
    ).toMatchObject({ code: 'OUTBOX_UNKNOWN_CARD', maxAmount: 50, amount: 50.01 });
    outbox.setLimits({ unknownCardOffline: 'refuse' });
    expect(
      refusalOf(() => outbox.enqueue({ giftCardId: 'gc_never_read', amount: 1 })),
    ).toMatchObject({ code: 'OUTBOX_UNKNOWN_CARD', maxAmount: null });
    outbox.recordCard(card({ id: 'gc_no_balance', balance: undefined }));
    expect(
      refusalOf(() => outbox.enqueue({ giftCardId: 'gc_no_balance', amount: 1 })),
    ).toMatchObject({ code: 'OUTBOX_UNKNOWN_CARD' });
  });

  it('is refused on a card read expired or inactive; an unknown status blocks nothing', () => {
    outbox.recordCard(card({ status: 'expired', balance: 80 }));
    expect(
      refusalOf(() => outbox.enqueue({ giftCardId: 'gc_offline_1', amount: 1 })),
    ).toMatchObject({ code: 'OUTBOX_CARD_NOT_DEBITABLE', status: 'expired' });
    outbox.recordCard(card({ status: undefined, balance: 80 }));
    expect(outbox.enqueue({ giftCardId: 'gc_offline_1', amount: 1 }).debit.state).toBe('pending');
  });

  it('online or not known offline, the same checks: the link may be down without the kiosk knowing', () => {
    outbox.recordCard(card({ id: 'gc_expired', status: 'expired', balance: 80 }));
    outbox.recordCard(card());
    for (const status of ['online', 'unknown', 'degraded'] as const) {
      connectivity = status;
      expect(
        refusalOf(() => outbox.enqueue({ giftCardId: 'gc_offline_1', amount: 20 })),
      ).toMatchObject({ code: 'OUTBOX_OVER_KNOWN_BALANCE', knownBalance: 4.5, amount: 20 });
      expect(
        refusalOf(() => outbox.enqueue({ giftCardId: 'gc_expired', amount: 1 })),
      ).toMatchObject({ code: 'OUTBOX_CARD_NOT_DEBITABLE', status: 'expired' });
      expect(
        refusalOf(() => outbox.enqueue({ giftCardId: 'gc_never_read', amount: 120 })),
      ).toMatchObject({ code: 'OUTBOX_UNKNOWN_CARD', maxAmount: 50 });
    }
    expect(outbox.list()).toEqual([]);
    connectivity = 'online';
    expect(outbox.enqueue({ giftCardId: 'gc_offline_1', amount: 4.5 }).delivery).toBe('send-now');
  });
});

it('an invalid never-read card policy is refused', () => {
  expect(() => resolveLimits({ unknownCardOffline: { maxAmount: -1 } })).toThrow(RangeError);
  expect(resolveLimits({}).unknownCardOffline).toEqual({ maxAmount: 50 });
});

it('an administrator sets the never-read card policy in the settings; it survives a restart', async () => {
  const defaults: KioskSettings = {
    locale: 'en',
    shopId: null,
    printer: null,
    paperSize: null,
    apiBaseUrl: null,
    offlineLimits: defaultOfflineLimits,
    profilePath: null,
    idleReturnSeconds: 90,
    scanMaxGapMs: 40,
    onScreenKeyboard: 'auto',
  };
  const store = SettingsStore.open(dir, defaults);
  await expect(
    store.update({ offlineLimits: { unknownCardOffline: { maxAmount: -1 } } }),
  ).rejects.toThrow();
  await store.update({ offlineLimits: { unknownCardOffline: 'refuse' } });
  const limits = SettingsStore.open(dir, defaults).current.offlineLimits;
  expect(limits.unknownCardOffline).toBe('refuse');
  outbox.setLimits(limits);
  expect(refusalOf(() => outbox.enqueue({ giftCardId: 'gc_never_read', amount: 1 }))).toMatchObject(
    { code: 'OUTBOX_UNKNOWN_CARD', maxAmount: null },
  );
});
