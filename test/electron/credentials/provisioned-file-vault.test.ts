import { execFileSync } from 'node:child_process';
import { chmod, chown, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { resolveVault, vaultChainOf } from '../../../electron/credentials/chain.ts';
import {
  CredentialsCorrupt,
  VaultReadOnly,
  VaultUnavailable,
} from '../../../electron/credentials/errors.ts';
import { ProvisionedFileVault } from '../../../electron/credentials/provisioned-file-vault.ts';
import type { CredentialVault } from '../../../electron/credentials/vault.ts';

/** The provisioned file with real files and real modes. */

const credentials = { email: 'fleet-kiosk@fleet.example', password: 'pr0visioned-secret' };

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kiosk-provisioned-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function provision(name: string, mode: number, content = JSON.stringify(credentials)) {
  const path = join(dir, name);
  await writeFile(path, content);
  await chmod(path, mode);
  return path;
}

describe('accepted', () => {
  test.each([0o600, 0o400])('mode %o', async (mode) => {
    const vault = new ProvisionedFileVault({ path: await provision('credentials.json', mode) });
    expect(vault.readOnly).toBe(true);
    expect(await vault.status()).toEqual({ available: true });
    expect(await vault.read()).toEqual(credentials);
  });

  test('through a symlink (secrets mounted by a fleet tool), the target is what is checked', async () => {
    const target = await provision('target.json', 0o600);
    const link = join(dir, 'credentials.json');
    await symlink(target, link);
    expect(await new ProvisionedFileVault({ path: link }).read()).toEqual(credentials);
    await chmod(target, 0o644);
    expect(await new ProvisionedFileVault({ path: link }).status()).toMatchObject({
      available: false,
      code: 'INSECURE_PERMISSIONS',
    });
  });
});

describe('refused', () => {
  test.each([0o640, 0o644, 0o604, 0o660, 0o620])(
    'mode %o, naming the chmod to run',
    async (mode) => {
      const path = await provision('credentials.json', mode);
      const vault = new ProvisionedFileVault({ path });
      const status = await vault.status();
      expect(status).toMatchObject({
        available: false,
        code: 'INSECURE_PERMISSIONS',
        blocking: true,
      });
      expect(status.available ? '' : status.reason).toContain(`chmod go-rwx ${path}`);
      const error = await vault.read().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(VaultUnavailable);
      expect((error as Error).message).not.toContain(credentials.password);
    },
  );

  test('a path a shell would split is quoted in the command', async () => {
    const path = await provision("it's credentials.json", 0o644);
    const status = await new ProvisionedFileVault({ path }).status();
    expect(status.available ? '' : status.reason).toContain(
      `chmod go-rwx '${dir}/it'\\''s credentials.json'`,
    );
  });

  test('a directory, a FIFO (without blocking on it)', async () => {
    const directory = join(dir, 'credentials.d');
    await mkdir(directory, { mode: 0o700 });
    expect(await new ProvisionedFileVault({ path: directory }).status()).toMatchObject({
      available: false,
      code: 'NOT_A_FILE',
      blocking: true,
    });
    const fifo = join(dir, 'credentials.fifo');
    execFileSync('mkfifo', ['-m', '600', fifo]);
    const status = await new ProvisionedFileVault({ path: fifo }).status();
    expect(status).toMatchObject({ available: false, code: 'NOT_A_FILE' });
    expect(status.available ? '' : status.reason).toMatch(/FIFO/);
  });

  test('owned by another user than root or the kiosk user', async () => {
    const path = await provision('credentials.json', 0o600);
    // As root (CI), hand the file to another uid; otherwise it is owned by this (non-root) user.
    const owner = process.getuid!() === 0 ? 4242 : process.getuid!();
    if (owner === 4242) await chown(path, owner, owner);
    const status = await new ProvisionedFileVault({ path, uid: owner + 1 }).status();
    expect(status).toMatchObject({ available: false, code: 'UNTRUSTED_OWNER', blocking: true });
    // Owned by the kiosk's own user: fine.
    expect(await new ProvisionedFileVault({ path, uid: owner }).status()).toEqual({
      available: true,
    });
  });

  test('content that is not {email, password}, without quoting it', async () => {
    for (const content of [
      `password=${credentials.password}`,
      JSON.stringify({ ...credentials, extra: 1 }),
      JSON.stringify({ email: credentials.email, password: '' }),
      ' '.repeat(70 * 1024),
    ]) {
      const vault = new ProvisionedFileVault({ path: await provision('c.json', 0o600, content) });
      const error = await vault.read().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(CredentialsCorrupt);
      expect((error as Error).message).not.toContain(credentials.password);
      expect((error as Error).message).not.toContain(credentials.email);
    }
  });

  test('write and clear: read-only', async () => {
    const vault = new ProvisionedFileVault({ path: await provision('credentials.json', 0o600) });
    await expect(vault.write(credentials)).rejects.toBeInstanceOf(VaultReadOnly);
    await expect(vault.clear()).rejects.toBeInstanceOf(VaultReadOnly);
  });
});

describe('in the chain', () => {
  test('a missing file is skipped (not provisioned on this kiosk)', async () => {
    const vault = new ProvisionedFileVault({ path: join(dir, 'absent.json') });
    expect(await vault.status()).toMatchObject({
      available: false,
      code: 'NOT_PROVISIONED',
      blocking: false,
    });
    expect(await vault.read()).toBeUndefined();
  });

  test('an insecure file stops the chain instead of falling back to another backend', async () => {
    const path = await provision('credentials.json', 0o644);
    let asked = false;
    const next: CredentialVault = {
      name: 'keytar',
      location: 'keychain',
      readOnly: false,
      status: async () => {
        asked = true;
        return { available: true };
      },
      read: async () => undefined,
      holdsCredentials: async () => false,
      write: async () => undefined,
      clear: async () => undefined,
    };
    const error = await vaultChainOf([new ProvisionedFileVault({ path }), next])
      .resolve()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VaultUnavailable);
    expect((error as VaultUnavailable).problem).toBe('INSECURE_PERMISSIONS');
    expect(asked).toBe(false);
  });

  test('configured, it comes first in the default chain', async () => {
    const path = await provision('credentials.json', 0o600);
    // keytar is never loaded: the file answers first.
    const resolution = await resolveVault(
      { provisionedFile: path },
      { loadKeytar: () => Promise.reject(new Error('keytar must not be loaded')) },
    );
    expect(resolution.vault.name).toBe('file');
    expect(resolution.skipped).toEqual([]);
  });
});
