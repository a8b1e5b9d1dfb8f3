import { access, mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { removeFileDurably, writeFileDurably } from '../foundation/index.ts';
import { BoundedFileError, readBoundedFile } from '../profile/index.ts';
import { CredentialsCorrupt, VaultUnavailable } from './errors.ts';
import {
  type SafeStorageApi,
  type SafeStorageCipher,
  safeStorageCipher,
} from './safe-storage-api.ts';
import { errnoOf, errorSummary, scrubCredentials } from './error-text.ts';
import {
  MAX_STORED_CREDENTIALS_BYTES,
  parseStoredCredentials,
  serializeCredentials,
} from './stored-credentials.ts';
import type { Credentials, CredentialVault, VaultProblemCode, VaultStatus } from './vault.ts';

/** The encrypted credentials, base64 in JSON: a few times their own cap at most. */
const MAX_STORED_FILE_BYTES = 4 * MAX_STORED_CREDENTIALS_BYTES;

/**
 * A file in the data directory holding the credentials encrypted by Electron's `safeStorage`.
 *
 * On Linux without a keyring, safeStorage silently falls back to `basic_text`: "encryption" with
 * a key compiled into every Chromium, i.e. plaintext. So the vault asks which key store Electron
 * chose and refuses `basic_text` (and an unavailable encryption) unless an administrator set
 * `allowPlaintext` knowingly; then the status carries a warning that says so.
 */

export const SAFE_STORAGE_FILE = 'credentials.safe-storage.json';

export interface SafeStorageVaultOptions {
  /** Electron's `safeStorage`, injected by the host; undefined outside Electron. */
  readonly safeStorage: SafeStorageApi | undefined;
  /** The kiosk's data directory; the file is `<dataDir>/credentials.safe-storage.json`. */
  readonly dataDir: string | undefined;
  readonly allowPlaintext?: boolean;
  readonly platform?: NodeJS.Platform;
}

/** What is on disk: the format says how to read `data` back, never the secret itself. */
const StoredFile = z.strictObject({
  format: z.literal('commerce-kiosk/credentials'),
  version: z.literal(1),
  /** `plaintext` only ever with allowPlaintext and no encryption at all. */
  protection: z.enum(['safe-storage', 'plaintext']),
  /** Electron's key store when it was written (Linux), to notice a basic_text file later. */
  keyStore: z.string().nullable(),
  data: z.base64(),
});
type StoredFile = z.infer<typeof StoredFile>;

type Protection =
  | { readonly usable: true; readonly mode: 'encrypted'; readonly keyStore: string | undefined }
  | {
      readonly usable: true;
      /** `weak`: safeStorage with its hard-coded key; `plaintext`: no encryption at all. */
      readonly mode: 'weak' | 'plaintext';
      readonly keyStore: string | undefined;
      readonly warning: string;
    }
  | { readonly usable: false; readonly code: VaultProblemCode; readonly reason: string };

const KEYRING_FIX =
  "install and unlock a keyring in the kiosk's session (gnome-keyring or KWallet), or, knowingly, set allowPlaintext: true in the configuration";

export class SafeStorageVault implements CredentialVault {
  readonly name = 'safe-storage';
  readonly readOnly = false;
  readonly location: string;
  readonly #cipher: SafeStorageCipher | undefined;
  readonly #file: string | undefined;
  readonly #allowPlaintext: boolean;
  readonly #platform: NodeJS.Platform;

  constructor(options: SafeStorageVaultOptions) {
    this.#cipher = options.safeStorage ? safeStorageCipher(options.safeStorage) : undefined;
    this.#file =
      options.dataDir === undefined ? undefined : join(options.dataDir, SAFE_STORAGE_FILE);
    this.#allowPlaintext = options.allowPlaintext ?? false;
    this.#platform = options.platform ?? process.platform;
    this.location = this.#file ?? '(no data directory configured)';
  }

  async status(): Promise<VaultStatus> {
    const protection = await this.#protection();
    if (!protection.usable) {
      return {
        available: false,
        code: protection.code,
        reason: protection.reason,
        blocking: false,
      };
    }
    return protection.mode === 'encrypted'
      ? { available: true }
      : { available: true, warning: protection.warning };
  }

  async read(): Promise<Credentials | undefined> {
    const { file, cipher, protection } = await this.#usable();
    const stored = await this.#readFile(file);
    if (stored === undefined) return undefined;

    let credentials: Credentials;
    let reseal: boolean;
    const bytes = Buffer.from(stored.data, 'base64');
    if (stored.protection === 'plaintext') {
      credentials = parseStoredCredentials(bytes.toString('utf8'), this.name);
      reseal = protection.mode !== 'plaintext';
    } else {
      if (protection.mode === 'plaintext') {
        throw new VaultUnavailable(
          this.name,
          'ENCRYPTION_FAILED',
          `${file} is encrypted but Electron's safeStorage cannot decrypt now (no OS keyring, or the app is not ready): ${KEYRING_FIX}`,
        );
      }
      let decrypted: { text: string; reEncrypt: boolean };
      try {
        decrypted = await cipher.decrypt(bytes);
      } catch {
        throw new CredentialsCorrupt(
          this.name,
          "cannot be decrypted with this user's safeStorage key; did the OS keyring or the user change?",
        );
      }
      credentials = parseStoredCredentials(decrypted.text, this.name);
      reseal =
        decrypted.reEncrypt ||
        (stored.keyStore === 'basic_text' && protection.mode === 'encrypted');
    }
    // A file written weaker than what is possible now (plaintext, basic_text, a rotated key) is
    // sealed again as soon as it is read. Failing that is not a reason to fail the read.
    if (reseal) await this.#store(file, cipher, protection, credentials).catch(() => undefined);
    return credentials;
  }

  async holdsCredentials(): Promise<boolean> {
    // The file says so without decrypting it: also outside Electron, or with the keyring locked.
    return this.#file !== undefined && (await exists(this.#file));
  }

  async write(credentials: Credentials): Promise<void> {
    const text = serializeCredentials(credentials);
    const { file, cipher, protection } = await this.#usable();
    await this.#store(file, cipher, protection, credentials, text);
  }

  async clear(): Promise<void> {
    // No encryption needed to forget: removing works even when the keyring is gone.
    if (this.#file === undefined) return;
    try {
      await removeFileDurably(this.#file);
    } catch (error) {
      throw new VaultUnavailable(
        this.name,
        'WRITE_FAILED',
        `cannot remove ${this.#file} (${errnoOf(error)})`,
      );
    }
  }

  async #store(
    file: string,
    cipher: SafeStorageCipher,
    protection: Extract<Protection, { usable: true }>,
    credentials: Credentials,
    text = serializeCredentials(credentials),
  ): Promise<void> {
    let stored: StoredFile;
    if (protection.mode === 'plaintext') {
      stored = {
        format: 'commerce-kiosk/credentials',
        version: 1,
        protection: 'plaintext',
        keyStore: protection.keyStore ?? null,
        data: Buffer.from(text, 'utf8').toString('base64'),
      };
    } else {
      let encrypted: Buffer;
      try {
        encrypted = await cipher.encrypt(text);
      } catch (error) {
        throw new VaultUnavailable(
          this.name,
          'ENCRYPTION_FAILED',
          `Electron's safeStorage could not encrypt (${scrubCredentials(errorSummary(error), credentials)}): ${KEYRING_FIX}`,
        );
      }
      stored = {
        format: 'commerce-kiosk/credentials',
        version: 1,
        protection: 'safe-storage',
        keyStore: protection.keyStore ?? null,
        data: encrypted.toString('base64'),
      };
    }
    try {
      // Only the kiosk's own user enters the directory, only it reads the file.
      await mkdir(dirname(file), { recursive: true, mode: 0o700 });
      await writeFileDurably(file, `${JSON.stringify(stored)}\n`, { mode: 0o600 });
    } catch (error) {
      throw new VaultUnavailable(
        this.name,
        'WRITE_FAILED',
        `cannot write ${file} (${errnoOf(error)})`,
      );
    }
  }

  async #readFile(file: string): Promise<StoredFile | undefined> {
    let text: string;
    try {
      // Bounded and non-blocking, whatever was put at the path (a FIFO, a device, a huge file).
      text = (await readBoundedFile(file, MAX_STORED_FILE_BYTES)).toString('utf8');
    } catch (error) {
      if (error instanceof BoundedFileError && error.failure === 'NOT_FOUND') return undefined;
      if (error instanceof BoundedFileError && error.failure === 'TOO_LARGE')
        throw new CredentialsCorrupt(this.name, `${file} is larger than any credentials file`);
      throw new VaultUnavailable(
        this.name,
        'UNREADABLE',
        `cannot read ${file} (${error instanceof BoundedFileError ? error.reason : errnoOf(error)})`,
      );
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw new CredentialsCorrupt(this.name, `${file} is not JSON`);
    }
    const parsed = StoredFile.safeParse(value);
    if (!parsed.success) {
      throw new CredentialsCorrupt(this.name, `${file} is not a credentials file of this kiosk`);
    }
    return parsed.data;
  }

  async #usable(): Promise<{
    file: string;
    cipher: SafeStorageCipher;
    protection: Extract<Protection, { usable: true }>;
  }> {
    const protection = await this.#protection();
    if (!protection.usable)
      throw new VaultUnavailable(this.name, protection.code, protection.reason);
    // #protection() is usable only with both; stated again for the type checker.
    if (this.#cipher === undefined || this.#file === undefined) {
      throw new VaultUnavailable(
        this.name,
        'NOT_CONFIGURED',
        'safeStorage or the data directory is missing',
      );
    }
    return { file: this.#file, cipher: this.#cipher, protection };
  }

  async #protection(): Promise<Protection> {
    if (this.#cipher === undefined) {
      const held =
        this.#file !== undefined && (await exists(this.#file))
          ? `; ${this.#file} exists, only the kiosk app can decrypt it`
          : '';
      return {
        usable: false,
        code: 'NOT_IN_ELECTRON',
        reason: `Electron's safeStorage is reachable only in the kiosk app's main process (kioskctl and tests run under plain Node)${held}`,
      };
    }
    if (this.#file === undefined) {
      return {
        usable: false,
        code: 'NOT_CONFIGURED',
        reason: 'no data directory is configured for the safeStorage file',
      };
    }
    const keyStore = this.#platform === 'linux' ? this.#cipher.selectedBackend() : undefined;
    if (keyStore === 'unknown') {
      return {
        usable: false,
        code: 'NOT_READY',
        reason:
          'Electron\'s safeStorage was asked before the app was ready (key store "unknown"): use the vault after app.whenReady()',
      };
    }
    let available: boolean;
    try {
      available = await this.#cipher.isEncryptionAvailable();
    } catch {
      available = false;
    }
    // Off Linux the OS always provides the key (Keychain, DPAPI); on Linux only a named keyring does.
    const secure =
      available &&
      (this.#platform !== 'linux' || (keyStore !== undefined && keyStore !== 'basic_text'));
    if (secure) return { usable: true, mode: 'encrypted', keyStore };

    if (!this.#allowPlaintext) {
      const why = !available
        ? "Electron's safeStorage reports encryption unavailable (no OS keyring, or the app is not ready yet)"
        : keyStore === 'basic_text'
          ? 'Electron\'s safeStorage found no OS keyring (key store "basic_text": it would encrypt with a key built into every Chromium, which is plaintext)'
          : "cannot tell which key store Electron's safeStorage uses (no getSelectedStorageBackend): pass Electron's own safeStorage object";
      return { usable: false, code: 'PLAINTEXT_REFUSED', reason: `${why}: ${KEYRING_FIX}` };
    }
    return available
      ? {
          usable: true,
          mode: 'weak',
          keyStore,
          warning: `allowPlaintext is set: the credentials in ${this.#file} are encrypted with Chromium's built-in key (key store "${keyStore ?? 'not reported'}"), so anyone who can read the file can read them`,
        }
      : {
          usable: true,
          mode: 'plaintext',
          keyStore,
          warning: `allowPlaintext is set: the credentials in ${this.#file} are stored unencrypted (safeStorage has no encryption here)`,
        };
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}
