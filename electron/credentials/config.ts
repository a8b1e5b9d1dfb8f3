import { isAbsolute } from 'node:path';
import { z } from 'zod';
import { InvalidVaultConfig } from './errors.ts';
import { type VaultName, vaultNames } from './vault.ts';

/**
 * Where the kiosk looks for its credentials. Without `vault` the backends are tried in `order`
 * and the first usable one is used; `vault` forces one backend (then its unavailability is an
 * error, never a fallback).
 */
export const VaultConfig = z.strictObject({
  /** Force one backend. */
  vault: z.enum(vaultNames).optional(),
  /** The chain, first usable wins. Default: file (when `provisionedFile` is set), keytar, safe-storage. */
  order: z
    .array(z.enum(vaultNames))
    .min(1)
    .refine((order) => new Set(order).size === order.length, 'names a backend twice')
    .optional(),
  /** The provisioned file of a managed fleet (absolute path). */
  provisionedFile: z
    .string()
    .min(1)
    .refine((path) => isAbsolute(path), 'must be an absolute path')
    .optional(),
  /** The kiosk's data directory: the safeStorage file lives there. */
  dataDir: z.string().min(1).optional(),
  /**
   * Lets the safeStorage backend store credentials without real encryption (Linux `basic_text`,
   * or no encryption at all). Only an administrator who knows the kiosk has no keyring sets this.
   */
  allowPlaintext: z.boolean().optional(),
});
export type VaultConfig = z.input<typeof VaultConfig>;

export interface ResolvedVaultConfig {
  /** The backends to try, in order. */
  readonly order: readonly VaultName[];
  /** True when `vault` named a single backend. */
  readonly forced: boolean;
  readonly provisionedFile: string | undefined;
  readonly dataDir: string | undefined;
  readonly allowPlaintext: boolean;
}

export const defaultVaultOrder: readonly VaultName[] = ['file', 'keytar', 'safe-storage'];

/** Checks a configuration (from an integrator, a config file, flags); throws InvalidVaultConfig. */
export function resolveVaultConfig(input: unknown): ResolvedVaultConfig {
  const parsed = VaultConfig.safeParse(input ?? {});
  if (!parsed.success) {
    throw new InvalidVaultConfig(
      parsed.error.issues
        .map(
          (issue) =>
            `${issue.path.length > 0 ? issue.path.join('.') : '(config)'}: ${issue.message}`,
        )
        .join('; '),
    );
  }
  const config = parsed.data;
  if (config.vault !== undefined && config.order !== undefined) {
    throw new InvalidVaultConfig(
      'vault forces one backend and order lists a chain: give one or the other',
    );
  }
  let order: readonly VaultName[];
  if (config.vault !== undefined) {
    order = [config.vault];
  } else if (config.order !== undefined) {
    order = config.order;
  } else {
    // The provisioned file is part of the default chain only where a fleet configured one.
    order = defaultVaultOrder.filter(
      (name) => name !== 'file' || config.provisionedFile !== undefined,
    );
  }
  if (order.includes('file') && config.provisionedFile === undefined) {
    throw new InvalidVaultConfig(
      'the file backend needs provisionedFile, the path of the provisioned file',
    );
  }
  if (config.vault === 'safe-storage' && config.dataDir === undefined) {
    throw new InvalidVaultConfig('the safe-storage backend needs dataDir, where its file is kept');
  }
  return {
    order,
    forced: config.vault !== undefined,
    provisionedFile: config.provisionedFile,
    dataDir: config.dataDir,
    allowPlaintext: config.allowPlaintext ?? false,
  };
}
