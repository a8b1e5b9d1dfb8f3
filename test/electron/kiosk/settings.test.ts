import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createVaultChain } from '../../../electron/credentials/chain.ts';
import type { ConfiguredCredentials } from '../../../electron/credentials/configured.ts';
import { createIpcRouter } from '../../../electron/ipc/router.ts';
import { fixedCredentials, vaultCredentials } from '../../../electron/kiosk/credential-store.ts';
import { chooseService } from '../../../electron/kiosk/service-choice.ts';
import {
  type WiredKioskServices,
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
import { FakeSafeStorage } from '../credentials/fixtures/fake-safe-storage.ts';
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
  profilePath: null,
  idleReturnSeconds: 90,
  scanMaxGapMs: 40,
  onScreenKeyboard: 'auto',
};

let dataDir: string;
const opened: WiredKioskServices[] = [];

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

/** The host's choice at start, with credentials configured in `configured` (none by default). */
const choose = (options: {
  readonly baseUrl?: string;
  readonly sandboxAvailable: boolean;
  readonly configured?: readonly ConfiguredCredentials[];
}) =>
  chooseService({
    settingsDir: dataDir,
    baseUrl: options.baseUrl,
    sandboxAvailable: options.sandboxAvailable,
    findCredentials: async () => options.configured ?? [],
  });

const provisioned: ConfiguredCredentials = {
  source: 'file',
  location: '/etc/commerce-kiosk/credentials.json',
};

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
    expect(await choose({ sandboxAvailable: true })).toEqual({
      kind: 'api',
      baseUrl: 'https://commerce.example.com/api',
    });

    for (const bad of [
      'ftp://commerce.example.com',
      'https://u:p@commerce.example.com',
      'x',
      // Plain http only to this machine: the password and the token never cross a network in clear.
      'http://commerce.example.com',
      'http://10.0.0.7:8080',
      'http://2130706433',
      'http://localhost.example.com',
    ]) {
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
    const integrator = 'https://integrator.example.com';
    expect(await choose({ baseUrl: integrator, sandboxAvailable: false })).toEqual({
      kind: 'api',
      baseUrl: integrator,
    });
    await value('updateSettings', {
      adminPin: ADMIN_PIN,
      changes: { apiBaseUrl: 'https://admin.example.com' },
    });
    expect(await choose({ baseUrl: integrator, sandboxAvailable: false })).toEqual({
      kind: 'api',
      baseUrl: 'https://admin.example.com',
    });
    await writeFile(join(dataDir, SETTINGS_FILE), JSON.stringify({ apiBaseUrl: null }));
    expect(await choose({ baseUrl: integrator, sandboxAvailable: false })).toEqual({
      kind: 'api',
      baseUrl: integrator,
    });
    expect(await choose({ baseUrl: integrator, sandboxAvailable: true })).toEqual({
      kind: 'demo',
    });
  });

  it('a settings file whose base URL breaks the rule is not followed', async () => {
    await writeFile(
      join(dataDir, SETTINGS_FILE),
      JSON.stringify({ apiBaseUrl: 'http://attacker.example:8080', locale: 'en' }),
    );
    expect(savedApiBaseUrl(dataDir)).toBeUndefined();
    expect(await choose({ baseUrl: 'https://fleet.example.com', sandboxAvailable: true })).toEqual({
      kind: 'api',
      baseUrl: 'https://fleet.example.com',
    });
    expect(SettingsStore.open(dataDir, defaults).current).toMatchObject({
      locale: 'en',
      apiBaseUrl: null,
    });
  });

  it('http to this machine is accepted: 127.0.0.0/8, [::1], localhost', async () => {
    const { value } = await services();
    for (const url of [
      'http://127.0.0.1:8080',
      'http://127.1.2.3',
      'http://[::1]:9',
      'http://localhost/api',
    ]) {
      expect(
        (await value('updateSettings', { adminPin: ADMIN_PIN, changes: { apiBaseUrl: url } }))
          .settings.apiBaseUrl,
      ).toBe(url);
    }
  });
});

