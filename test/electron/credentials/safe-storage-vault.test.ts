import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { CredentialsCorrupt, VaultUnavailable } from '../../../electron/credentials/errors.ts';
import {
  SAFE_STORAGE_FILE,
  SafeStorageVault,
} from '../../../electron/credentials/safe-storage-vault.ts';
import type { SafeStorageApi } from '../../../electron/credentials/safe-storage-api.ts';
import { FakeAsyncSafeStorage, FakeSafeStorage } from './fixtures/fake-safe-storage.ts';

/**
 * The safeStorage backend with a fake of Electron's `safeStorage` (the one fake these tests
 * allow: the Electron binary cannot run here). Files, modes and atomic writes are real.
 */

const credentials = { email: 'kiosk-7@fleet.example', password: 's3cret-safe-storage' };

let dataDir: string;
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'kiosk-safe-storage-'));
});
afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

const file = () => join(dataDir, SAFE_STORAGE_FILE);

function vault(safeStorage: SafeStorageApi | undefined, allowPlaintext = false) {
  return new SafeStorageVault({ safeStorage, dataDir, allowPlaintext, platform: 'linux' });
}

describe('with an OS keyring', () => {
  test('writes an encrypted 0600 file atomically and reads it back', async () => {
    const safeStorage = new FakeSafeStorage({ backend: 'gnome_libsecret' });
    const v = vault(safeStorage);
    expect(await v.status()).toEqual({ available: true });
    expect(await v.read()).toBeUndefined();
    await v.write(credentials);
    expect(await v.read()).toEqual(credentials);

    const info = await stat(file());
    expect(info.mode & 0o777).toBe(0o600);
    const onDisk = await readFile(file(), 'utf8');
    expect(onDisk).not.toContain(credentials.password);
    expect(onDisk).not.toContain(credentials.email);
    expect(JSON.parse(onDisk)).toMatchObject({
      format: 'commerce-kiosk/credentials',
      protection: 'safe-storage',
      keyStore: 'gnome_libsecret',
    });
    // No temp file left beside it.
    const { readdir } = await import('node:fs/promises');
    expect(await readdir(dataDir)).toEqual([SAFE_STORAGE_FILE]);

    await v.clear();
    expect(await v.read()).toBeUndefined();
    await v.clear();
  });

  test('a file sealed with another key is corrupt, and the message quotes nothing', async () => {
    await vault(new FakeSafeStorage()).write(credentials);
    const error = await vault(new FakeSafeStorage())
      .read()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CredentialsCorrupt);
    expect((error as Error).message).toMatch(/decrypted/);
  });

  test('a file that is not ours is corrupt, without quoting it', async () => {
    await writeFile(file(), `{"email":"${credentials.email}","password":"${credentials.password}"`);
    const error = await vault(new FakeSafeStorage())
      .read()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CredentialsCorrupt);
    expect((error as Error).message).not.toContain(credentials.password);
  });

  test('the asynchronous API (Electron 46) is used when present, and a rotated key re-seals', async () => {
    const safeStorage = new FakeAsyncSafeStorage({ backend: 'kwallet6' });
    const v = vault(safeStorage);
    await v.write(credentials);
    const before = await readFile(file(), 'utf8');
    safeStorage.rotated = true;
    expect(await v.read()).toEqual(credentials);
    expect(await readFile(file(), 'utf8')).not.toBe(before);
  });

  test('off Linux the key store is not asked: Keychain and DPAPI always have a key', async () => {
    const safeStorage = new FakeSafeStorage({ backend: null });
    const v = new SafeStorageVault({ safeStorage, dataDir, platform: 'darwin' });
    expect(await v.status()).toEqual({ available: true });
  });
});

