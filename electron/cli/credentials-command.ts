import { CredentialsRejected, isCommerceApiError } from '../api/index.ts';
import { type IntegrationProfile, viewOf } from '../../shared/profile/index.ts';
import {
  checkCredentials,
  cliVaultConfig,
  createVaultChain,
  type Credentials,
  type CredentialsOverview,
  credentialsProvider,
  describeCredentials,
  isVaultError,
  PasswordEntryAborted,
  type PasswordStream,
  readPassword,
  scrubCredentials,
  type VaultChain,
  type VaultDeps,
  VaultReadOnly,
  VaultUnavailable,
} from '../credentials/index.ts';
import type { Logger } from '../logging/index.ts';
import { apiBaseUrl, buildClient } from './api-connection.ts';
import {
  CommandError,
  type CommandLine,
  type Failure,
  type GlobalFlags,
  type Io,
  describeFailure,
  exitCodeFor,
  exitCodes,
  loggerFor,
  parseFlags,
  refuseFlagsBeyond,
  runCommand,
} from './command.ts';
import { setupProfileOf } from './setup-settings.ts';

/**
 * `kioskctl credentials set|status|clear`: the integration account in the kiosk's vault, from a
 * technician's shell. The password is read from stdin (never a flag: flags end up in shell
 * history and `ps`), and no output ever holds the e-mail or the password.
 */

export const credentialsExitCodes = {
  ...exitCodes,
  /** Password entry aborted (Ctrl-C), as a shell reports SIGINT. */
  aborted: 130,
} as const;

export const credentialsUsage = `usage: kioskctl [global flags] credentials <command> [vault flags]
  set --email <e-mail>   store the integration account; the password is read from stdin
                         (typed without echo on a terminal, one line when piped); with a
                         base URL, bound to that API's origin: never sent to another
  status                 which backend holds the credentials (never their values) and, with a
                         base URL, whether POST /auth accepts them
  clear                  remove the credentials from the backend in use

vault flags:
  --vault keytar|safe-storage|file   force one backend (or env KIOSK_VAULT); default: the chain
                                     provisioned file (when configured), OS keychain, safeStorage
  --provisioned-credentials <path>   the fleet's provisioned file (or env KIOSK_PROVISIONED_CREDENTIALS)

global flags it uses (all of them: kioskctl --help):
  --data-dir <dir>                   the kiosk's data directory (or env KIOSK_DATA_DIR)
  --base-url <url>                   the Commerce API (or env KIOSK_API_BASE_URL), for set and status
  --verbose                          redacted JSON log lines of the API client on stderr
  (--credentials and --cups-server are accepted and ignored: this command manages the vault)

exit codes: 0 ok, 1 unexpected, 2 refused locally (no usable vault, nothing stored, read-only),
            3 POST /auth refused the credentials, 4 network or timeout, 5 contract violation,
            130 password entry aborted
`;

export interface CredentialsCommandContext {
  readonly io: Io;
  /** Where `set` reads the password; process.stdin by default. */
  readonly stdin?: PasswordStream;
  /** A chain to use instead of the one the flags and environment describe. */
  readonly vault?: VaultChain;
  readonly vaultDeps?: VaultDeps;
}

