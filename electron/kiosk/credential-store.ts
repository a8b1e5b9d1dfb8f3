import type { Credentials, CredentialsProvider } from '../api/index.ts';
import { credentialsProvider, credentialStore, type VaultChain } from '../credentials/index.ts';
import type { CredentialStatus } from '../../shared/ipc/status.ts';
import { type DeepReadonly, IpcFailure } from '../ipc/index.ts';

/**
 * What the kiosk needs from the credential vault (electron/credentials/): store the integration
 * account (write-only from the UI) and say where it is kept. The API client reads the
 * credentials through a separate `CredentialsProvider`, so nothing on this side can read them.
 */
export interface CredentialStore {
  write(credentials: Credentials): Promise<void>;
  status(): Promise<DeepReadonly<CredentialStatus>>;
}

export interface KioskCredentials {
  readonly store: CredentialStore;
  readonly provider: CredentialsProvider;
}

/**
 * The kiosk's credentials from the vault chain (electron/credentials/): written through the
 * chain's write-only store, read only by the API client's provider.
 */
export function vaultCredentials(chain: VaultChain): KioskCredentials {
  return { store: credentialStore(chain), provider: credentialsProvider(chain) };
}

/**
 * Credentials that come with the process and cannot be changed from the kiosk: the embedded
 * sandbox's public demo account, or `KIOSK_API_EMAIL`/`KIOSK_API_PASSWORD` given by a fleet's
 * service manager. Writing is refused with a reason rather than silently ignored.
 */
export function fixedCredentials(
  credentials: Credentials,
  backend: 'sandbox' | 'environment',
): KioskCredentials {
  const held = { email: credentials.email, password: credentials.password };
  return {
    provider: async () => held,
    store: {
      async write() {
        throw new IpcFailure(
          'CREDENTIALS_READ_ONLY',
          backend === 'sandbox'
            ? 'the demo kiosk uses the sandbox account; configure a real API base URL to set credentials'
            : 'the credentials come from the environment (KIOSK_API_EMAIL / KIOSK_API_PASSWORD); change them there',
        );
      },
      async status() {
        return { configured: true, backend, writable: false, problem: null };
      },
    },
  };
}
