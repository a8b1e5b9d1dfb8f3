import type { CredentialsProvider } from '../api/index.ts';
import type { VaultChain } from './chain.ts';
import { CredentialsMissing, CredentialsUnbound } from './errors.ts';
import { normaliseOrigin } from './stored-credentials.ts';
import type { Credentials, VaultName } from './vault.ts';

export interface CredentialsBinding {
  /**
   * Where credentials that name no origin belong (a provisioned file without `"origin"`, an entry
   * stored before origins were kept): the base URL the kiosk's deployment configured
   * (KIOSK_API_BASE_URL, the integrator's `baseUrl`), never one saved in setup, which a PIN can
   * change. Undefined: such credentials are refused (`CredentialsUnbound`).
   */
  readonly defaultOrigin: string | undefined;
}

/**
 * The API client's `CredentialsProvider` over a vault chain: the client calls it on every token
 * issue, so credentials changed in the vault are used from the next token on, and the password
 * is held only for one `POST /auth`. The credentials always carry their origin, so the client
 * sends them to that origin only. Throws `CredentialsMissing` when the vault holds nothing,
 * `CredentialsUnbound` when they belong nowhere, and the vault's own typed errors when it cannot
 * be used.
 */
export function credentialsProvider(
  chain: VaultChain,
  binding: CredentialsBinding,
): CredentialsProvider {
  return async () => {
    const { vault } = await chain.resolve();
    const credentials = await vault.read();
    if (credentials === undefined) throw new CredentialsMissing(vault.name);
    return bound(credentials, binding, vault.name);
  };
}

/** The credentials with their origin: their own, else the deployment's; refused without one. */
export function bound(
  credentials: Credentials,
  { defaultOrigin }: CredentialsBinding,
  backend: VaultName | null,
): Credentials & { readonly origin: string } {
  const origin = credentials.origin ?? defaultOrigin;
  if (origin === undefined) throw new CredentialsUnbound(backend);
  return {
    email: credentials.email,
    password: credentials.password,
    origin: normaliseOrigin(origin),
  };
}
