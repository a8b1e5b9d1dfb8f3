import type { Credentials, CredentialsProvider } from '../api/index.ts';
import {
  type ConfiguredCredentials,
  type CredentialsBinding,
  CredentialsUnbound,
  credentialsProvider,
  credentialStore,
  normaliseOrigin,
  originMismatch,
  type VaultChain,
} from '../credentials/index.ts';
import type { CredentialStatus } from '../../shared/ipc/status.ts';
import { type DeepReadonly, IpcFailure } from '../ipc/index.ts';

/**
 * What the kiosk needs from the credential vault (electron/credentials/): store the integration
 * account (write-only from the UI) and say where it is kept and which API it belongs to. The API
 * client reads the credentials through a separate `CredentialsProvider`, so nothing on this side
 * can read them.
 */
export interface CredentialStore {
  /**
   * Stores the account for the API at `credentials.origin` (the one setup is set to use): it is
   * never sent anywhere else. Without an origin (setup chose the demo sandbox) nothing is stored.
   */
  write(credentials: Credentials): Promise<void>;
  /**
   * Where they are kept and which API they belong to. With `expectedOrigin` (the API the kiosk
   * is set to use), credentials of another API carry the problem `CREDENTIALS_ORIGIN_MISMATCH`.
   */
  status(expectedOrigin?: string): Promise<DeepReadonly<CredentialStatus>>;
}

export interface KioskCredentials {
  readonly store: CredentialStore;
  readonly provider: CredentialsProvider;
}

/**
 * The kiosk's credentials from the vault chain (electron/credentials/): written through the
 * chain's write-only store, read only by the API client's provider, bound to the origin they
 * were stored for, else to the deployment's (`binding.defaultOrigin`), else refused.
 */
export function vaultCredentials(chain: VaultChain, binding: CredentialsBinding): KioskCredentials {
  const store = credentialStore(chain);
  return {
    store: {
      async write(credentials) {
        if (credentials.origin === undefined) {
          throw new IpcFailure(
            'API_BASE_URL_REQUIRED',
            'the kiosk is set to use the demo sandbox: save the API base URL first, the account is stored for that API only',
          );
        }
        await store.write(credentials);
      },
      status: (expectedOrigin) => store.status({ binding, expectedOrigin }),
    },
    provider: credentialsProvider(chain, binding),
  };
}

/**
 * Credentials that come with the process and cannot be changed from the kiosk: the embedded
 * sandbox's public demo account, or `KIOSK_API_EMAIL`/`KIOSK_API_PASSWORD` given by a fleet's
 * service manager, bound to `credentials.origin` (KIOSK_API_BASE_URL's). The environment's
 * without an origin are refused, never sent; the sandbox's public account may go unbound (tests).
 * Writing is refused with a reason rather than silently ignored.
 */
export function fixedCredentials(
  credentials: Credentials,
  backend: 'sandbox' | 'environment',
): KioskCredentials {
  const origin = credentials.origin === undefined ? undefined : normaliseOrigin(credentials.origin);
  const held = { email: credentials.email, password: credentials.password, origin };
  const unbound = backend === 'environment' && origin === undefined;
  return {
    provider: async () => {
      if (unbound) throw new CredentialsUnbound(null);
      return held;
    },
    store: {
      async write() {
        throw new IpcFailure(
          'CREDENTIALS_READ_ONLY',
          backend === 'sandbox'
            ? 'the demo kiosk uses the sandbox account; configure a real API base URL to set credentials'
            : 'the credentials come from the environment (KIOSK_API_EMAIL / KIOSK_API_PASSWORD); change them there',
        );
      },
      async status(expectedOrigin) {
        const expected = expectedOrigin === undefined ? undefined : normaliseOrigin(expectedOrigin);
        const unboundProblem = unbound ? new CredentialsUnbound(null) : undefined;
        return {
          configured: true,
          backend,
          writable: false,
          origin: origin ?? null,
          problem:
            unboundProblem !== undefined
              ? { code: unboundProblem.code, message: unboundProblem.message }
              : expected !== undefined && origin !== undefined && origin !== expected
                ? originMismatch(origin, expected)
                : null,
        };
      },
    },
  };
}

/** Why a kiosk with credentials has no service to use them with. */
export type SetupRequiredReason =
  /** Neither the deployment nor setup gave an API base URL. */
  | 'no-base-url'
  /** Setup chose the demo sandbox, which never runs beside real credentials. */
  | 'sandbox-chosen';

/**
 * A kiosk that has credentials but no API base URL: it never falls back to the demo sandbox (its
 * PIN is public and setup could point it anywhere). It starts locked on setup instead, and this
 * says why in its status (`API_BASE_URL_REQUIRED`); nothing ever reads or sends the credentials.
 */
export function setupRequiredCredentials(
  configured: readonly ConfiguredCredentials[],
  reason: SetupRequiredReason,
): KioskCredentials {
  const where = configured.map((entry) => `${entry.source} (${entry.location})`).join(', ');
  const message = `credentials for the Commerce API are configured on this kiosk (${where}), but ${
    reason === 'sandbox-chosen'
      ? 'setup chose the demo sandbox'
      : "no API base URL is (KIOSK_API_BASE_URL, the integrator's baseUrl, or one saved in setup)"
  }: the demo sandbox does not run beside real credentials, and they are sent nowhere. Set KIOSK_API_BASE_URL, or save the API base URL in setup, then restart the kiosk`;
  const problem = { code: 'API_BASE_URL_REQUIRED', message };
  return {
    provider: async () => {
      throw new IpcFailure(problem.code, message);
    },
    store: {
      async write() {
        throw new IpcFailure(problem.code, message);
      },
      async status() {
        return {
          configured: true,
          backend: configured[0]?.source ?? null,
          writable: false,
          origin: null,
          problem,
        };
      },
    },
  };
}
