import { writeFile } from 'node:fs/promises';
import type { Operation } from '../../shared/api/operation.ts';
import { type OperationName, operationList, operations } from '../../shared/api/operations.ts';
import type { CommerceApiClient, PdfDocument } from '../api/index.ts';
import type { Logger } from '../logging/index.ts';
import { BoundedFileError, readBoundedFile } from '../profile/index.ts';
import {
  buildClient,
  loadCredentials,
  requireApiBaseUrl,
  withSavedBaseUrl,
} from './api-connection.ts';
import {
  CommandError,
  type CommandLine,
  type GlobalFlags,
  type Io,
  exitCodes,
  loggerFor,
  messageOf,
  parseFlags,
  profileOf,
  profileReport,
  runCommand,
} from './command.ts';
import type { SetupSettings } from './setup-settings.ts';

/** A request body given as `@file`: the API's bodies are a few hundred bytes. */
const MAX_BODY_FILE_BYTES = 1024 * 1024;

/**
 * `kioskctl api`: one contract operation from a technician's shell, through the same client the
 * kiosk uses (validation, token, retries, reply parsing), so what it prints is what the kiosk sees.
 * It is also what `kioskctl` runs without a known command: its usage is kioskctl's.
 */

export const apiUsage = `usage:
  kioskctl [global flags] api <operationId> [--param name=value ...]
           [--body <json>|@<file>] [--idempotency-key <key>] [--out <file>]
  kioskctl api --list
  kioskctl status [--json]   the kiosk's health, what to run first (kioskctl status --help)
  kioskctl catalog|outbox|print|printers|credentials|contract|status ... --help   (the other commands, each with its own help)

global flags, taken by every command (each ignores those it has no use for), before or after its own:
  --base-url      the Commerce API base URL (else the one saved in Setup, else env KIOSK_API_BASE_URL)
  --credentials   a JSON file {"email": "...", "password": "..."} (or env KIOSK_API_EMAIL, KIOSK_API_PASSWORD)
  --data-dir      the kiosk data directory (or env KIOSK_DATA_DIR)
  --cups-server   the CUPS scheduler, host:port (or env KIOSK_CUPS_SERVER)
  --verbose       redacted JSON log lines on stderr (api: with the base URL and profile it used)
  --profile       the integration profile file (else KIOSK_API_PROFILE, else the one saved in Setup)

api flags:
  --param         a path or query parameter of the operation; repeat for several
  --body          the JSON body (replaceCustomer, debitGiftCard)
  --idempotency-key  the Idempotency-Key of debitGiftCard: reuse it to retry the same debit
  --out           where a PDF operation writes the document

exit codes of api: 0 ok, 2 refused locally, 3 API error reply, 4 network or timeout, 5 contract violation
`;

export interface ApiCommandContext {
  readonly io: Io;
}

