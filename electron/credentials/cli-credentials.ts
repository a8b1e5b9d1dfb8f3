import { resolve } from 'node:path';
import { BoundedFileError, readBoundedFile } from '../profile/index.ts';
import { type VaultChain, type VaultDeps, createVaultChain } from './chain.ts';
import type { VaultConfig } from './config.ts';
import { InvalidCredentials, NoVaultAvailable, backendLabel, isVaultError } from './errors.ts';
import { errnoOf } from './error-text.ts';
import { MAX_STORED_CREDENTIALS_BYTES, checkCredentials } from './stored-credentials.ts';
import type { Credentials, VaultName } from './vault.ts';

/**
 * The one way kioskctl commands find the integration account, in this order:
 * 1. `--credentials <file>`: a JSON file {"email", "password", "origin"?} (a technician's ad-hoc
 *    file; "origin", when given, is the only API it may be sent to);
 * 2. the environment, KIOSK_API_EMAIL and KIOSK_API_PASSWORD (scripts, CI);
 * 3. the kiosk's vault chain: the provisioned file, then the OS keychain (what the kiosk itself
 *    uses; Electron's safeStorage cannot be opened outside the app).
 * The vault chain comes from `--vault`/KIOSK_VAULT (`none` leaves the vault out),
 * `--provisioned-credentials`/KIOSK_PROVISIONED_CREDENTIALS and `--data-dir`/KIOSK_DATA_DIR.
 */

export type CliCredentialsSource = 'credentials-file' | 'environment' | VaultName;

export interface LoadedCliCredentials {
  readonly credentials: Credentials;
  readonly source: CliCredentialsSource;
}

/** A refusal a command reports as its CONFIG error (exit code "refused locally"). */
export class CliCredentialsError extends Error {
  readonly code = 'CONFIG';
  override readonly name = 'CliCredentialsError';
}

export interface CliVaultFlags {
  /** `--vault`: keytar | safe-storage | file | none. */
  readonly vault?: string | undefined;
  /** `--provisioned-credentials <path>`. */
  readonly provisionedFile?: string | undefined;
  /** `--data-dir <dir>`. */
  readonly dataDir?: string | undefined;
}

/** The vault configuration of a kioskctl run, from its flags, then its environment; `none` for no vault. */
export function cliVaultConfig(
  flags: CliVaultFlags,
  env: Readonly<Record<string, string | undefined>>,
): VaultConfig | 'none' {
  const vault = nonEmpty(flags.vault) ?? nonEmpty(env['KIOSK_VAULT']);
  if (vault === 'none') return 'none';
  const provisionedFile =
    nonEmpty(flags.provisionedFile) ?? nonEmpty(env['KIOSK_PROVISIONED_CREDENTIALS']);
  const dataDir = nonEmpty(flags.dataDir) ?? nonEmpty(env['KIOSK_DATA_DIR']);
  // Unchecked here: createVaultChain validates it and names a bad value.
  return {
    ...(vault !== undefined ? { vault: vault as VaultName } : {}),
    // A technician types relative paths; the configuration wants an absolute one.
    ...(provisionedFile !== undefined ? { provisionedFile: resolve(provisionedFile) } : {}),
    ...(dataDir !== undefined ? { dataDir } : {}),
  };
}

export interface CliCredentialsOptions {
  /** `--credentials <file>`. */
  readonly credentialsFile?: string | undefined;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The vault flags of the command, when it has them. */
  readonly vaultFlags?: CliVaultFlags;
  /** The chain to fall back to (tests, a host with its own); by default the one the flags and env describe. */
  readonly vault?: VaultChain | 'none';
  readonly vaultDeps?: VaultDeps;
}

const NO_CREDENTIALS =
  'no credentials: pass --credentials <file>, set KIOSK_API_EMAIL and KIOSK_API_PASSWORD, or store them with "kioskctl credentials set --email <e-mail>"';

export async function loadCliCredentials(
  options: CliCredentialsOptions,
): Promise<LoadedCliCredentials> {
  const { credentialsFile, env } = options;
  if (credentialsFile !== undefined) {
    let text: string;
    try {
      // Bounded and non-blocking: /dev/zero or a FIFO is refused, not read until memory runs out.
      text = (await readBoundedFile(credentialsFile, MAX_STORED_CREDENTIALS_BYTES)).toString(
        'utf8',
      );
    } catch (error) {
      throw new CliCredentialsError(
        `cannot read the credentials file ${credentialsFile} (${error instanceof BoundedFileError ? error.reason : errnoOf(error)})`,
      );
    }
    let candidate: unknown;
    try {
      candidate = JSON.parse(text);
    } catch {
      // JSON.parse's message would quote the file, password included.
      throw new CliCredentialsError(`the credentials file ${credentialsFile} is not JSON`);
    }
    return {
      credentials: checked(candidate, `the credentials file ${credentialsFile}`),
      source: 'credentials-file',
    };
  }
  if (env['KIOSK_API_EMAIL'] !== undefined || env['KIOSK_API_PASSWORD'] !== undefined) {
    return {
      credentials: checked(
        { email: env['KIOSK_API_EMAIL'], password: env['KIOSK_API_PASSWORD'] },
        'KIOSK_API_EMAIL and KIOSK_API_PASSWORD (both needed)',
      ),
      source: 'environment',
    };
  }
  return fromVault(options);
}

async function fromVault(options: CliCredentialsOptions): Promise<LoadedCliCredentials> {
  let chain: VaultChain | 'none';
  try {
    chain =
      options.vault ??
      (() => {
        const config = cliVaultConfig(options.vaultFlags ?? {}, options.env);
        return config === 'none' ? 'none' : createVaultChain(config, options.vaultDeps);
      })();
  } catch (error) {
    if (isVaultError(error)) throw new CliCredentialsError(error.message);
    throw error;
  }
  if (chain === 'none') throw new CliCredentialsError(NO_CREDENTIALS);
  try {
    const { vault } = await chain.resolve();
    const credentials = await vault.read();
    if (credentials === undefined) {
      throw new CliCredentialsError(
        `${NO_CREDENTIALS} (nothing is stored in ${backendLabel(vault.name)})`,
      );
    }
    return { credentials, source: vault.name };
  } catch (error) {
    if (error instanceof NoVaultAvailable) {
      throw new CliCredentialsError(`${NO_CREDENTIALS} (${error.message})`);
    }
    // An unusable vault (an insecure provisioned file, corrupt data) is named, not papered over.
    if (isVaultError(error)) throw new CliCredentialsError(error.message);
    throw error;
  }
}

function checked(candidate: unknown, where: string): Credentials {
  try {
    return checkCredentials(candidate);
  } catch (error) {
    // The reason names the fields, never their values.
    if (error instanceof InvalidCredentials)
      throw new CliCredentialsError(`${where}: ${error.message}`);
    throw error;
  }
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}
