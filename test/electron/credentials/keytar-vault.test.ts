import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { KeytarVault, classifyKeychainError } from '../../../electron/credentials/keytar-vault.ts';
import { vaultChainOf } from '../../../electron/credentials/chain.ts';
import { VaultUnavailable } from '../../../electron/credentials/errors.ts';
import {
  type KeyringSession,
  type SecretService,
  startKeyringSession,
} from '../../support/keyring.ts';

/**
 * keytar for real: built from source against libsecret, talking to gnome-keyring on a private
 * D-Bus session (test/support/keyring.ts). Each scenario runs in a child process
 * (fixtures/vault-child.ts), because keytar uses the D-Bus session of the process that loads it.
 */

const child = fileURLToPath(new URL('./fixtures/vault-child.ts', import.meta.url));

const credentials = {
  email: 'kiosk-42@fleet.example',
  password: 'Tr0ub4dor&3-keytar',
  origin: 'https://commerce.example.com',
};

interface StepResult {
  readonly step: string;
  readonly ok?: unknown;
  readonly error?: { name: string; code: string | null; problem: string | null; message: string };
}

let session: KeyringSession;

beforeAll(async () => {
  session = await startKeyringSession();
});

afterAll(async () => {
  await session?.stop();
});

async function steps(
  names: readonly string[],
  input: Record<string, unknown> = {},
  secretService: SecretService = 'unlocked',
): Promise<StepResult[]> {
  const run = await session.run(process.execPath, [child, ...names], {
    input: JSON.stringify(input),
    secretService,
  });
  expect(run.code, run.stderr).toBe(0);
  // Whatever the outcome, the secret never reaches the diagnostics of the process.
  expect(run.stderr).not.toContain(credentials.password);
  return JSON.parse(run.stdout) as StepResult[];
}

// Real processes over a real D-Bus: seconds on a busy machine, never the 5 s default.
describe(
  'keytar vault on a real Secret Service (gnome-keyring, private D-Bus session)',
  { timeout: 60_000 },
  () => {
    test('stores, reads back, survives a new session, and clears', async () => {
      const first = await steps(['status', 'read', 'write', 'read', 'raw-get'], { credentials });
      expect(first.map((r) => r.error)).toEqual([
        undefined,
        undefined,
        undefined,
        undefined,
        undefined,
      ]);
      expect(first[0]!.ok).toEqual({ available: true });
      expect(first[1]!.ok).toBeNull();
      expect(first[3]!.ok).toEqual(credentials);
      // The keychain item: service commerce-kiosk, the fixed account, the JSON {email, password,
      // origin}: the API they belong to is kept with them.
      expect(JSON.parse(first[4]!.ok as string)).toEqual(credentials);

      // Another process, another bus, another daemon over the same keyring files: a reboot.
      const second = await steps(['read', 'provider', 'clear', 'read', 'clear']);
      expect(second[0]!.ok).toEqual(credentials);
      // The API client's provider, over the default chain (keytar first without a provisioned file).
      expect(second[1]!.ok).toEqual(credentials);
      expect(second[3]!.ok).toBeNull();
      // Clearing what is not there is not an error.
      expect(second[4]!.error).toBeUndefined();
    });

    test('the provider says clearly that nothing is stored', async () => {
      const [result] = await steps(['provider']);
      expect(result!.error).toMatchObject({
        name: 'CredentialsMissing',
        code: 'CREDENTIALS_MISSING',
      });
      expect(result!.error!.message).toMatch(/kioskctl credentials set/);
    });

    test('a keychain item that is not {email, password} is refused without being quoted', async () => {
      const raw = '{"email":"kiosk-42@fleet.example","pass":"Tr0ub4dor&3-keytar"';
      const [, read, described] = await steps(['raw-set', 'read', 'describe', 'clear'], { raw });
      expect(read!.error).toMatchObject({
        name: 'CredentialsCorrupt',
        code: 'CREDENTIALS_CORRUPT',
      });
      expect(read!.error!.message).not.toContain('Tr0ub4dor');
      expect(read!.error!.message).not.toContain('kiosk-42');
      expect(described!.ok).toMatchObject({
        configured: false,
        backend: 'keytar',
        problem: { code: 'CREDENTIALS_CORRUPT' },
      });
    });

    test('without a Secret Service the error is clear and the chain uses the next backend', async () => {
      const safeStorage = { backend: 'gnome_libsecret' };
      const config = { dataDir: `${session.dir}/data-no-dbus` };
      const results = await steps(
        ['status', 'write', 'resolve', 'provider'],
        { credentials, config, safeStorage },
        'none',
      );
      const [status, write, resolved, provider] = results;
      expect(status!.ok).toMatchObject({
        available: false,
        code: 'NO_SECRET_SERVICE',
        blocking: false,
      });
      const reason = (status!.ok as { reason: string }).reason;
      expect(reason).toMatch(/Cannot autolaunch D-Bus/);
      expect(reason).toMatch(/gnome-keyring/);
      expect(write!.error).toMatchObject({
        name: 'VaultUnavailable',
        problem: 'NO_SECRET_SERVICE',
      });
      expect(resolved!.ok).toMatchObject({
        backend: 'safe-storage',
        skipped: [{ backend: 'keytar', code: 'NO_SECRET_SERVICE' }],
        warning: null,
      });
      // The next backend is empty: the provider says so, it does not fail on keytar.
      expect(provider!.error).toMatchObject({ name: 'CredentialsMissing' });
      expect(provider!.error!.message).toMatch(/safeStorage/);
    });

    test('without a Secret Service nor a keyring for safeStorage, every reason is given', async () => {
      const [resolved] = await steps(
        ['resolve'],
        { config: { dataDir: `${session.dir}/data-none` }, safeStorage: { backend: 'basic_text' } },
        'none',
      );
      expect(resolved!.error).toMatchObject({ name: 'NoVaultAvailable', code: 'NO_VAULT' });
      expect(resolved!.error!.message).toMatch(/keytar: no Secret Service on D-Bus/);
      expect(resolved!.error!.message).toMatch(/safe-storage: .*basic_text.*allowPlaintext/);
    });

    test('a bus whose keyring was never unlocked: reads answer, the write says how to fix it', async () => {
      // D-Bus activates gnome-keyring on demand, but with no unlocked login collection.
      const [status, write] = await steps(['status', 'write'], { credentials }, 'bus-only');
      expect(status!.ok).toEqual({ available: true });
      expect(write!.error).toMatchObject({ name: 'VaultUnavailable', problem: 'KEYRING_LOCKED' });
      expect(write!.error!.message).toMatch(/--unlock/);
    });
  },
);

