import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { createVaultChain } from '../../../electron/credentials/chain.ts';
import { findConfiguredCredentials } from '../../../electron/credentials/configured.ts';
import { CredentialsCorrupt } from '../../../electron/credentials/errors.ts';
import { ProvisionedFileVault } from '../../../electron/credentials/provisioned-file-vault.ts';
import { SAFE_STORAGE_FILE } from '../../../electron/credentials/safe-storage-vault.ts';
import { FakeSafeStorage } from './fixtures/fake-safe-storage.ts';

/**
 * Where credentials are configured, for the one decision that must never go wrong: a kiosk with
 * any never runs the demo. "Configured" is "something is there", usable or not: a safeStorage file
 * the process cannot decrypt (kioskctl, the browser host) and a provisioned file with the wrong
 * mode count, since the kiosk that fixes them would otherwise be a demo holding them.
 */

const noKeytar = () => Promise.reject(new Error('Cannot find module keytar'));

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kiosk-configured-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function provision(content: string, mode = 0o600): Promise<string> {
  const path = join(dir, 'provisioned.json');
  await writeFile(path, content);
  await chmod(path, mode);
  return path;
}

describe('findConfiguredCredentials', () => {
  test('nothing anywhere: none (the demo may start)', async () => {
    const chain = createVaultChain(
      { dataDir: dir, provisionedFile: join(dir, 'not-there.json') },
      { loadKeytar: noKeytar },
    );
    expect(await findConfiguredCredentials(chain, {})).toEqual([]);
    expect(await findConfiguredCredentials('none', {})).toEqual([]);
  });

  test('either variable of the environment', async () => {
    for (const env of [{ KIOSK_API_EMAIL: 'a@fleet.example' }, { KIOSK_API_PASSWORD: 'p' }]) {
      expect(await findConfiguredCredentials('none', env)).toEqual([
        { source: 'environment', location: 'KIOSK_API_EMAIL, KIOSK_API_PASSWORD' },
      ]);
    }
  });

  test('a provisioned file, also one refused for its mode', async () => {
    const path = await provision('{"email":"a@fleet.example","password":"p"}', 0o644);
    const chain = createVaultChain(
      { dataDir: dir, provisionedFile: path },
      { loadKeytar: noKeytar },
    );
    expect(await findConfiguredCredentials(chain, {})).toEqual([
      { source: 'file', location: path },
    ]);
  });

  test('a safeStorage file, even where it cannot be decrypted', async () => {
    const writer = createVaultChain(
      { vault: 'safe-storage', dataDir: dir },
      { safeStorage: new FakeSafeStorage({ backend: 'gnome_libsecret' }), platform: 'linux' },
    );
    await (await writer.resolve()).vault.write({ email: 'a@fleet.example', password: 'p' });
    // The browser host and kioskctl have no safeStorage: the file alone says it is there.
    const outsideElectron = createVaultChain({ dataDir: dir }, { loadKeytar: noKeytar });
    expect(await findConfiguredCredentials(outsideElectron, {})).toEqual([
      { source: 'safe-storage', location: join(dir, SAFE_STORAGE_FILE) },
    ]);
  });

  test('a keychain that cannot be asked holds nothing the kiosk could send', async () => {
    const chain = createVaultChain({ vault: 'keytar' }, { loadKeytar: noKeytar });
    expect(await findConfiguredCredentials(chain, {})).toEqual([]);
  });
});

describe('the provisioned file may name its API', () => {
  test('read with its origin, normalised', async () => {
    const path = await provision(
      JSON.stringify({
        email: 'a@fleet.example',
        password: 'p',
        origin: 'https://API.fleet.example:443',
      }),
    );
    expect(await new ProvisionedFileVault({ path }).read()).toEqual({
      email: 'a@fleet.example',
      password: 'p',
      origin: 'https://api.fleet.example',
    });
  });

  test.each([
    ['plain http to another machine', 'http://api.fleet.example'],
    ['a path', 'https://api.fleet.example/v1'],
    ['not a URL', 'api.fleet.example'],
  ])('refused, saying what to write: %s', async (_, origin) => {
    const path = await provision(
      JSON.stringify({ email: 'a@fleet.example', password: 'secret-in-file', origin }),
    );
    const error = await new ProvisionedFileVault({ path }).read().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CredentialsCorrupt);
    expect((error as Error).message).toMatch(/"origin" must be the API's origin, like "https:/);
    expect((error as Error).message).not.toContain('secret-in-file');
  });
});
