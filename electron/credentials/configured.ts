import type { VaultChain } from './chain.ts';
import type { VaultName } from './vault.ts';

/** A place where the kiosk would find the integration account's credentials. */
export interface ConfiguredCredentials {
  /**
   * `environment`: KIOSK_API_EMAIL / KIOSK_API_PASSWORD; `integrator`: ready-made credentials
   * given by an embedding app; else the vault backend.
   */
  readonly source: 'environment' | 'integrator' | VaultName;
  /** A path, a keychain entry or the variables' names; never a secret. */
  readonly location: string;
}

/**
 * Every place where credentials are configured for this kiosk: the environment (either variable
 * set counts) and each backend of its vault chain that holds something, usable or not. A kiosk
 * with any of them never runs the demo sandbox, whose PIN is public and whose base URL setup can
 * change: real credentials must never follow it.
 */
export async function findConfiguredCredentials(
  chain: VaultChain | 'none',
  env: Readonly<Record<string, string | undefined>>,
): Promise<readonly ConfiguredCredentials[]> {
  const found: ConfiguredCredentials[] = [];
  if (env['KIOSK_API_EMAIL'] || env['KIOSK_API_PASSWORD']) {
    found.push({ source: 'environment', location: 'KIOSK_API_EMAIL, KIOSK_API_PASSWORD' });
  }
  if (chain === 'none') return found;
  const holding = await Promise.all(chain.backends.map((vault) => vault.holdsCredentials()));
  chain.backends.forEach((vault, index) => {
    if (holding[index]) found.push({ source: vault.name, location: vault.location });
  });
  return found;
}
