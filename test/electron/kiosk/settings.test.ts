import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chooseBaseUrl } from '../../../electron/host/kiosk-integration.ts';
import { createIpcRouter } from '../../../electron/ipc/router.ts';
import { fixedCredentials } from '../../../electron/kiosk/credential-store.ts';
import {
  type KioskServices,
  type KioskServicesOptions,
  createKioskServices,
} from '../../../electron/kiosk/kiosk-services.ts';
import {
  SETTINGS_FILE,
  SettingsStore,
  savedApiBaseUrl,
} from '../../../electron/kiosk/settings-store.ts';
import { defaultOfflineLimits } from '../../../electron/outbox/limits.ts';
import {
  type IpcResult,
  type KioskSettings,
  type MessageName,
  type ReplyOf,
  type RequestOf,
  ipcErrorCodes,
  localeOfTag,
} from '../../../shared/ipc/index.ts';
import { ADMIN_PIN, APP_ORIGIN, KIOSK_PAGE } from './support.ts';

/** Nothing listens there: the services are built, never started, so nothing is sent. */
const NOWHERE = 'http://127.0.0.1:9';

const defaults: KioskSettings = {
  locale: 'fr',
  shopId: null,
  printer: null,
  paperSize: null,
  apiBaseUrl: null,
  offlineLimits: defaultOfflineLimits,
};

let dataDir: string;
const opened: KioskServices[] = [];

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'kiosk-settings-'));
});
afterEach(async () => {
  await Promise.all(opened.splice(0).map((services) => services.close()));
  await rm(dataDir, { recursive: true, force: true });
});

async function services(options: Partial<KioskServicesOptions> = {}) {
  const built = await createKioskServices({
    dataDir,
    api: { baseUrl: NOWHERE, demo: true },
    credentials: fixedCredentials({ email: 'kiosk@example.com', password: 'p' }, 'sandbox'),
    host: 'browser',
    adminPin: ADMIN_PIN,
    connectivityProbeMs: 0,
    printing: { backend: 'cups', cupsServer: '127.0.0.1:9' },
    ...options,
  });
  opened.push(built);
  const router = createIpcRouter({
    handlers: built.handlers,
    allowedOrigins: [APP_ORIGIN],
    adminGuard: built.adminGuard,
  });
  const call = async <N extends MessageName>(name: N, request: RequestOf<N>) =>
    (await router.handle(`kiosk:${name}`, request, KIOSK_PAGE)) as IpcResult<ReplyOf<N>>;
  const value = async <N extends MessageName>(name: N, request: RequestOf<N>) => {
    const result = await call(name, request);
    if (!result.ok) throw new Error(`${name}: ${result.error.code} ${result.error.message}`);
    return result.value;
  };
  return { built, call, value };
}

const fileOf = async () =>
  JSON.parse(await readFile(join(dataDir, SETTINGS_FILE), 'utf8')) as Record<string, unknown>;

describe('the settings store', () => {
  it('keeps only what was changed in the file; the rest follows the defaults', async () => {
    const store = SettingsStore.open(dataDir, defaults);
    await store.update({ shopId: 'shop_lyon', offlineLimits: { maxPendingCount: 10 } });
    await store.update({ offlineLimits: { maxAgeMs: 3_600_000 } });
    expect(await fileOf()).toEqual({
      shopId: 'shop_lyon',
      offlineLimits: { maxPendingCount: 10, maxAgeMs: 3_600_000 },
    });
    // New defaults (another system language, other integrator limits) still apply elsewhere.
    const reopened = SettingsStore.open(dataDir, {
      ...defaults,
      locale: 'en',
      offlineLimits: { ...defaultOfflineLimits, maxOfflineDebitAmount: 50 },
    });
    expect(reopened.current).toEqual({
      ...defaults,
      locale: 'en',
      shopId: 'shop_lyon',
      offlineLimits: {
        ...defaultOfflineLimits,
        maxOfflineDebitAmount: 50,
        maxPendingCount: 10,
        maxAgeMs: 3_600_000,
      },
    });
  });

  it('validates every change and writes nothing when one is invalid', async () => {
    const store = SettingsStore.open(dataDir, defaults);
    await expect(store.update({ apiBaseUrl: 'ftp://example.com' })).rejects.toThrow();
    await expect(store.update({ offlineLimits: { maxPendingCount: -1 } })).rejects.toThrow();
    await expect(readFile(join(dataDir, SETTINGS_FILE))).rejects.toMatchObject({ code: 'ENOENT' });
    expect(store.current).toEqual(defaults);
  });

  it('a damaged key costs that setting only; the base URL a host reads at start', async () => {
    await writeFile(
      join(dataDir, SETTINGS_FILE),
      JSON.stringify({
        locale: 'en',
        apiBaseUrl: 'https://commerce.example.com/api',
        offlineLimits: { maxPendingCount: 'many' },
        colour: 'red',
      }),
    );
    const store = SettingsStore.open(dataDir, defaults);
    expect(store.current).toEqual({
      ...defaults,
      locale: 'en',
      apiBaseUrl: 'https://commerce.example.com/api',
    });
    expect(savedApiBaseUrl(dataDir)).toBe('https://commerce.example.com/api');

    await writeFile(join(dataDir, SETTINGS_FILE), JSON.stringify({ apiBaseUrl: null }));
    expect(savedApiBaseUrl(dataDir)).toBeNull();
    await rm(join(dataDir, SETTINGS_FILE));
    expect(savedApiBaseUrl(dataDir)).toBeUndefined();
    await writeFile(join(dataDir, SETTINGS_FILE), '{ not json');
    expect(SettingsStore.open(dataDir, defaults).current).toEqual(defaults);
  });
});