describe('keytar vault without its native module', () => {
  test('a module that cannot load is a typed error and the chain moves on', async () => {
    const missing = pathToFileURL('/nonexistent/keytar/keytar.node').href;
    const vault = new KeytarVault({ load: () => import(missing) });
    const status = await vault.status();
    expect(status).toMatchObject({ available: false, code: 'MODULE_LOAD_FAILED', blocking: false });
    expect(status.available === false && status.reason).toMatch(/npm rebuild keytar/);
    await expect(vault.read()).rejects.toBeInstanceOf(VaultUnavailable);

    const other = {
      name: 'file' as const,
      location: '/etc/kiosk/credentials.json',
      readOnly: true,
      status: async () => ({ available: true as const }),
      read: async () => undefined,
      holdsCredentials: async () => false,
      write: async () => undefined,
      clear: async () => undefined,
    };
    const resolution = await vaultChainOf([vault, other]).resolve();
    expect(resolution.vault).toBe(other);
    expect(resolution.skipped).toEqual([
      expect.objectContaining({ backend: 'keytar', code: 'MODULE_LOAD_FAILED' }),
    ]);
  });

  test('a module without the keytar functions is refused', async () => {
    const vault = new KeytarVault({ load: async () => ({ default: { getPassword: 1 } }) });
    expect(await vault.status()).toMatchObject({ available: false, code: 'MODULE_LOAD_FAILED' });
  });

  test('a keychain that never answers times out instead of hanging', async () => {
    // A locked keyring waiting for an unlock prompt no one sees: not reproducible headless.
    const hanging = {
      getPassword: () => new Promise<never>(() => undefined),
      setPassword: () => new Promise<never>(() => undefined),
      deletePassword: () => new Promise<never>(() => undefined),
    };
    const vault = new KeytarVault({ load: async () => hanging, timeoutMs: 50 });
    expect(await vault.status()).toMatchObject({ available: false, code: 'TIMEOUT' });
  });
});

describe('keychain error classification', () => {
  const withBus = { DBUS_SESSION_BUS_ADDRESS: 'unix:path=/run/user/0/bus' };
  test.each([
    ['Cannot autolaunch D-Bus without X11 $DISPLAY', withBus, 'NO_SECRET_SERVICE'],
    [
      'The name org.freedesktop.secrets was not provided by any .service files',
      withBus,
      'NO_SECRET_SERVICE',
    ],
    [
      'Object does not exist at path “/org/freedesktop/secrets/collection/login”',
      withBus,
      'KEYRING_LOCKED',
    ],
    ['Impossible de lancer automatiquement D-Bus sans $DISPLAY X11', {}, 'NO_SECRET_SERVICE'],
    ['Something else entirely', withBus, 'KEYCHAIN_ERROR'],
  ] as const)('%s', (message, env, code) => {
    const result = classifyKeychainError(message, 'linux', env);
    expect(result.code).toBe(code);
    expect(result.reason).toContain(message);
  });
});
