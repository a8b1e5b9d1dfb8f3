import type { KioskStatus, statusMessages } from '../../../shared/ipc/status.ts';
import type { CommerceApiClient } from '../../api/index.ts';
import type { KioskHandlers } from '../../ipc/index.ts';
import type { CredentialStore } from '../credential-store.ts';
import { packageVersion } from '../../package-version.ts';

export interface StatusHandlerDeps {
  readonly client: Pick<CommerceApiClient, 'connectivity' | 'serviceClock'>;
  readonly credentials: Pick<CredentialStore, 'status'>;
  /**
   * Staff asked and the service answers: what waited in the outbox goes at once. (A probe's own
   * finding waits for this kiosk's moment of the back-online window; staff at the counter do not.)
   */
  readonly sender?: { liftBackoff(): void };
  /** What this run is: fixed when the kiosk starts. */
  readonly run: {
    readonly demo: boolean;
    readonly host: KioskStatus['host'];
    readonly apiOrigin: string;
    readonly versions:
      { readonly electron?: string | null; readonly chrome?: string | null } | undefined;
    readonly startedAt: string;
  };
}

/** This build's version (package.json): status lines, metrics. */
export const APP_VERSION = packageVersion();

/**
 * What the status bar shows: connectivity, demo mode, versions, where the credentials are, and
 * for the technician the service's clock against the kiosk's with the steps this run saw.
 */
export function statusHandlers({
  client,
  credentials,
  sender,
  run,
}: StatusHandlerDeps): Pick<KioskHandlers, keyof typeof statusMessages> {
  return {
    getStatus: async () => ({
      connectivity: client.connectivity.state,
      demo: run.demo,
      host: run.host,
      apiOrigin: run.apiOrigin,
      versions: {
        app: APP_VERSION,
        node: process.versions.node,
        electron: run.versions?.electron ?? null,
        chrome: run.versions?.chrome ?? null,
        api: 'v1',
      },
      // Judged against the API this run uses: credentials of another are never sent to it.
      credentials: await credentials.status(run.apiOrigin),
      startedAt: run.startedAt,
      clock: client.serviceClock.status(),
    }),
    checkConnectivity: async () => {
      const connectivity = await client.connectivity.check();
      if (connectivity === 'online') sender?.liftBackoff();
      return { connectivity };
    },
  };
}
