import {
  type ApiClientOptions,
  type CommerceApiClient,
  createApiClient,
  type Credentials,
} from '../api/index.ts';
import {
  CliCredentialsError,
  type CliCredentialsSource,
  loadCliCredentials,
} from '../credentials/index.ts';
import { ApiBaseUrl } from '../../shared/ipc/status.ts';
import { CommandError, type GlobalFlags, type Io, messageOf } from './command.ts';

/**
 * How a kioskctl command reaches the Commerce API: the base URL (`--base-url`, else
 * KIOSK_API_BASE_URL), the integration account (`--credentials`, the environment, the vault: see
 * cli-credentials.ts) and a client of the kiosk's own kind. Whatever is missing or refused is a
 * CONFIG error: nothing was sent.
 */

export type ClientSettings = Omit<ApiClientOptions, 'baseUrl' | 'credentials'>;

export type CreateClient = (options: ApiClientOptions) => CommerceApiClient;

/**
 * The base URL, or undefined when neither the flag nor the environment gives one. The kiosk's
 * one rule (https, or http to this machine only) applies: anything else is a CONFIG error.
 */
export function apiBaseUrl(globals: GlobalFlags, env: Io['env']): string | undefined {
  const fromFlag = globals.baseUrl !== undefined;
  const baseUrl = fromFlag ? globals.baseUrl : env['KIOSK_API_BASE_URL'];
  if (baseUrl === undefined || baseUrl === '') return undefined;
  const parsed = ApiBaseUrl.safeParse(baseUrl);
  if (!parsed.success) {
    throw new CommandError(
      'CONFIG',
      `${fromFlag ? '--base-url' : 'KIOSK_API_BASE_URL'}: ${parsed.error.issues.at(-1)?.message ?? 'not a base URL'}`,
    );
  }
  return parsed.data;
}

/**
 * The global flags naming the service the kiosk app uses: `--base-url`, else the base URL an
 * administrator saved in Setup (`saved`; null, the embedded demo sandbox, is none kioskctl can
 * reach), else KIOSK_API_BASE_URL.
 */
export function withSavedBaseUrl(
  globals: GlobalFlags,
  saved: string | null | undefined,
): GlobalFlags {
  return globals.baseUrl === undefined && typeof saved === 'string'
    ? { ...globals, baseUrl: saved }
    : globals;
}

export function requireApiBaseUrl(globals: GlobalFlags, env: Io['env']): string {
  const baseUrl = apiBaseUrl(globals, env);
  if (baseUrl === undefined) {
    throw new CommandError(
      'CONFIG',
      'no API base URL: pass --base-url <url> or set KIOSK_API_BASE_URL',
    );
  }
  return baseUrl;
}

/**
 * The integration account, bound to the API it belongs to, or a CONFIG error saying where to put
 * it. Credentials that name their origin (the vault's, a `--credentials` file with `"origin"`)
 * go to that origin only: another base URL is refused here (`CREDENTIALS_ORIGIN_MISMATCH`),
 * nothing sent. Those that name none belong to KIOSK_API_BASE_URL, the deployment's, when it is
 * set (so `--base-url` cannot send them elsewhere), else to the base URL of this command.
 */
export async function loadCredentials(globals: GlobalFlags, env: Io['env']): Promise<Credentials> {
  return (await loadCredentialsWithSource(globals, env)).credentials;
}

/** The same, with where they came from (`kioskctl status` names it; never their values). */
export async function loadCredentialsWithSource(
  globals: GlobalFlags,
  env: Io['env'],
): Promise<{ credentials: Credentials; source: CliCredentialsSource }> {
  let credentials: Credentials;
  let source: CliCredentialsSource;
  try {
    ({ credentials, source } = await loadCliCredentials({
      credentialsFile: globals.credentialsFile,
      env,
    }));
  } catch (error) {
    if (error instanceof CliCredentialsError) throw new CommandError('CONFIG', error.message);
    throw error;
  }
  const baseUrl = apiBaseUrl(globals, env);
  const deployed = apiBaseUrl({ ...globals, baseUrl: undefined }, env);
  const origin = credentials.origin ?? originOf(deployed ?? baseUrl);
  if (origin !== undefined && baseUrl !== undefined && origin !== originOf(baseUrl)) {
    throw new CommandError(
      'CREDENTIALS_ORIGIN_MISMATCH',
      `the integration account belongs to ${origin}, not to ${originOf(baseUrl)}: nothing was sent (give the base URL of ${origin}, or store the account of that API with "kioskctl credentials set --base-url <url>")`,
    );
  }
  return { credentials: { ...credentials, origin }, source };
}

function originOf(baseUrl: string | undefined): string | undefined {
  return baseUrl === undefined ? undefined : new URL(baseUrl).origin;
}

/** A client; one the client refuses to build (a base URL that is not http(s)...) is CONFIG. */
export function buildClient(
  options: ApiClientOptions,
  create: CreateClient = createApiClient,
): CommerceApiClient {
  try {
    return create(options);
  } catch (error) {
    throw new CommandError('CONFIG', messageOf(error));
  }
}

/** A client on the configured base URL with the configured account. */
export async function connectApi(
  globals: GlobalFlags,
  env: Io['env'],
  settings: ClientSettings = {},
  create: CreateClient = createApiClient,
): Promise<CommerceApiClient> {
  const baseUrl = requireApiBaseUrl(globals, env);
  const credentials = await loadCredentials(globals, env);
  return buildClient({ ...settings, baseUrl, credentials: async () => credentials }, create);
}
