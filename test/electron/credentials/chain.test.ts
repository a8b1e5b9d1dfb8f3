import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { createApiClient } from '../../../electron/api/client.ts';
import { CredentialsRejected } from '../../../electron/api/errors.ts';
import { createVaultChain, resolveVault } from '../../../electron/credentials/chain.ts';
import { resolveVaultConfig } from '../../../electron/credentials/config.ts';
import { describeCredentials } from '../../../electron/credentials/credential-status.ts';
import { credentialStore } from '../../../electron/credentials/vault-credential-store.ts';
import {
  CredentialsMissing,
  CredentialsUnbound,
  InvalidCredentials,
  InvalidVaultConfig,
  NoVaultAvailable,
  VaultReadOnly,
} from '../../../electron/credentials/errors.ts';
import { credentialsProvider } from '../../../electron/credentials/provider.ts';
import { type RunningSandbox, startSandbox } from '../../../sandbox/index.ts';
import { FakeSafeStorage } from './fixtures/fake-safe-storage.ts';

/**
 * The chain and its configuration, with keytar made unloadable so these tests do not depend on
 * the machine's D-Bus (keytar itself is tested for real in keytar-vault.test.ts).
 */

const noKeytar = () => Promise.reject(new Error('Cannot find module keytar'));

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kiosk-chain-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('configuration', () => {
  test('default order: the provisioned file only when configured, then keytar, then safeStorage', () => {
    expect(resolveVaultConfig({}).order).toEqual(['keytar', 'safe-storage']);
    expect(resolveVaultConfig({ provisionedFile: '/etc/kiosk/credentials.json' }).order).toEqual([
      'file',
      'keytar',
      'safe-storage',
    ]);
    expect(resolveVaultConfig({ order: ['safe-storage', 'keytar'] }).order).toEqual([
      'safe-storage',
      'keytar',
    ]);
  });

  test('forcing one backend', () => {
    expect(resolveVaultConfig({ vault: 'keytar' })).toMatchObject({
      order: ['keytar'],
      forced: true,
    });
    expect(resolveVaultConfig({ vault: 'safe-storage', dataDir: dir }).order).toEqual([
      'safe-storage',
    ]);
  });

  test.each([
    [{ vault: 'gnome' }, /vault/],
    [{ vault: 'file' }, /provisionedFile/],
    [{ vault: 'safe-storage' }, /dataDir/],
    [{ order: ['keytar', 'keytar'] }, /twice/],
    [{ order: [] }, /order/],
    [{ provisionedFile: 'relative/credentials.json' }, /absolute/],
    [{ vault: 'keytar', order: ['keytar'] }, /one or the other/],
    [{ allowPlaintext: 'yes' }, /allowPlaintext/],
    [{ password: 'x' }, /password/],
  ])('%j is refused', (config, message) => {
    expect(() => resolveVaultConfig(config)).toThrow(InvalidVaultConfig);
    expect(() => createVaultChain(config as never)).toThrow(message);
  });
});

describe('resolution', () => {
  test('the first usable backend, with the reasons for the ones skipped', async () => {
    const resolution = await resolveVault(
      { dataDir: dir },
      { loadKeytar: noKeytar, safeStorage: new FakeSafeStorage(), platform: 'linux' },
    );
    expect(resolution.vault.name).toBe('safe-storage');
    expect(resolution.skipped).toEqual([
      {
        backend: 'keytar',
        code: 'MODULE_LOAD_FAILED',
        reason: expect.stringMatching(/Cannot find module keytar/),
      },
    ]);
    expect(resolution.warning).toBeUndefined();
  });

  test('a forced backend that is unusable is an error, not a fallback', async () => {
    const error = await resolveVault(
      { vault: 'keytar', dataDir: dir },
      { loadKeytar: noKeytar, safeStorage: new FakeSafeStorage() },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NoVaultAvailable);
    expect((error as NoVaultAvailable).skipped.map((s) => s.backend)).toEqual(['keytar']);
  });

  test('the plaintext warning travels with the resolution', async () => {
    const resolution = await resolveVault(
      { dataDir: dir, allowPlaintext: true },
      {
        loadKeytar: noKeytar,
        safeStorage: new FakeSafeStorage({ backend: 'basic_text' }),
        platform: 'linux',
      },
    );
    expect(resolution.warning).toMatch(/allowPlaintext/);
  });
});