const options = {
  param: { type: 'string', multiple: true },
  body: { type: 'string' },
  'idempotency-key': { type: 'string' },
  out: { type: 'string' },
  list: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

interface ApiRequest {
  readonly operationId: string | undefined;
  readonly list: boolean;
  readonly params: readonly string[];
  readonly body: string | undefined;
  readonly idempotencyKey: string | undefined;
  readonly out: string | undefined;
}

/** Runs `kioskctl api ...` (`argv` is kioskctl's, as typed); returns the exit code. */
export function runApiCommand(
  argv: readonly string[],
  context: ApiCommandContext,
): Promise<number> {
  return runCommand(argv, context.io, (line) => run(line, context.io));
}

async function run({ globals, name, args }: CommandLine, io: Io): Promise<number> {
  const { values, positionals } = parseFlags(args, options, 'kioskctl --help');
  if (values.help) {
    io.stdout(apiUsage);
    return exitCodes.ok;
  }
  if (name !== 'api') {
    throw new CommandError(
      'USAGE',
      name === undefined
        ? 'missing command (kioskctl --help)'
        : `unknown command "${name}" (commands: api, status, catalog, outbox, print, printers, credentials, contract; kioskctl --help)`,
    );
  }
  const [operationId, ...extra] = positionals;
  if (extra.length > 0) throw new CommandError('USAGE', `unexpected argument "${extra[0]}"`);
  const request: ApiRequest = {
    operationId,
    list: values.list ?? false,
    params: values.param ?? [],
    body: values.body,
    idempotencyKey: values['idempotency-key'],
    out: values.out,
  };
  if (request.list) {
    if (request.operationId !== undefined)
      throw new CommandError('USAGE', '--list takes no operationId');
    io.stdout(formatOperationList());
    return exitCodes.ok;
  }
  return callFromShell(request, globals, io);
}

async function callFromShell(request: ApiRequest, globals: GlobalFlags, io: Io): Promise<number> {
  if (request.operationId === undefined) {
    throw new CommandError(
      'USAGE',
      'missing operationId: kioskctl api <operationId> [--param name=value ...] (or --list)',
    );
  }
  if (!isOperationName(request.operationId)) {
    throw new CommandError(
      'USAGE',
      `unknown operationId "${request.operationId}" (kioskctl api --list shows the 30 operations)`,
    );
  }
  const name = request.operationId;
  const operation: Operation = operations[name];
  const isPdf = 'pdf' in operation.reply;
  if (isPdf && request.out === undefined)
    throw new CommandError('USAGE', `${name} returns a PDF: give --out <file>`);
  if (!isPdf && request.out !== undefined)
    throw new CommandError('USAGE', `--out is for the PDF operations; ${name} prints JSON`);
  if (
    name === 'authenticate' &&
    (request.params.length > 0 ||
      request.body !== undefined ||
      request.idempotencyKey !== undefined)
  ) {
    throw new CommandError(
      'USAGE',
      'authenticate takes no input: it uses the configured credentials',
    );
  }

  // The kiosk app's service: --base-url, else the one saved in Setup, else KIOSK_API_BASE_URL.
  const setup = await setupOf(globals, io);
  const chosen = withSavedBaseUrl(globals, setup?.settings.apiBaseUrl);
  const baseUrl = requireApiBaseUrl(chosen, io.env);
  const input = await buildInput(operation, request);
  const credentials = await loadCredentials(chosen, io.env);
  const logger = loggerFor(globals, io, 'kioskctl');
  logSettings(globals, io.env, logger, baseUrl, setup);
  const client = buildClient({
    baseUrl,
    credentials: async () => credentials,
    logger,
  });
  try {
    const result = await callOperation(client, name, input);
    if (isPdf) {
      const document = result as PdfDocument;
      // Invoices and slips name a customer: readable by the technician's account only.
      await writeFile(request.out!, document.bytes, { mode: 0o600 });
      io.stdout(`${JSON.stringify({ bytes: document.bytes.byteLength, out: request.out })}\n`);
    } else {
      io.stdout(`${JSON.stringify(result, null, 2)}\n`);
    }
    return exitCodes.ok;
  } finally {
    client.close();
  }
}

interface ApiSetup {
  readonly settings: SetupSettings;
  readonly profilePath: string | null | undefined;
}

/**
 * Setup's settings when they can matter: no --base-url and a data directory (--data-dir or
 * KIOSK_DATA_DIR), or --verbose (which says the profile). Loaded only then, so that `api`, the
 * last-resort diagnostic, starts without the rest of the kiosk otherwise.
 */
async function setupOf(globals: GlobalFlags, io: Io): Promise<ApiSetup | undefined> {
  const dataDir = globals.dataDir ?? io.env['KIOSK_DATA_DIR'];
  const given = dataDir !== undefined && dataDir !== '';
  if (!globals.verbose && (globals.baseUrl !== undefined || !given)) return undefined;
  const { setupSettingsOf } = await import('./setup-settings.ts');
  const settings = setupSettingsOf(globals, io.env);
  return { settings, profilePath: settings.profilePath };
}

/**
 * What `api` runs with, as the other commands say it: the service, and the integration profile
 * by the kiosk app's rule. `api` prints the service's reply as it came, so it sends and reads
 * nothing through the profile (a raw call is the last-resort diagnostic): the profile is only
 * said, on the --verbose log, and a profile file that cannot be used does not stop the call.
 */
function logSettings(
  globals: GlobalFlags,
  env: Io['env'],
  logger: Logger,
  baseUrl: string,
  setup: ApiSetup | undefined,
): void {
  if (!globals.verbose) return;
  try {
    const profile = profileReport(profileOf(globals, env, setup?.profilePath));
    logger.info('kioskctl.api.settings', { baseUrl, profile });
  } catch (error) {
    logger.warn('kioskctl.api.settings', { baseUrl, profileError: messageOf(error) });
  }
}

function scopeSummary(operation: Operation): string {
  if (operation.auth === 'none') return '(no token)';
  const parts: string[] = [...operation.scopes.all];
  if (operation.scopes.anyOf) parts.push(`one of ${operation.scopes.anyOf.join('|')}`);
  return parts.length === 0 ? '(token only)' : parts.join(',');
}

export function formatOperationList(): string {
  const rows = operationList.map((operation) => [
    operation.operationId,
    operation.method,
    operation.path,
    scopeSummary(operation),
  ]);
  const widths = [0, 1, 2].map((column) => Math.max(...rows.map((row) => row[column]!.length)));
  return `${rows.map((row) => row.map((cell, column) => (column < 3 ? cell.padEnd(widths[column]!) : cell)).join('  ')).join('\n')}\n`;
}

function isOperationName(name: string): name is OperationName {
  return Object.hasOwn(operations, name);
}

interface OperationInputParts {
  params?: Record<string, string>;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  body?: unknown;
}

async function buildInput(operation: Operation, request: ApiRequest): Promise<OperationInputParts> {
  const input: OperationInputParts = {};
  const pathNames = new Set(Object.keys(operation.params?.shape ?? {}));
  const seen = new Set<string>();
  for (const pair of request.params) {
    const at = pair.indexOf('=');
    if (at <= 0) throw new CommandError('USAGE', `--param expects name=value, got "${pair}"`);
    const name = pair.slice(0, at);
    const value = pair.slice(at + 1);
    if (seen.has(name)) throw new CommandError('USAGE', `--param ${name} is given twice`);
    seen.add(name);
    // Path parameters by their name in the template; every other name is a query parameter,
    // which the operation's strict query schema accepts or refuses.
    if (pathNames.has(name)) (input.params ??= {})[name] = value;
    else (input.query ??= {})[name] = value;
  }
  if (request.idempotencyKey !== undefined)
    input.headers = { 'Idempotency-Key': request.idempotencyKey };
  if (request.body !== undefined) {
    let text = request.body;
    if (text.startsWith('@')) {
      try {
        // Bounded and non-blocking: a FIFO or /dev/zero is refused, not read until memory runs out.
        text = (await readBoundedFile(text.slice(1), MAX_BODY_FILE_BYTES)).toString('utf8');
      } catch (error) {
        throw new CommandError(
          'USAGE',
          `cannot read the body file ${text.slice(1)}${error instanceof BoundedFileError ? ` (${error.reason})` : ''}`,
        );
      }
    }
    try {
      input.body = JSON.parse(text);
    } catch {
      throw new CommandError(
        'USAGE',
        '--body is not valid JSON (use --body \'{"...": ...}\' or --body @file.json)',
      );
    }
  }
  return input;
}

async function callOperation(
  client: CommerceApiClient,
  name: OperationName,
  input: OperationInputParts,
): Promise<unknown> {
  if (name === 'authenticate') return client.authenticate();
  // Every method of the client takes `(input, options)`; the input is checked by its schemas.
  const method = client[name] as unknown as (
    this: CommerceApiClient,
    input: unknown,
  ) => Promise<unknown>;
  return method.call(client, input);
}