describe('the demo never runs beside configured credentials', () => {
  it('no base URL anywhere: locked on setup, saying where the credentials are', async () => {
    expect(await choose({ sandboxAvailable: true })).toEqual({ kind: 'demo' });
    expect(await choose({ sandboxAvailable: true, configured: [provisioned] })).toEqual({
      kind: 'setup-required',
      reason: 'no-base-url',
      configured: [provisioned],
    });
  });

  it('setup chose the sandbox: locked too, even where the deployment has a base URL', async () => {
    await writeFile(join(dataDir, SETTINGS_FILE), JSON.stringify({ apiBaseUrl: null }));
    expect(
      await choose({
        baseUrl: 'https://fleet.example.com',
        sandboxAvailable: true,
        configured: [provisioned],
      }),
    ).toEqual({ kind: 'setup-required', reason: 'sandbox-chosen', configured: [provisioned] });
  });

  it('a base URL (saved or deployed) never asks where credentials are', async () => {
    const asked: string[] = [];
    const result = await chooseService({
      settingsDir: dataDir,
      baseUrl: 'https://fleet.example.com',
      sandboxAvailable: true,
      findCredentials: async () => {
        asked.push('asked');
        return [provisioned];
      },
    });
    expect(result).toEqual({ kind: 'api', baseUrl: 'https://fleet.example.com' });
    expect(asked).toEqual([]);
  });
});

describe('setup: credentials belong to the API they were stored for', () => {
  async function realApi() {
    const chain = createVaultChain(
      { vault: 'safe-storage', dataDir },
      { safeStorage: new FakeSafeStorage({ backend: 'gnome_libsecret' }), platform: 'linux' },
    );
    return services({
      api: { baseUrl: NOWHERE, demo: false, sandboxAvailable: true },
      credentials: vaultCredentials(chain, { defaultOrigin: undefined }),
    });
  }

  it('are stored for the base URL in use, and asked again when it changes', async () => {
    const { value } = await realApi();
    expect((await value('getSettings', {})).credentials).toMatchObject({
      configured: false,
      problem: { code: 'CREDENTIALS_MISSING' },
    });
    const stored = await value('setCredentials', {
      adminPin: ADMIN_PIN,
      email: 'kiosk@fleet.example',
      password: 'stored-for-nowhere',
    });
    expect(stored.credentials).toMatchObject({
      configured: true,
      origin: NOWHERE,
      problem: null,
    });

    // Another service: the stored account is not its account; setup asks for that one's.
    const moved = await value('updateSettings', {
      adminPin: ADMIN_PIN,
      changes: { apiBaseUrl: 'https://other.example.com/api' },
    });
    expect(moved.credentials).toMatchObject({
      configured: true,
      origin: NOWHERE,
      problem: { code: 'CREDENTIALS_ORIGIN_MISMATCH' },
    });
    expect(moved.credentials.problem?.message).toContain('https://other.example.com');
    expect(JSON.stringify(moved)).not.toContain('stored-for-nowhere');
    // This run's status judges them against the API in use, which they still belong to.
    expect((await value('getStatus', {})).credentials).toMatchObject({ problem: null });

    const again = await value('setCredentials', {
      adminPin: ADMIN_PIN,
      email: 'kiosk@other.example',
      password: 'stored-for-other',
    });
    expect(again.credentials).toMatchObject({
      origin: 'https://other.example.com',
      problem: null,
    });
    // Stored for the next start's API: this run's client will not send them to its own.
    expect(await value('testConnection', {})).toMatchObject({
      ok: false,
      error: { code: 'CREDENTIALS_ORIGIN_MISMATCH' },
    });
  });

  it('setup cannot store an account while the sandbox is chosen', async () => {
    const { value, call } = await realApi();
    await value('updateSettings', { adminPin: ADMIN_PIN, changes: { apiBaseUrl: null } });
    expect(
      await call('setCredentials', {
        adminPin: ADMIN_PIN,
        email: 'a@fleet.example',
        password: 'p',
      }),
    ).toMatchObject({ ok: false, error: { code: 'API_BASE_URL_REQUIRED' } });
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
        requestId: crypto.randomUUID(),
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
      requestId: crypto.randomUUID(),
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
