import { VaultUnavailable } from './errors.ts';
import { errorSummary, scrubCredentials } from './error-text.ts';
import { parseStoredCredentials, serializeCredentials } from './stored-credentials.ts';
import type { Credentials, CredentialVault, VaultProblemCode, VaultStatus } from './vault.ts';

/**
 * The OS keychain through keytar: one item, service `commerce-kiosk`, a fixed account, whose
 * secret is the JSON `{email, password}`.
 *
 * keytar is a native module, archived upstream, and on Linux it needs a Secret Service on the
 * session's D-Bus. It is loaded on first use, not at import, so a kiosk without it (a missing or
 * mis-built module, no D-Bus, no keyring) gets a `VaultUnavailable` with the fix, and the chain
 * moves on to the next backend.
 */

export const KEYTAR_SERVICE = 'commerce-kiosk';
export const KEYTAR_ACCOUNT = 'integration-account';

/** The part of keytar this vault uses. */
export interface KeytarApi {
  getPassword(service: string, account: string): Promise<string | null>;
  setPassword(service: string, account: string, password: string): Promise<void>;
  deletePassword(service: string, account: string): Promise<boolean>;
}

export interface KeytarVaultOptions {
  /** Loads the module; `import('keytar')` by default. Whatever it resolves to is checked. */
  readonly load?: () => Promise<unknown>;
  readonly service?: string;
  readonly account?: string;
  /**
   * A locked keyring may wait for an unlock prompt that no one will ever see on a kiosk; after
   * this long the call is reported as a timeout instead of hanging the setup screen.
   */
  readonly timeoutMs?: number;
  /** The environment libsecret sees (to tell "no D-Bus session" apart); process.env by default. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly platform?: NodeJS.Platform;
}

const defaultLoad = (): Promise<unknown> => import('keytar');

export class KeytarVault implements CredentialVault {
  readonly name = 'keytar';
  readonly readOnly = false;
  readonly location: string;
  readonly #load: () => Promise<unknown>;
  readonly #service: string;
  readonly #account: string;
  readonly #timeoutMs: number;
  readonly #env: Readonly<Record<string, string | undefined>>;
  readonly #platform: NodeJS.Platform;
  #module: Promise<KeytarApi> | undefined;

  constructor(options: KeytarVaultOptions = {}) {
    this.#load = options.load ?? defaultLoad;
    this.#service = options.service ?? KEYTAR_SERVICE;
    this.#account = options.account ?? KEYTAR_ACCOUNT;
    this.#timeoutMs = options.timeoutMs ?? 10_000;
    this.#env = options.env ?? process.env;
    this.#platform = options.platform ?? process.platform;
    this.location = `OS keychain, service "${this.#service}", account "${this.#account}"`;
  }

  async status(): Promise<VaultStatus> {
    try {
      // A read is the only probe keytar offers; it changes nothing. It cannot see a keyring that
      // answers reads but has no unlocked collection to write into: write() reports that one.
      await this.#call('probe', (keytar) => keytar.getPassword(this.#service, this.#account));
      return { available: true };
    } catch (error) {
      if (!(error instanceof VaultUnavailable)) throw error;
      return { available: false, code: error.problem, reason: error.reason, blocking: false };
    }
  }

  async read(): Promise<Credentials | undefined> {
    const stored = await this.#call('read', (keytar) =>
      keytar.getPassword(this.#service, this.#account),
    );
    return stored === null ? undefined : parseStoredCredentials(stored, this.name);
  }

  async holdsCredentials(): Promise<boolean> {
    try {
      const stored = await this.#call('probe', (keytar) =>
        keytar.getPassword(this.#service, this.#account),
      );
      return stored !== null;
    } catch {
      // No keychain to ask: nothing in it can be sent either.
      return false;
    }
  }

  async write(credentials: Credentials): Promise<void> {
    const secret = serializeCredentials(credentials);
    await this.#call(
      'write',
      (keytar) => keytar.setPassword(this.#service, this.#account, secret),
      credentials,
    );
  }

  async clear(): Promise<void> {
    await this.#call('clear', (keytar) => keytar.deletePassword(this.#service, this.#account));
  }

  #keytar(): Promise<KeytarApi> {
    this.#module ??= this.#load().then(asKeytarApi, (error: unknown) => {
      throw new VaultUnavailable(
        'keytar',
        'MODULE_LOAD_FAILED',
        `keytar's native module could not be loaded (${errorSummary(error)}): rebuild it for this runtime ("npm rebuild keytar"; on Linux it builds from source with libsecret-1-dev and pkg-config) or use another backend`,
      );
    });
    return this.#module;
  }

  async #call<T>(
    operation: 'probe' | 'read' | 'write' | 'clear',
    action: (keytar: KeytarApi) => Promise<T>,
    credentials?: Credentials,
  ): Promise<T> {
    const keytar = await this.#keytar();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new KeychainTimeout()), this.#timeoutMs);
      timer.unref();
    });
    try {
      return await Promise.race([action(keytar), timeout]);
    } catch (error) {
      throw this.#unavailable(operation, error, credentials);
    } finally {
      clearTimeout(timer);
    }
  }

  #unavailable(operation: string, error: unknown, credentials?: Credentials): VaultUnavailable {
    if (error instanceof KeychainTimeout) {
      return new VaultUnavailable(
        'keytar',
        'TIMEOUT',
        `the OS keychain did not answer the ${operation} within ${this.#timeoutMs / 1000} s (a locked keyring waiting for an unlock prompt?): unlock the keyring at session start (gnome-keyring-daemon --unlock) or use another backend`,
      );
    }
    const summary = scrubCredentials(errorSummary(error), credentials);
    const { code, reason } = classifyKeychainError(summary, this.#platform, this.#env);
    return new VaultUnavailable('keytar', code, reason);
  }
}

class KeychainTimeout extends Error {}

/** What went wrong with the keychain, from libsecret's (or the OS's) message, and the fix. */
export function classifyKeychainError(
  detail: string,
  platform: NodeJS.Platform,
  env: Readonly<Record<string, string | undefined>>,
): { code: VaultProblemCode; reason: string } {
  const noSecretService = {
    code: 'NO_SECRET_SERVICE',
    reason: `no Secret Service on D-Bus (${detail}): install/start gnome-keyring (gnome-keyring-daemon --unlock --components=secrets in the kiosk session's D-Bus) or use another backend`,
  } as const;
  if (
    /autolaunch D-Bus|DBUS_SESSION_BUS_ADDRESS|connect to socket|Could not connect/i.test(detail)
  ) {
    return noSecretService;
  }
  if (/org\.freedesktop\.secrets|ServiceUnknown|not provided by any \.service/i.test(detail)) {
    return {
      code: 'NO_SECRET_SERVICE',
      reason: `nothing provides the Secret Service on this D-Bus session (${detail}): install gnome-keyring (or KWallet with its Secret Service) or use another backend`,
    };
  }
  if (/collection|is locked|prompt/i.test(detail)) {
    return {
      code: 'KEYRING_LOCKED',
      reason: `the keyring has no unlocked default collection (${detail}): start gnome-keyring-daemon with --unlock at session start (it creates and unlocks the login keyring) or use another backend`,
    };
  }
  // GLib translates its messages; without a session bus address the cause is known anyway.
  if (platform === 'linux' && !env['DBUS_SESSION_BUS_ADDRESS']) return noSecretService;
  return { code: 'KEYCHAIN_ERROR', reason: `the OS keychain refused (${detail})` };
}

/** keytar is CommonJS: a dynamic import gives its exports as `default` (and some as named). */
function asKeytarApi(loaded: unknown): KeytarApi {
  const candidates = [
    loaded,
    typeof loaded === 'object' && loaded !== null
      ? (loaded as { default?: unknown }).default
      : undefined,
  ];
  for (const candidate of candidates) {
    if (typeof candidate !== 'object' || candidate === null) continue;
    const api = candidate as Partial<Record<keyof KeytarApi, unknown>>;
    if (
      typeof api.getPassword === 'function' &&
      typeof api.setPassword === 'function' &&
      typeof api.deletePassword === 'function'
    ) {
      return candidate as KeytarApi;
    }
  }
  throw new VaultUnavailable(
    'keytar',
    'MODULE_LOAD_FAILED',
    'the loaded keytar module has no getPassword/setPassword/deletePassword: reinstall keytar 7',
  );
}
