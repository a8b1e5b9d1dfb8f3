import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { createVaultChain } from '../../../electron/credentials/chain.ts';
import {
  CliCredentialsError,
  cliVaultConfig,
  loadCliCredentials,
} from '../../../electron/credentials/cli-credentials.ts';
import { FakeSafeStorage } from './fixtures/fake-safe-storage.ts';

/** The one loader of kioskctl: --credentials file, then environment, then the vault chain. */

const fromFile = { email: 'file@fleet.example', password: 'from-file-secret' };
const fromEnv = { KIOSK_API_EMAIL: 'env@fleet.example', KIOSK_API_PASSWORD: 'from-env-secret' };
const fromVault = { email: 'vault@fleet.example', password: 'from-vault-secret' };
const noKeytar = () => Promise.reject(new Error('Cannot find module keytar'));

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kiosk-cli-credentials-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function vaultWithCredentials() {
  const chain = createVaultChain(
    { dataDir: dir },
    { loadKeytar: noKeytar, safeStorage: new FakeSafeStorage(), platform: 'linux' },
  );
  await (await chain.resolve()).vault.write(fromVault);
  return chain;
}

describe('order', () => {
  test('--credentials wins over the environment, which wins over the vault', async () => {
    const file = join(dir, 'c.json');
    await writeFile(file, JSON.stringify(fromFile));
    const vault = await vaultWithCredentials();
    expect(await loadCliCredentials({ credentialsFile: file, env: fromEnv, vault })).toEqual({
      credentials: fromFile,
      source: 'credentials-file',
    });
    expect(await loadCliCredentials({ env: fromEnv, vault })).toEqual({
      credentials: { email: fromEnv.KIOSK_API_EMAIL, password: fromEnv.KIOSK_API_PASSWORD },
      source: 'environment',
    });
    expect(await loadCliCredentials({ env: {}, vault })).toEqual({
      credentials: fromVault,
      source: 'safe-storage',
    });
  });

  test('a file may name the API it belongs to: read with it, normalised', async () => {
    const file = join(dir, 'bound.json');
    await writeFile(file, JSON.stringify({ ...fromFile, origin: 'https://Commerce.example.com/' }));
    expect(await loadCliCredentials({ credentialsFile: file, env: {} })).toEqual({
      credentials: { ...fromFile, origin: 'https://commerce.example.com' },
      source: 'credentials-file',
    });
  });

  test('the vault from flags and environment: a provisioned file', async () => {
    const file = join(dir, 'provisioned.json');
    await writeFile(file, JSON.stringify(fromVault));
    await chmod(file, 0o600);
    const loaded = await loadCliCredentials({
      env: { KIOSK_PROVISIONED_CREDENTIALS: file },
      vaultDeps: { loadKeytar: noKeytar },
    });
    expect(loaded).toEqual({ credentials: fromVault, source: 'file' });
  });
});

describe('refusals (CONFIG, never quoting a secret)', () => {
  test.each([
    [
      'a missing file',
      async () => ({ credentialsFile: join(dir, 'missing.json') }),
      /cannot read the credentials file .*ENOENT/,
    ],
    [
      'a file that is not JSON',
      async () => {
        const file = join(dir, 'bad.json');
        await writeFile(file, `{"password": "${fromFile.password}"`);
        return { credentialsFile: file };
      },
      /is not JSON/,
    ],
    [
      'a file whose origin is plain http to another machine',
      async () => {
        const file = join(dir, 'clear.json');
        await writeFile(
          file,
          JSON.stringify({ ...fromFile, origin: 'http://commerce.example.com' }),
        );
        return { credentialsFile: file };
      },
      /credentials file .*"origin" must be the API's origin, like "https:\/\/commerce\.example\.com": https \(or http to this machine only\)/,
    ],
    [
      'a half environment',
      async () => ({ env: { KIOSK_API_EMAIL: 'x@fleet.example' } }),
      /^KIOSK_API_EMAIL and KIOSK_API_PASSWORD \(both needed\): invalid credentials: the password must be a non-empty string$/,
    ],
    [
      'no vault at all',
      async () => ({ vault: 'none' as const }),
      /^no credentials: pass --credentials/,
    ],
    [
      'no usable vault, with the reasons',
      async () => ({ env: { KIOSK_VAULT: 'keytar' }, vaultDeps: { loadKeytar: noKeytar } }),
      /no credentials: .*kioskctl credentials set.*keytar: keytar's native module could not be loaded/,
    ],
    [
      'an empty vault',
      async () => ({
        vault: createVaultChain(
          { dataDir: dir },
          { loadKeytar: noKeytar, safeStorage: new FakeSafeStorage(), platform: 'linux' },
        ),
      }),
      /no credentials: .*nothing is stored in the Electron safeStorage file/,
    ],
    [
      'an insecure provisioned file',
      async () => {
        const file = join(dir, 'provisioned.json');
        await writeFile(file, JSON.stringify(fromVault));
        await chmod(file, 0o644);
        return { env: { KIOSK_PROVISIONED_CREDENTIALS: file } };
      },
      /chmod go-rwx/,
    ],
    [
      'a bad vault name',
      async () => ({ env: { KIOSK_VAULT: 'gnome' } }),
      /invalid credential vault configuration: vault/,
    ],
  ])('%s', async (_name, options, message) => {
    const { env = {}, ...rest } = (await options()) as { env?: Record<string, string> };
    const error = await loadCliCredentials({ env, ...rest }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CliCredentialsError);
    expect((error as CliCredentialsError).code).toBe('CONFIG');
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).not.toMatch(/from-file-secret|from-vault-secret/);
  });
});

test('cliVaultConfig: flags over environment, relative paths made absolute, none', () => {
  expect(cliVaultConfig({ vault: 'keytar' }, { KIOSK_VAULT: 'file' })).toEqual({ vault: 'keytar' });
  expect(cliVaultConfig({}, { KIOSK_VAULT: 'none' })).toBe('none');
  expect(cliVaultConfig({ provisionedFile: 'c.json', dataDir: '/var/lib/kiosk' }, {})).toEqual({
    provisionedFile: join(process.cwd(), 'c.json'),
    dataDir: '/var/lib/kiosk',
  });
});