describe('the language at start-up', () => {
  it.each([
    ['fr-FR', 'fr'],
    ['fr-CA', 'fr'],
    ['fr_BE.UTF-8', 'fr'],
    ['en-US', 'en'],
    ['de-DE', 'en'],
  ] as const)('a %s system starts in %s', async (systemLocale, expected) => {
    const { value } = await services({ systemLocale });
    expect((await value('getSettings', {})).settings.locale).toBe(expected);
  });

  it('without a system locale given, the process locale (Intl) decides', async () => {
    const { value } = await services();
    expect((await value('getSettings', {})).settings.locale).toBe(
      localeOfTag(Intl.DateTimeFormat().resolvedOptions().locale),
    );
  });

  it('the settings file has the last word, then the integrator, then the system', async () => {
    expect(
      (await (await services({ systemLocale: 'fr-FR', locale: 'en' })).value('getSettings', {}))
        .settings.locale,
    ).toBe('en');
    await writeFile(join(dataDir, SETTINGS_FILE), JSON.stringify({ locale: 'fr' }));
    const { value } = await services({ systemLocale: 'en-US', locale: 'en' });
    expect((await value('getSettings', {})).settings.locale).toBe('fr');
  });
});

describe('setup: the service base URL', () => {
  it('is saved for the next start, validated, and never taken live', async () => {
    const { value, call, built } = await services();
    const before = await value('getSettings', {});
    expect(before).toMatchObject({
      settings: { apiBaseUrl: null },
      sandboxAvailable: true,
      restartRequired: false,
    });

    const saved = await value('updateSettings', {
      adminPin: ADMIN_PIN,
      changes: { apiBaseUrl: 'https://commerce.example.com/api' },
    });
    expect(saved).toMatchObject({
      settings: { apiBaseUrl: 'https://commerce.example.com/api' },
      restartRequired: true,
    });
    // This run keeps its service; the next start reads the saved one.
    expect((await value('getStatus', {})).apiOrigin).toBe(NOWHERE);
    expect(built.apiOrigin).toBe(NOWHERE);
    expect(savedApiBaseUrl(dataDir)).toBe('https://commerce.example.com/api');
    expect(chooseBaseUrl({ dataDir, baseUrl: undefined, startSandbox: async () => never() })).toBe(
      'https://commerce.example.com/api',
    );

    for (const bad of ['ftp://commerce.example.com', 'https://u:p@commerce.example.com', 'x']) {
      expect(
        await call('updateSettings', { adminPin: ADMIN_PIN, changes: { apiBaseUrl: bad } }),
        bad,
      ).toMatchObject({ ok: false, error: { code: ipcErrorCodes.invalidRequest } });
    }
    expect(
      await call('updateSettings', {
        adminPin: '0000',
        changes: { apiBaseUrl: 'https://other.example.com' },
      }),
    ).toMatchObject({ ok: false, error: { code: ipcErrorCodes.adminPinInvalid } });

    // Back to the sandbox: nothing to restart for.
    expect(
      await value('updateSettings', { adminPin: ADMIN_PIN, changes: { apiBaseUrl: null } }),
    ).toMatchObject({ settings: { apiBaseUrl: null }, restartRequired: false });
    expect(savedApiBaseUrl(dataDir)).toBeNull();
  });

  it('the sandbox cannot be chosen where the build has none; a saved URL wins at start', async () => {
    const { value, call } = await services({
      api: { baseUrl: 'https://commerce.example.com', demo: false },
    });
    expect(await value('getSettings', {})).toMatchObject({
      settings: { apiBaseUrl: 'https://commerce.example.com' },
      sandboxAvailable: false,
      restartRequired: false,
    });
    expect(
      await call('updateSettings', { adminPin: ADMIN_PIN, changes: { apiBaseUrl: null } }),
    ).toMatchObject({ ok: false, error: { code: ipcErrorCodes.invalidRequest } });
    expect(savedApiBaseUrl(dataDir)).toBeUndefined();

    // The host's choice at start: saved URL, else its own, else the sandbox it may have.
    expect(chooseBaseUrl({ dataDir, baseUrl: 'https://integrator.example.com' })).toBe(
      'https://integrator.example.com',
    );
    await value('updateSettings', {
      adminPin: ADMIN_PIN,
      changes: { apiBaseUrl: 'https://admin.example.com' },
    });
    expect(chooseBaseUrl({ dataDir, baseUrl: 'https://integrator.example.com' })).toBe(
      'https://admin.example.com',
    );
    await writeFile(join(dataDir, SETTINGS_FILE), JSON.stringify({ apiBaseUrl: null }));
    expect(chooseBaseUrl({ dataDir, baseUrl: 'https://integrator.example.com' })).toBe(
      'https://integrator.example.com',
    );
    expect(
      chooseBaseUrl({
        dataDir,
        baseUrl: 'https://integrator.example.com',
        startSandbox: async () => never(),
      }),
    ).toBeUndefined();
  });
});

