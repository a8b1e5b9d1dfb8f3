import {
  type ApiClientOptions,
  type CommerceApiClient,
  createApiClient,
  type Credentials,
} from '../api/index.ts';
import { CliCredentialsError, loadCliCredentials } from '../credentials/index.ts';
import { CommandError, type GlobalFlags, type Io, messageOf } from './command.ts';

/**
 * How a kioskctl command reaches the Commerce API: the base URL (`--base-url`, else
 * KIOSK_API_BASE_URL), the integration account (`--credentials`, the environment, the vault: see
 * cli-credentials.ts) and a client of the kiosk's own kind. Whatever is missing or refused is a
 * CONFIG error: nothing was sent.
 */

export type ClientSettings = Omit<ApiClientOptions, 'baseUrl' | 'credentials'>;

export type CreateClient = (options: ApiClientOptions) => CommerceApiClient;

/** The base URL, or undefined when neither the flag nor the environment gives one. */
export function apiBaseUrl(globals: GlobalFlags, env: Io['env']): string | undefined {
  const baseUrl = globals.baseUrl ?? env['KIOSK_API_BASE_URL'];
  return baseUrl === '' ? undefined : baseUrl;
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

/** The integration account, or a CONFIG error saying where to put it. */
export async function loadCredentials(globals: GlobalFlags, env: Io['env']): Promise<Credentials> {
  try {
    return (await loadCliCredentials({ credentialsFile: globals.credentialsFile, env }))
      .credentials;
  } catch (error) {
    if (error instanceof CliCredentialsError) throw new CommandError('CONFIG', error.message);
    throw error;
  }
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