const options = {
  vault: { type: 'string' },
  'provisioned-credentials': { type: 'string' },
  email: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

const commandFlags: Readonly<Record<string, readonly string[]>> = {
  set: ['email'],
  status: [],
  clear: [],
};
const vaultFlags = ['vault', 'provisioned-credentials'];

/** Runs `kioskctl credentials <command> ...` (`argv` is kioskctl's, as typed). */
export function runCredentialsCommand(
  argv: readonly string[],
  context: CredentialsCommandContext,
): Promise<number> {
  // Whatever credentials this run handles; every line printed is scrubbed of them.
  const seen: { credentials?: Credentials } = {};
  const print = (text: string) => context.io.stdout(scrubCredentials(text, seen.credentials));
  return runCommand(
    argv,
    context.io,
    (line) => run(line, context, seen, print),
    (error) => {
      const failure = describeCredentialsFailure(error);
      return { ...failure, message: scrubCredentials(failure.message, seen.credentials) };
    },
  );
}

async function run(
  { globals, args }: CommandLine,
  context: CredentialsCommandContext,
  seen: { credentials?: Credentials },
  print: (text: string) => void,
): Promise<number> {
  const { io } = context;
  const { values, positionals } = parseFlags(args, options, 'kioskctl credentials --help');
  if (values.help) {
    io.stdout(credentialsUsage);
    return credentialsExitCodes.ok;
  }
  const [command, ...rest] = positionals;
  if (command === undefined || !Object.hasOwn(commandFlags, command)) {
    throw new CommandError(
      'USAGE',
      command === undefined
        ? 'missing credentials command: set, status or clear (kioskctl credentials --help)'
        : `unknown credentials command "${command}" (set, status, clear)`,
    );
  }
  refuseFlagsBeyond(values, [...vaultFlags, ...commandFlags[command]!], `credentials ${command}`);
  if (rest.length > 0) throw new CommandError('USAGE', `unexpected argument "${rest[0]}"`);

  const chain = context.vault ?? chainFromFlags(values, globals, io, context.vaultDeps);
  switch (command) {
    case 'set':
      return set(chain, values.email, apiBaseUrl(globals, io.env), context, seen, print);
    case 'status':
      return status(chain, apiBaseUrl(globals, io.env), {
        print,
        seen,
        logger: loggerFor(globals, io, 'kioskctl.credentials'),
        profile: setupProfileOf(globals, io.env).profile,
      });
    default:
      return clear(chain, print);
  }
}

function chainFromFlags(
  values: { vault?: string; 'provisioned-credentials'?: string },
  globals: GlobalFlags,
  io: Io,
  deps: VaultDeps | undefined,
): VaultChain {
  const config = cliVaultConfig(
    {
      vault: values.vault,
      provisionedFile: values['provisioned-credentials'],
      dataDir: globals.dataDir,
    },
    io.env,
  );
  if (config === 'none') {
    throw new CommandError('USAGE', 'the vault is "none": there is no vault to manage');
  }
  return createVaultChain(config, deps);
}

async function set(
  chain: VaultChain,
  email: string | undefined,
  baseUrl: string | undefined,
  context: CredentialsCommandContext,
  seen: { credentials?: Credentials },
  print: (text: string) => void,
): Promise<number> {
  if (email === undefined || email.trim() === '') {
    throw new CommandError('USAGE', 'credentials set needs --email <e-mail>');
  }
  seen.credentials = { email, password: '' };
  // The backend is settled before the password is asked: no one types a secret for nothing.
  const { vault, warning } = await chain.resolve();
  if (vault.readOnly) throw new VaultReadOnly(vault.name, vault.location);
  const password = await readPassword(context.stdin ?? process.stdin, {
    prompt: (text) => context.io.stderr(text),
  });
  seen.credentials = { email, password };
  // Bound to the API named (--base-url, KIOSK_API_BASE_URL): never sent to another. Without one,
  // the kiosk binds them to the base URL its deployment configures.
  const credentials = checkCredentials({
    email,
    password,
    ...(baseUrl === undefined ? {} : { origin: new URL(baseUrl).origin }),
  });
  await vault.write(credentials);
  print(
    `${JSON.stringify({ backend: vault.name, stored: true, ...(warning !== undefined ? { warning } : {}) })}\n`,
  );
  return credentialsExitCodes.ok;
}

type AuthCheck =
  | { readonly checked: false; readonly reason: string }
  | {
      readonly checked: true;
      readonly accepted: true;
      readonly expiresAt: string | null;
      readonly scopes: readonly string[] | null;
      readonly apiVersion: string | null;
    }
  | {
      readonly checked: true;
      /** false: POST /auth refused them; null: no answer (network, timeout...). */
      readonly accepted: false | null;
      readonly error: {
        readonly code: string;
        readonly status: number | null;
        readonly message: string;
      };
    };

async function status(
  chain: VaultChain,
  baseUrl: string | undefined,
  {
    print,
    seen,
    logger,
    profile,
  }: {
    print: (text: string) => void;
    seen: { credentials?: Credentials };
    logger: Logger;
    profile: IntegrationProfile;
  },
): Promise<number> {
  const overview = await describeCredentials(chain);
  let auth: AuthCheck;
  let exitCode: number = credentialsExitCodes.ok;
  if (!overview.configured) {
    auth = { checked: false, reason: 'no stored credentials to check' };
    exitCode = credentialsExitCodes.invalidRequest;
  } else if (baseUrl === undefined || baseUrl === '') {
    auth = {
      checked: false,
      reason: 'no API base URL: pass --base-url <url> or set KIOSK_API_BASE_URL',
    };
  } else {
    ({ auth, exitCode } = await checkAuth(chain, baseUrl, seen, logger, profile));
  }
  print(`${JSON.stringify(report(overview, auth))}\n`);
  return exitCode;
}

/** POST /auth through the kiosk's own client and provider, then GET /v1/ping for the version. */
async function checkAuth(
  chain: VaultChain,
  baseUrl: string,
  seen: { credentials?: Credentials },
  logger: Logger,
  profile: IntegrationProfile,
): Promise<{ auth: AuthCheck; exitCode: number }> {
  // Credentials that name no API are tried on the one given here; others only on their own.
  const provider = credentialsProvider(chain, { defaultOrigin: new URL(baseUrl).origin });
  const client = buildClient({
    baseUrl,
    credentials: async () => (seen.credentials = await provider()),
    logger,
    timeouts: { responseMs: 15_000 },
  });
  try {
    const session = await client.authenticate();
    let apiVersion: string | null = null;
    try {
      apiVersion = viewOf(profile, 'ping', await client.ping()).version;
    } catch {
      // The version is a courtesy; whether the credentials are accepted is already known.
    }
    return {
      auth: {
        checked: true,
        accepted: true,
        expiresAt: session.expiresAt,
        scopes: session.scopes,
        apiVersion,
      },
      exitCode: credentialsExitCodes.ok,
    };
  } catch (error) {
    if (!isCommerceApiError(error)) throw error;
    const refused = error instanceof CredentialsRejected && error.status !== undefined;
    return {
      auth: {
        checked: true,
        accepted: refused ? false : null,
        error: { code: error.code, status: error.status ?? null, message: error.message },
      },
      exitCode: exitCodeFor(error),
    };
  }
}

function report(overview: CredentialsOverview, auth: AuthCheck) {
  return {
    backend: overview.backend,
    location: overview.location,
    stored: overview.configured,
    writable: overview.writable,
    problem: overview.problem,
    warning: overview.warning,
    skipped: overview.skipped,
    auth,
  };
}

async function clear(chain: VaultChain, print: (text: string) => void): Promise<number> {
  const { vault } = await chain.resolve();
  if (vault.readOnly) throw new VaultReadOnly(vault.name, vault.location);
  await vault.clear();
  print(`${JSON.stringify({ backend: vault.name, cleared: true })}\n`);
  return credentialsExitCodes.ok;
}

/** Password entry aborted, and the vault's own problems; the others the kioskctl way. */
function describeCredentialsFailure(error: unknown): Failure {
  if (error instanceof PasswordEntryAborted) {
    return {
      code: error.code,
      status: null,
      message: error.message,
      exitCode: credentialsExitCodes.aborted,
    };
  }
  if (isVaultError(error)) {
    // The specific cause (NO_SECRET_SERVICE, INSECURE_PERMISSIONS...) is what a script branches on.
    const code = error instanceof VaultUnavailable ? error.problem : error.code;
    return {
      code,
      status: null,
      message: error.message,
      exitCode: credentialsExitCodes.invalidRequest,
    };
  }
  return describeFailure(error);
}