describe('the API client adapter', () => {
  let sandbox: RunningSandbox;
  beforeEach(async () => {
    sandbox = await startSandbox({ port: 0 });
  });
  afterEach(async () => {
    await sandbox.close();
  });

  test('feeds POST /auth from the vault, and says clearly when nothing is stored', async () => {
    const account = sandbox.accounts[0]!;
    const safeStorage = new FakeSafeStorage();
    const chain = createVaultChain(
      { dataDir: dir },
      { loadKeytar: noKeytar, safeStorage, platform: 'linux' },
    );
    const provider = credentialsProvider(chain, { defaultOrigin: undefined });

    await expect(provider()).rejects.toBeInstanceOf(CredentialsMissing);
    const empty = createApiClient({ baseUrl: sandbox.baseUrl, credentials: provider });
    const refused = await empty.authenticate().catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(CredentialsRejected);
    expect((refused as Error).message).toMatch(/no integration account credentials are stored/);

    const { vault } = await chain.resolve();
    await vault.write({
      email: account.email,
      password: account.password,
      origin: sandbox.baseUrl,
    });
    const client = createApiClient({ baseUrl: sandbox.baseUrl, credentials: provider });
    expect(await client.authenticate()).toMatchObject({ authenticated: true });
  });

  test("credentials belong to an origin: their own, else the deployment's, else none", async () => {
    const account = sandbox.accounts[0]!;
    const chain = createVaultChain(
      { dataDir: dir },
      { loadKeytar: noKeytar, safeStorage: new FakeSafeStorage(), platform: 'linux' },
    );
    const { vault } = await chain.resolve();
    // Stored before origins were kept: it names none.
    await vault.write({ email: account.email, password: account.password });

    const unbound = credentialsProvider(chain, { defaultOrigin: undefined });
    const refusal = await unbound().catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(CredentialsUnbound);
    expect((refusal as Error).message).toMatch(/KIOSK_API_BASE_URL/);
    expect((refusal as Error).message).not.toContain(account.password);
    const client = createApiClient({ baseUrl: sandbox.baseUrl, credentials: unbound });
    expect(await client.authenticate().catch((error: unknown) => error)).toMatchObject({
      code: 'CREDENTIALS_UNAVAILABLE',
    });

    const deployed = credentialsProvider(chain, { defaultOrigin: `${sandbox.baseUrl}/` });
    expect(await deployed()).toEqual({
      email: account.email,
      password: account.password,
      origin: sandbox.baseUrl,
    });
    expect(
      await createApiClient({ baseUrl: sandbox.baseUrl, credentials: deployed }).authenticate(),
    ).toMatchObject({ authenticated: true });

    // Their own origin wins over the deployment's.
    await vault.write({
      email: account.email,
      password: account.password,
      origin: 'https://Commerce.Example.com:443/',
    });
    expect((await deployed()).origin).toBe('https://commerce.example.com');
    expect(await describeCredentials(chain, { expectedOrigin: sandbox.baseUrl })).toMatchObject({
      configured: true,
      origin: 'https://commerce.example.com',
      problem: { code: 'CREDENTIALS_ORIGIN_MISMATCH' },
    });
  });

  test('describeCredentials says where, never what', async () => {
    const safeStorage = new FakeSafeStorage();
    const chain = createVaultChain(
      { dataDir: dir },
      { loadKeytar: noKeytar, safeStorage, platform: 'linux' },
    );
    expect(await describeCredentials(chain)).toMatchObject({
      configured: false,
      backend: 'safe-storage',
      writable: true,
      problem: { code: 'CREDENTIALS_MISSING' },
    });
    const { vault } = await chain.resolve();
    await vault.write({ email: 'a@fleet.example', password: 'described-secret' });
    const overview = await describeCredentials(chain);
    expect(overview).toMatchObject({ configured: true, backend: 'safe-storage', problem: null });
    expect(JSON.stringify(overview)).not.toMatch(/described-secret|a@fleet/);

    const provisioned = join(dir, 'provisioned.json');
    await writeFile(provisioned, '{}');
    await chmod(provisioned, 0o644);
    const blocked = await describeCredentials(
      createVaultChain({ provisionedFile: provisioned }, { loadKeytar: noKeytar }),
    );
    expect(blocked).toMatchObject({
      configured: false,
      backend: 'file',
      writable: false,
      problem: { code: 'INSECURE_PERMISSIONS' },
    });
  });

  test('the setup store writes, refuses bad input and a read-only backend, and reads nothing back', async () => {
    const safeStorage = new FakeSafeStorage();
    const store = credentialStore(
      createVaultChain({ dataDir: dir }, { loadKeytar: noKeytar, safeStorage, platform: 'linux' }),
    );
    expect(Object.keys(store).sort()).toEqual(['status', 'write']);
    await expect(store.write({ email: 'a@fleet.example', password: '' })).rejects.toBeInstanceOf(
      InvalidCredentials,
    );
    await store.write({ email: 'a@fleet.example', password: 'store-secret' });
    expect(await store.status()).toMatchObject({ configured: true, backend: 'safe-storage' });

    const provisioned = join(dir, 'provisioned.json');
    await writeFile(provisioned, JSON.stringify({ email: 'a@fleet.example', password: 'p' }));
    await chmod(provisioned, 0o600);
    const readOnly = credentialStore(
      createVaultChain({ provisionedFile: provisioned }, { loadKeytar: noKeytar }),
    );
    await expect(
      readOnly.write({ email: 'b@fleet.example', password: 'q' }),
    ).rejects.toBeInstanceOf(VaultReadOnly);
  });
});