describe('setup: the offline limits', () => {
  it('apply to the outbox at once, and again at the next start', async () => {
    const { value, call, built } = await services({ limits: { maxPendingCount: 40 } });
    expect((await value('getSettings', {})).settings.offlineLimits).toEqual({
      ...defaultOfflineLimits,
      maxPendingCount: 40,
    });
    const debit = (amount: number) =>
      call('debitGiftCard', {
        giftCardId: 'gift_card_ddf0db2b-c468-4d07-9853-e8ef57c20a81',
        amount,
        policy: 'prefer_online',
      });
    expect((await debit(20)).ok).toBe(true);

    const saved = await value('updateSettings', {
      adminPin: ADMIN_PIN,
      changes: { offlineLimits: { maxPendingAmountPerCard: 25, maxAgeMs: 2 * 3_600_000 } },
    });
    const expected = {
      ...defaultOfflineLimits,
      maxPendingCount: 40,
      maxPendingAmountPerCard: 25,
      maxAgeMs: 2 * 3_600_000,
    };
    expect(saved.settings.offlineLimits).toEqual(expected);
    expect(built.parts.outbox.limits).toEqual(expected);
    expect((await value('getOutboxSummary', {})).limits).toEqual(expected);
    // 20 already waits on this card: 10 more would be 30, over the new 25.
    expect(await debit(10)).toMatchObject({
      ok: false,
      error: { code: 'OUTBOX_LIMIT_EXCEEDED' },
    });
    expect((await debit(5)).ok).toBe(true);

    // Out of bounds: refused, nothing changed.
    expect(
      await call('updateSettings', {
        adminPin: ADMIN_PIN,
        changes: { offlineLimits: { maxAgeMs: 10 } },
      }),
    ).toMatchObject({ ok: false, error: { code: ipcErrorCodes.invalidRequest } });
    expect(built.parts.outbox.limits).toEqual(expected);

    await built.close();
    const restarted = await services({ limits: { maxPendingCount: 40 } });
    expect(restarted.built.parts.outbox.limits).toEqual(expected);
  });

  it('the kiosk shop set in setup goes with the next debit', async () => {
    const { value, built } = await services({ shopId: 'shop_paris' });
    await value('updateSettings', { adminPin: ADMIN_PIN, changes: { shopId: 'shop_lyon' } });
    const accepted = await value('debitGiftCard', {
      giftCardId: 'gift_card_ddf0db2b-c468-4d07-9853-e8ef57c20a81',
      amount: 1,
      policy: 'prefer_online',
    });
    const row = built.parts.outbox.store.db.connection
      .prepare('SELECT request_body AS body FROM outbox_debits WHERE id = ?')
      .get(accepted.debit.id) as { body: string };
    expect(JSON.parse(row.body)).toMatchObject({ shopId: 'shop_lyon' });
  });
});

function never(): never {
  throw new Error('must not start the sandbox');
}
