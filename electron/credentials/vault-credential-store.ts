import type { VaultChain } from './chain.ts';
import {
  type CredentialsOverview,
  type DescribeOptions,
  describeCredentials,
} from './credential-status.ts';
import { VaultReadOnly } from './errors.ts';
import { checkCredentials } from './stored-credentials.ts';
import type { Credentials } from './vault.ts';

/**
 * The write-only face of the vault for the setup screen (IPC `setCredentials`) and its status:
 * credentials go in, only where they are kept (and which API they belong to) comes out. Pair it
 * with `credentialsProvider(chain, binding)` for the API client; nothing here can read them back.
 */
export interface VaultCredentialStore {
  /**
   * Stores in the backend in use, with the origin they belong to (`credentials.origin`, the API
   * the administrator set them up for); refuses a read-only backend (VaultReadOnly) and bad input.
   */
  write(credentials: Credentials): Promise<void>;
  status(options?: DescribeOptions): Promise<CredentialsOverview>;
}

export function credentialStore(chain: VaultChain): VaultCredentialStore {
  return {
    async write(credentials) {
      const checked = checkCredentials(credentials);
      const { vault } = await chain.resolve();
      if (vault.readOnly) throw new VaultReadOnly(vault.name, vault.location);
      await vault.write(checked);
    },
    status: (options) => describeCredentials(chain, options),
  };
}