describe('without an OS keyring (basic_text)', () => {
  test('refuses, saying how to fix it, and writes nothing', async () => {
    const safeStorage = new FakeSafeStorage({ backend: 'basic_text' });
    const v = vault(safeStorage);
    const status = await v.status();
    expect(status).toMatchObject({ available: false, code: 'PLAINTEXT_REFUSED', blocking: false });
    const reason = status.available ? '' : status.reason;
    expect(reason).toMatch(/basic_text/);
    expect(reason).toMatch(/gnome-keyring or KWallet/);
    expect(reason).toMatch(/allowPlaintext: true/);

    const error = await v.write(credentials).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VaultUnavailable);
    expect((error as VaultUnavailable).problem).toBe('PLAINTEXT_REFUSED');
    expect(safeStorage.encryptCalls).toBe(0);
    await expect(stat(file())).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(v.read()).rejects.toBeInstanceOf(VaultUnavailable);
  });

  test('refuses an unavailable encryption too', async () => {
    const status = await vault(new FakeSafeStorage({ available: false })).status();
    expect(status).toMatchObject({ available: false, code: 'PLAINTEXT_REFUSED' });
    expect(status.available ? '' : status.reason).toMatch(/encryption unavailable/);
  });

  test('refuses when the key store cannot be told (no getSelectedStorageBackend on Linux)', async () => {
    const status = await vault(new FakeSafeStorage({ backend: null })).status();
    expect(status).toMatchObject({ available: false, code: 'PLAINTEXT_REFUSED' });
  });

  test('"unknown" means the app was not ready: a different problem, not a plaintext question', async () => {
    const status = await vault(new FakeSafeStorage({ backend: 'unknown' }), true).status();
    expect(status).toMatchObject({ available: false, code: 'NOT_READY' });
  });

  test('with allowPlaintext the administrator gets it, and a warning that says what it means', async () => {
    const safeStorage = new FakeSafeStorage({ backend: 'basic_text' });
    const v = vault(safeStorage, true);
    const status = await v.status();
    expect(status.available).toBe(true);
    expect(status.available && status.warning).toMatch(/allowPlaintext.*built-in key/);
    await v.write(credentials);
    expect(await v.read()).toEqual(credentials);
    expect(JSON.parse(await readFile(file(), 'utf8'))).toMatchObject({ keyStore: 'basic_text' });
    expect((await stat(file())).mode & 0o777).toBe(0o600);

    // A keyring installed later: the next read seals the file with it.
    safeStorage.backend = 'gnome_libsecret';
    expect(await v.read()).toEqual(credentials);
    expect(JSON.parse(await readFile(file(), 'utf8'))).toMatchObject({
      keyStore: 'gnome_libsecret',
    });
  });

  test('with allowPlaintext and no encryption at all, stored as plaintext, labelled so', async () => {
    const v = vault(new FakeSafeStorage({ available: false }), true);
    const status = await v.status();
    expect(status.available && status.warning).toMatch(/unencrypted/);
    await v.write(credentials);
    expect(await v.read()).toEqual(credentials);
    expect(JSON.parse(await readFile(file(), 'utf8'))).toMatchObject({ protection: 'plaintext' });
    // Plaintext no longer allowed: the file is not read.
    await expect(vault(new FakeSafeStorage({ available: false })).read()).rejects.toBeInstanceOf(
      VaultUnavailable,
    );
  });
});

describe('outside Electron', () => {
  test('says safeStorage is only in the kiosk app, and that the app holds a file', async () => {
    const missing = await vault(undefined).status();
    expect(missing).toMatchObject({ available: false, code: 'NOT_IN_ELECTRON' });
    await vault(new FakeSafeStorage()).write(credentials);
    const held = await vault(undefined).status();
    expect(held.available ? '' : held.reason).toMatch(/exists, only the kiosk app can decrypt it/);
  });

  test('without a data directory it is not configured', async () => {
    const v = new SafeStorageVault({ safeStorage: new FakeSafeStorage(), dataDir: undefined });
    expect(await v.status()).toMatchObject({ available: false, code: 'NOT_CONFIGURED' });
  });
});
