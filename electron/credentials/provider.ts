import type { CredentialsProvider } from '../api/index.ts';
import type { VaultChain } from './chain.ts';
import { CredentialsMissing } from './errors.ts';

/**
 * The API client's `CredentialsProvider` over a vault chain: the client calls it on every token
 * issue, so credentials changed in the vault are used from the next token on, and the password
 * is held only for one `POST /auth`. Throws `CredentialsMissing` when the vault holds nothing, and
 * the vault's own typed errors when it cannot be used.
 */
export function credentialsProvider(chain: VaultChain): CredentialsProvider {
  return async () => {
    const { vault } = await chain.resolve();
    const credentials = await vault.read();
    if (credentials === undefined) throw new CredentialsMissing(vault.name);
    return credentials;
  };
}
