import { ApiBaseUrl } from '../../shared/ipc/status.ts';
import type { ConfiguredCredentials } from '../credentials/index.ts';
import { type Logger, silentLogger } from '../logging/index.ts';
import type { SetupRequiredReason } from './credential-store.ts';
import { savedApiBaseUrl } from './settings-store.ts';

/**
 * The base URL of a kiosk locked on setup: a loopback port nothing can listen on, so not even a
 * health probe leaves the machine. No credentials go with it (`setupRequiredCredentials`).
 */
export const NO_SERVICE_BASE_URL = 'http://127.0.0.1:0';

/** The service a kiosk start uses. */
export type ServiceChoice =
  /** A Commerce API: the base URL saved in setup, else the deployment's. */
  | { readonly kind: 'api'; readonly baseUrl: string }
  /** The embedded sandbox with its demo data and public account: only where no credentials are. */
  | { readonly kind: 'demo' }
  /** Credentials are configured but there is no API to use them with: locked on setup, saying why. */
  | {
      readonly kind: 'setup-required';
      readonly reason: SetupRequiredReason;
      readonly configured: readonly ConfiguredCredentials[];
    };

export interface ServiceChoiceOptions {
  /** Where the settings file is (an administrator's saved base URL). */
  readonly settingsDir: string;
  /** The deployment's base URL (KIOSK_API_BASE_URL, the integrator's `baseUrl`), checked. */
  readonly baseUrl: string | undefined;
  /** This build can start the embedded sandbox. */
  readonly sandboxAvailable: boolean;
  /** Where credentials are configured; asked only when the answer could be the demo. */
  readonly findCredentials: () => Promise<readonly ConfiguredCredentials[]>;
  readonly logger?: Logger;
}

/**
 * The service of this start: the base URL an administrator saved in setup, else the
 * deployment's, else the demo sandbox (or the sandbox setup chose, when this build has one). The
 * demo never runs where credentials are configured: its PIN is public and with it setup could
 * point the next start anywhere, credentials included; such a kiosk starts locked on setup.
 */
export async function chooseService(options: ServiceChoiceOptions): Promise<ServiceChoice> {
  const logger = options.logger ?? silentLogger;
  const saved = savedApiBaseUrl(options.settingsDir, logger);
  if (saved !== undefined && saved !== null) return { kind: 'api', baseUrl: saved };
  let reason: SetupRequiredReason;
  if (saved === null && options.sandboxAvailable) {
    reason = 'sandbox-chosen';
  } else {
    if (saved === null) logger.warn('kiosk.host.saved_sandbox_unavailable', {});
    if (options.baseUrl !== undefined) return { kind: 'api', baseUrl: options.baseUrl };
    if (!options.sandboxAvailable) {
      throw new RangeError('no baseUrl and no embedded sandbox: give one of them');
    }
    reason = 'no-base-url';
  }
  const configured = await options.findCredentials();
  if (configured.length === 0) return { kind: 'demo' };
  logger.warn('kiosk.host.setup_required', {
    reason,
    sources: configured.map((entry) => entry.source),
  });
  return { kind: 'setup-required', reason, configured };
}

/**
 * A deployment's base URL (`what` names where it came from, for the error), checked against the
 * one base-URL rule; empty is none. Throws a RangeError saying what to fix.
 */
export function deploymentBaseUrl(value: string | undefined, what: string): string | undefined {
  if (value === undefined || value === '') return undefined;
  const parsed = ApiBaseUrl.safeParse(value);
  if (!parsed.success) {
    throw new RangeError(`${what}: ${parsed.error.issues.at(-1)?.message ?? 'not a base URL'}`);
  }
  return parsed.data;
}
