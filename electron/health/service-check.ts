import type { ConnectivityState } from '../../shared/ipc/gift-cards.ts';
import { type CommerceApiClient, isCommerceApiError } from '../api/index.ts';
import { formatDuration } from './duration.ts';
import type { Problem } from './trouble.ts';

/**
 * The service as this process finds it now: one health probe, one token issue with the
 * configured account (the live sender pauses when the service rejects it), and the offset of the
 * kiosk's clock from the `Date` of those replies. Whether the account may write gift cards cannot
 * be told without a debit (the service reads scopes per request): a held debit tells it.
 */

export interface ErrorNote {
  readonly code: string;
  readonly message: string;
}

export interface ServiceHealth {
  readonly baseUrl: string | null;
  readonly connectivity: ConnectivityState | 'not-configured';
  readonly error: ErrorNote | null;
  /** Service time minus kiosk time, ms, ± uncertaintyMs; null without a dated reply. */
  readonly clock: { readonly offsetMs: number; readonly uncertaintyMs: number } | null;
}

export interface CredentialsHealth {
  /** Where the account came from (`credentials-file`, `environment`, a vault); never its values. */
  readonly source: string | null;
  readonly state: 'accepted' | 'rejected' | 'not-configured' | 'not-checked';
  readonly error: ErrorNote | null;
}

/** What the caller could set up: a client, or why there is none (no base URL, no account). */
export type ServiceAccess =
  | {
      readonly client: CommerceApiClient;
      readonly baseUrl: string;
      readonly credentialsSource: string;
    }
  | { readonly unavailable: ErrorNote; readonly baseUrl: string | null };

export interface ServiceCheck {
  readonly service: ServiceHealth;
  readonly credentials: CredentialsHealth;
  /** The service's time now (ms), the middle of its bounds; null without a dated reply. */
  readonly serviceNow: number | null;
  readonly problems: readonly Problem[];
}

/** Default of `--max-clock-offset`: beyond NTP's reach, within what a misset time zone shows. */
export const DEFAULT_MAX_CLOCK_OFFSET_MS = 5 * 60 * 1000;

export async function checkService(
  access: ServiceAccess,
  maxClockOffsetMs: number,
): Promise<ServiceCheck> {
  if ('unavailable' in access) {
    return {
      service: {
        baseUrl: access.baseUrl,
        connectivity: 'not-configured',
        error: access.unavailable,
        clock: null,
      },
      credentials: {
        source: null,
        state: 'not-configured',
        error: access.unavailable,
      },
      serviceNow: null,
      problems: [
        {
          class: 'configuration',
          code: access.unavailable.code,
          message: access.unavailable.message,
          next: 'give kioskctl the kiosk\'s API and account: --base-url or KIOSK_API_BASE_URL, and --credentials, KIOSK_API_EMAIL/KIOSK_API_PASSWORD or "kioskctl credentials set"',
        },
      ],
    };
  }
  const { client, baseUrl } = access;
  let probeError: ErrorNote | null = null;
  const off = client.connectivity.on('change', (change) => {
    if (change.detail !== 'OK')
      probeError = { code: change.detail, message: `health probe: ${change.detail}` };
  });
  let credentials: CredentialsHealth;
  try {
    await client.connectivity.check();
    credentials =
      client.connectivity.state === 'offline'
        ? { source: access.credentialsSource, state: 'not-checked', error: null }
        : await checkCredentials(client, access.credentialsSource);
  } finally {
    off();
  }
  const connectivity = client.connectivity.state;
  const error = connectivity === 'online' ? null : (credentials.error ?? probeError);
  const clockStatus = client.serviceClock.status();
  const clock =
    clockStatus.offsetMs === null
      ? null
      : { offsetMs: clockStatus.offsetMs, uncertaintyMs: clockStatus.uncertaintyMs ?? 0 };
  const bounds = client.serviceClock.now();
  const serviceNow =
    bounds === undefined ? null : Math.round((bounds.earliest + bounds.latest) / 2);

  const problems: Problem[] = [];
  if (connectivity === 'offline') {
    problems.push({
      class: 'offline',
      code: 'SERVICE_UNREACHABLE',
      message: `no answer from ${baseUrl}${codeIn(error)}`,
      next: `check this kiosk's network, DNS, proxy and firewall (curl ${baseUrl}/health); stored debits wait in the outbox and go out by themselves once the service answers`,
    });
  } else if (connectivity === 'degraded') {
    problems.push({
      class: 'offline',
      code: 'SERVICE_FAILING',
      message: `${baseUrl} answers with errors${codeIn(error)}`,
      next: 'the service is overloaded or failing: nothing to fix on the kiosk; run status again later, and tell the service operator if it lasts',
    });
  }
  if (credentials.state === 'rejected') {
    problems.push({
      class: 'sender-paused',
      code: 'CREDENTIALS_REJECTED',
      message: `the service rejects the integration account (${credentials.source})${codeIn(credentials.error)}: the kiosk sends no debit until it is fixed`,
      next: 'store the account\'s current password: "kioskctl credentials set --email <e-mail>" (or the kiosk\'s setup), then resume sending in setup or with "kioskctl outbox resume"',
    });
  }
  if (clock !== null && Math.abs(clock.offsetMs) - clock.uncertaintyMs > maxClockOffsetMs) {
    problems.push({
      class: 'clock',
      code: 'CLOCK_OFFSET',
      message: `the kiosk's clock is ${formatDuration(Math.abs(clock.offsetMs))} ${clock.offsetMs > 0 ? 'behind' : 'ahead of'} the service's`,
      next: "set the kiosk's time from NTP (timedatectl set-ntp true; timedatectl status): the day report and logs use the kiosk's clock",
    });
  }
  return {
    service: { baseUrl, connectivity, error, clock },
    credentials,
    serviceNow,
    problems,
  };
}

async function checkCredentials(
  client: CommerceApiClient,
  source: string,
): Promise<CredentialsHealth> {
  try {
    await client.authenticate();
    return { source, state: 'accepted', error: null };
  } catch (error) {
    const note = noteOf(error);
    // A rejection by the service has a status; without one the account could not even be read.
    const rejected =
      isCommerceApiError(error) &&
      error.kind === 'CredentialsRejected' &&
      error.status !== undefined;
    return {
      source,
      state: rejected ? 'rejected' : 'not-checked',
      error: note,
    };
  }
}

function noteOf(error: unknown): ErrorNote {
  if (isCommerceApiError(error)) return { code: error.code, message: error.message };
  return { code: 'UNEXPECTED', message: error instanceof Error ? error.message : String(error) };
}

function codeIn(error: ErrorNote | null): string {
  return error === null || error.code === '' ? '' : ` (${error.code})`;
}
