import type { Logger } from '../logging/index.ts';
import {
  fixedCredentials,
  type KioskCredentials,
  setupRequiredCredentials,
} from './credential-store.ts';
import {
  chooseService,
  NO_SERVICE_BASE_URL,
  type ServiceChoice,
  type ServiceChoiceOptions,
} from './service-choice.ts';

/** The embedded sandbox, started when no real base URL is configured (the demo kiosk). */
export interface EmbeddedSandbox {
  readonly baseUrl: string;
  readonly accounts: readonly { readonly email: string; readonly password: string }[];
  close(): Promise<void>;
}

export interface StartDecisionOptions extends Omit<ServiceChoiceOptions, 'sandboxAvailable'> {
  /** Starts the embedded sandbox (demo); absent: this build has none. */
  readonly startSandbox?: () => Promise<EmbeddedSandbox>;
  /** The credentials for a real API (the deployment's); asked only when the choice is one. */
  readonly apiCredentials: () => KioskCredentials;
  /** The administrator PIN the deployment set. */
  readonly adminPin?: string;
  /** A public PIN for the demo only: never in force on a real API, nor locked on setup. */
  readonly demoAdminPin?: string;
  readonly logger?: Logger;
}

/** What a kiosk start runs on, decided once for both hosts. */
export interface StartDecision {
  readonly choice: ServiceChoice;
  readonly demo: boolean;
  /** Started for the demo; the host closes it after the services. */
  readonly sandbox: EmbeddedSandbox | undefined;
  readonly baseUrl: string;
  readonly credentials: KioskCredentials;
  readonly adminPin: string | undefined;
  /** For setup: the sandbox may be chosen (never when locked on setup: the next start would lock again). */
  readonly sandboxAvailable: boolean;
  /** Locked on setup there is nothing to probe, synchronise or send: the services stay stopped. */
  readonly startServices: boolean;
}

/**
 * The start-up decision both hosts share (electron/host/browser-main.ts, kiosk-integration.ts):
 * the service (`chooseService`), then its credentials and PIN: the demo sandbox with its public
 * account and PIN, a kiosk locked on setup with no credentials and a base URL nothing listens on,
 * or the deployment's API with the deployment's credentials.
 */
export async function decideStart(options: StartDecisionOptions): Promise<StartDecision> {
  const { startSandbox } = options;
  const choice = await chooseService({ ...options, sandboxAvailable: startSandbox !== undefined });
  const common = { choice, startServices: choice.kind !== 'setup-required' };
  if (choice.kind === 'demo') {
    const sandbox = await startSandbox!();
    const account = sandbox.accounts[0];
    if (account === undefined) {
      await sandbox.close();
      throw new Error('the embedded sandbox has no account');
    }
    return {
      ...common,
      demo: true,
      sandbox,
      baseUrl: sandbox.baseUrl,
      credentials: fixedCredentials({ ...account, origin: sandbox.baseUrl }, 'sandbox'),
      adminPin: options.adminPin ?? options.demoAdminPin,
      sandboxAvailable: true,
    };
  }
  if (choice.kind === 'setup-required') {
    return {
      ...common,
      demo: false,
      sandbox: undefined,
      baseUrl: NO_SERVICE_BASE_URL,
      credentials: setupRequiredCredentials(choice.configured, choice.reason),
      adminPin: options.adminPin,
      sandboxAvailable: false,
    };
  }
  return {
    ...common,
    demo: false,
    sandbox: undefined,
    baseUrl: choice.baseUrl,
    credentials: options.apiCredentials(),
    adminPin: options.adminPin,
    sandboxAvailable: startSandbox !== undefined,
  };
}
