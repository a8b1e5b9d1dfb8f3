import { constants } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import { BoundedFileError, readOpenedBounded } from '../profile/index.ts';
import { CredentialsCorrupt, VaultReadOnly, VaultUnavailable } from './errors.ts';
import { errnoOf } from './error-text.ts';
import { MAX_STORED_CREDENTIALS_BYTES, parseStoredCredentials } from './stored-credentials.ts';
import type { Credentials, CredentialVault, VaultProblemCode, VaultStatus } from './vault.ts';

/**
 * A JSON file `{"email": "...", "password": "..."}` placed by a fleet's provisioning (typically as
 * root, owned by root or by the kiosk's user, mode 0600 or 0400). The kiosk only reads it.
 *
 * Like sshd with its keys, it refuses a file that anyone else could read or change: group or
 * other permission bits, an owner that is neither root nor the kiosk's user, or something that is
 * not a regular file. Each refusal names the command that fixes it.
 */

export interface ProvisionedFileVaultOptions {
  readonly path: string;
  readonly platform?: NodeJS.Platform;
  /** The kiosk's user; process.getuid() by default. */
  readonly uid?: number;
}

type Check =
  | { readonly ok: true }
  | {
      readonly ok: false;
      readonly code: VaultProblemCode;
      readonly reason: string;
      readonly blocking: boolean;
    };

export class ProvisionedFileVault implements CredentialVault {
  readonly name = 'file';
  readonly readOnly = true;
  readonly location: string;
  readonly #path: string;
  readonly #platform: NodeJS.Platform;
  readonly #uid: number | undefined;

  constructor(options: ProvisionedFileVaultOptions) {
    this.#path = options.path;
    this.location = options.path;
    this.#platform = options.platform ?? process.platform;
    this.#uid = options.uid ?? process.getuid?.();
  }

  async status(): Promise<VaultStatus> {
    const opened = await this.#open();
    if (!opened.ok)
      return {
        available: false,
        code: opened.code,
        reason: opened.reason,
        blocking: opened.blocking,
      };
    await opened.handle.close();
    return { available: true };
  }

  async read(): Promise<Credentials | undefined> {
    const opened = await this.#open();
    if (!opened.ok) {
      // A file that was never provisioned holds nothing; any other refusal is an error.
      if (opened.code === 'NOT_PROVISIONED') return undefined;
      throw new VaultUnavailable(this.name, opened.code, opened.reason);
    }
    try {
      if (opened.stats.size > MAX_STORED_CREDENTIALS_BYTES) {
        throw new CredentialsCorrupt(this.name, 'larger than any credentials');
      }
      let text: string;
      try {
        // Bounded even where the size said otherwise (a /proc file says 0, a file may grow).
        text = (
          await readOpenedBounded(opened.handle, this.#path, MAX_STORED_CREDENTIALS_BYTES)
        ).toString('utf8');
      } catch (error) {
        if (error instanceof BoundedFileError && error.failure === 'TOO_LARGE')
          throw new CredentialsCorrupt(this.name, 'larger than any credentials');
        throw new VaultUnavailable(
          this.name,
          'UNREADABLE',
          `cannot read ${this.#path} (${error instanceof BoundedFileError ? error.reason : errnoOf(error)})`,
        );
      }
      return parseStoredCredentials(text, this.name);
    } finally {
      await opened.handle.close();
    }
  }

  async holdsCredentials(): Promise<boolean> {
    const opened = await this.#open();
    if (opened.ok) {
      await opened.handle.close();
      return true;
    }
    // Refused (mode, owner, not a file) is still something provisioned there.
    return opened.code !== 'NOT_PROVISIONED';
  }

  async write(_credentials: Credentials): Promise<void> {
    throw new VaultReadOnly(this.name, this.#path);
  }

  async clear(): Promise<void> {
    throw new VaultReadOnly(this.name, this.#path);
  }

  /**
   * Opens, then checks what was opened (fstat), so the file read is the file checked. O_NONBLOCK
   * keeps a FIFO at the path from blocking the open; it is then refused as not a regular file.
   */
  async #open(): Promise<
    | { readonly ok: true; readonly handle: FileHandle; readonly stats: Stats }
    | Extract<Check, { ok: false }>
  > {
    let handle: FileHandle;
    try {
      handle = await open(this.#path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
    } catch (error) {
      const errno = errnoOf(error);
      if (errno === 'ENOENT' || errno === 'ENOTDIR') {
        return {
          ok: false,
          code: 'NOT_PROVISIONED',
          reason: `no provisioned credentials file at ${this.#path}`,
          blocking: false,
        };
      }
      return {
        ok: false,
        code: 'UNREADABLE',
        reason: `cannot open ${this.#path} (${errno}): the kiosk's user must be able to read it (make that user its owner, mode 0400 or 0600)`,
        blocking: true,
      };
    }
    let stats: Stats;
    try {
      stats = await handle.stat();
    } catch (error) {
      await handle.close();
      return {
        ok: false,
        code: 'UNREADABLE',
        reason: `cannot stat ${this.#path} (${errnoOf(error)})`,
        blocking: true,
      };
    }
    const check = this.#check(stats);
    if (!check.ok) {
      await handle.close();
      return check;
    }
    return { ok: true, handle, stats };
  }

  #check(stats: Stats): Check {
    const path = shellQuote(this.#path);
    if (!stats.isFile()) {
      return {
        ok: false,
        code: 'NOT_A_FILE',
        reason: `${this.#path} is not a regular file (${kindOf(stats)}): provision the credentials as a regular file`,
        blocking: true,
      };
    }
    // Windows has no POSIX modes (Node reports 0666 or 0444); NTFS ACLs protect the file there.
    if (this.#platform === 'win32') return { ok: true };
    const mode = stats.mode & 0o777;
    if ((mode & 0o077) !== 0) {
      return {
        ok: false,
        code: 'INSECURE_PERMISSIONS',
        reason: `${this.#path} is accessible to group or others (mode ${mode.toString(8).padStart(4, '0')}) and holds a password: run "chmod go-rwx ${path}" (0600 or 0400 expected)`,
        blocking: true,
      };
    }
    if (stats.uid !== 0 && stats.uid !== this.#uid) {
      return {
        ok: false,
        code: 'UNTRUSTED_OWNER',
        reason: `${this.#path} is owned by uid ${stats.uid}, who could change the credentials: only root or the kiosk's user${this.#uid === undefined ? '' : ` (uid ${this.#uid})`} may own it ("chown root ${path}" or the kiosk's user)`,
        blocking: true,
      };
    }
    return { ok: true };
  }
}

function kindOf(stats: Stats): string {
  if (stats.isDirectory()) return 'a directory';
  if (stats.isFIFO()) return 'a FIFO';
  if (stats.isSocket()) return 'a socket';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
  return 'not a file';
}

/** The path as one word of a POSIX shell, for the command a refusal names. */
function shellQuote(path: string): string {
  return /^[\w@%+=:,./-]+$/.test(path) ? path : `'${path.replaceAll("'", "'\\''")}'`;
}
