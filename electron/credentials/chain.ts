import { type ResolvedVaultConfig, type VaultConfig, resolveVaultConfig } from './config.ts';
import { InvalidVaultConfig, NoVaultAvailable, VaultUnavailable } from './errors.ts';
import { errorSummary } from './error-text.ts';
import { KeytarVault } from './keytar-vault.ts';
import { ProvisionedFileVault } from './provisioned-file-vault.ts';
import type { SafeStorageApi } from './safe-storage-api.ts';
import { SafeStorageVault } from './safe-storage-vault.ts';
import type { CredentialVault, SkippedVault, VaultName } from './vault.ts';

/** What the backends need from their host; everything optional has a working default. */
export interface VaultDeps {
  /** Electron's `safeStorage`, from the Electron host only; absent in kioskctl and tests. */
  readonly safeStorage?: SafeStorageApi | undefined;
  /** Loads keytar; `import('keytar')` by default. */
  readonly loadKeytar?: () => Promise<unknown>;
  readonly keytarTimeoutMs?: number;
  readonly platform?: NodeJS.Platform;
  /** The environment libsecret sees; process.env by default. */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

export interface VaultResolution {
  /** The first usable backend: where credentials are read from and written to. */
  readonly vault: CredentialVault;
  /** The backends before it, and why each was passed over. */
  readonly skipped: readonly SkippedVault[];
  /** A weakness the configuration accepted (plaintext allowed); shown to administrators. */
  readonly warning: string | undefined;
}

export interface VaultChain {
  readonly backends: readonly CredentialVault[];
  /** A single backend was forced by the configuration. */
  readonly forced: boolean;
  /**
   * The first usable backend. Asked again on every call, not cached: a keyring unlocked or a
   * file provisioned since is picked up, and each call costs one status probe per backend tried.
   * Throws NoVaultAvailable (every reason) or, when a backend refuses for a reason an
   * administrator must fix (an insecure provisioned file), its VaultUnavailable.
   */
  resolve(): Promise<VaultResolution>;
}

/** The chain a configuration describes. Throws InvalidVaultConfig on a bad configuration. */
export function createVaultChain(config: VaultConfig, deps: VaultDeps = {}): VaultChain {
  const resolved = resolveVaultConfig(config);
  const backends = resolved.order.map((name) => createBackend(name, resolved, deps));
  return vaultChainOf(backends, { forced: resolved.forced });
}

/** A chain over given backends (an integrator's own, tests). */
export function vaultChainOf(
  backends: readonly CredentialVault[],
  { forced = false }: { forced?: boolean } = {},
): VaultChain {
  return {
    backends,
    forced,
    async resolve() {
      const skipped: SkippedVault[] = [];
      for (const vault of backends) {
        let status;
        try {
          status = await vault.status();
        } catch (error) {
          // status() is not supposed to throw; a backend that does is unusable, not fatal.
          status = {
            available: false as const,
            code: 'KEYCHAIN_ERROR' as const,
            reason: `status check failed (${errorSummary(error)})`,
            blocking: false,
          };
        }
        if (status.available) return { vault, skipped, warning: status.warning };
        if (status.blocking) throw new VaultUnavailable(vault.name, status.code, status.reason);
        skipped.push({ backend: vault.name, code: status.code, reason: status.reason });
      }
      throw new NoVaultAvailable(skipped);
    },
  };
}

/** The first usable backend of a configuration, and why the ones before it were skipped. */
export function resolveVault(config: VaultConfig, deps: VaultDeps = {}): Promise<VaultResolution> {
  return createVaultChain(config, deps).resolve();
}

function createBackend(
  name: VaultName,
  config: ResolvedVaultConfig,
  deps: VaultDeps,
): CredentialVault {
  const platform = deps.platform ?? process.platform;
  switch (name) {
    case 'file':
      // resolveVaultConfig already refuses this; restated for the type checker.
      if (config.provisionedFile === undefined) {
        throw new InvalidVaultConfig('the file backend needs provisionedFile');
      }
      return new ProvisionedFileVault({ path: config.provisionedFile, platform });
    case 'keytar':
      return new KeytarVault({
        ...(deps.loadKeytar ? { load: deps.loadKeytar } : {}),
        ...(deps.keytarTimeoutMs !== undefined ? { timeoutMs: deps.keytarTimeoutMs } : {}),
        ...(deps.env ? { env: deps.env } : {}),
        platform,
      });
    case 'safe-storage':
      return new SafeStorageVault({
        safeStorage: deps.safeStorage,
        dataDir: config.dataDir,
        allowPlaintext: config.allowPlaintext,
        platform,
      });
  }
}
