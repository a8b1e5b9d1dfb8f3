import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  DEFAULT_MAX_CLOCK_OFFSET_MS,
  DEFAULT_STALE_AFTER_MS,
  collectHealth,
  formatDuration,
  type HealthReport,
  parseDuration,
  type PrinterAccess,
  type ProfileInUse,
  type ServiceAccess,
  statusScreen,
  type TroubleClass,
} from '../health/index.ts';
import { savedSettings } from '../kiosk/index.ts';
import { chooseBackend, isPrintError } from '../printing/index.ts';
import { DATABASE_FILE, openDatabase } from '../storage/index.ts';
import { kioskSchema } from '../schema.ts';
import { buildClient, loadCredentialsWithSource } from './api-connection.ts';
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
import { cupsServerOf } from './print-command.ts';
import { apiBaseUrl, withSavedBaseUrl } from './api-connection.ts';

/**
 * `kioskctl status`: the first command a technician runs on a kiosk. One screen (or `--json`, the
 * same report as one JSON object): the service and the kiosk clock's offset from it, the account
 * and profile in use, the outbox sender, the debits needing attention, the mirror's age, the
 * printers, the last errors; and an exit code per class of trouble. It runs beside the live
 * kiosk: it reads the data directory and checks the service and CUPS itself, and writes nothing.
 */

/**
 * 0 healthy; 2 and 8 keep their kioskctl meaning (a bad flag or a missing configuration; the
 * data directory or database unusable). Each class of trouble has its own code, 20 to 25, and
 * when several hold the most important for money wins, in this order.
 */
export const statusExitCodes = {
  ...exitCodes,
  /** Refused, failed or expired debits staff have not resolved: money not collected. */
  debitAttention: 20,
  /** The sender sends nothing: debits held (400/403), account rejected or lacking gift-cards:write, or no kiosk running while debits wait. */
  senderPaused: 21,
  /** The service does not answer (or answers only errors). */
  offline: 22,
  /** The catalogue mirror is older than --stale-after, or was never synchronised. */
  staleMirror: 23,
  /** The kiosk's printer cannot print (stopped, offline, out of paper, missing), or CUPS is down; a kiosk with no printer configured is not trouble. */
  printer: 24,
  /** The kiosk's clock is further than --max-clock-offset from the service's. */
  clock: 25,
} as const;

const exitCodeOfVerdict: Readonly<Record<TroubleClass | 'healthy', number>> = {
  healthy: statusExitCodes.ok,
  'debit-attention': statusExitCodes.debitAttention,
  'sender-paused': statusExitCodes.senderPaused,
  // No base URL or no account: "missing configuration", kioskctl's 2.
  configuration: statusExitCodes.invalidRequest,
  offline: statusExitCodes.offline,
  'stale-mirror': statusExitCodes.staleMirror,
  printer: statusExitCodes.printer,
  clock: statusExitCodes.clock,
};

export const statusUsage = `usage: kioskctl [global flags] status [--json] [--stale-after <duration>] [--max-clock-offset <duration>]

  One screen on the kiosk's health: the service (--base-url, else the base URL saved in setup,
  else KIOSK_API_BASE_URL) and the clock offset, the account (--credentials, KIOSK_API_EMAIL and
  KIOSK_API_PASSWORD, or the vault) and profile in use, the sender, the debits needing attention,
  the catalogue mirror's age, the printers (CUPS: --cups-server or KIOSK_CUPS_SERVER; the kiosk's
  printer is the one saved in setup, else KIOSK_PRINTER, else the default), the last errors
  (the sync's, the outbox's, and the error lines at the end of KIOSK_LOG when it is set).
  Reads the data directory (--data-dir or KIOSK_DATA_DIR), never writes to it, sends no debit.

  --json                 the whole report as one JSON object on stdout
  --stale-after          mirror age beyond which it is stale (default ${formatDuration(DEFAULT_STALE_AFTER_MS)}); 90s, 30m, 6h, 2d
  --max-clock-offset     kiosk clock offset from the service's beyond which it is trouble (default ${formatDuration(DEFAULT_MAX_CLOCK_OFFSET_MS)})

exit codes (several troubles at once: the first in this list wins):
  20  debits refused, failed or expired and not resolved by staff
  21  the sender is paused: debits held for an administrator (400/403), the account rejected
      or without gift-cards:write, or debits waiting with no kiosk running
   2  not configured (no base URL or no account), or a bad flag
  22  the service is unreachable or answers only errors
  23  the catalogue mirror is stale or was never synchronised
  24  the kiosk's printer cannot print, or the print service is down (a kiosk with no
      printer named and no default printer is healthy: printing "not configured")
  25  the kiosk's clock is off
   0  healthy;  1 unexpected;  8 the data directory or database cannot be used
`;

export interface StatusCommandContext {
  readonly io: Io;
}

const options = {
  json: { type: 'boolean' },
  'stale-after': { type: 'string' },
  'max-clock-offset': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** Runs `kioskctl status` (`argv` is kioskctl's, as typed); returns the exit code. */
export function runStatusCommand(
  argv: readonly string[],
  context: StatusCommandContext,
): Promise<number> {
  return runCommand(argv, context.io, (line) => run(line, context.io));
}

async function run({ globals, args }: CommandLine, io: Io): Promise<number> {
  const { values, positionals } = parseFlags(args, options, 'kioskctl status --help');
  if (values.help) {
    io.stdout(statusUsage);
    return statusExitCodes.ok;
  }
  if (positionals.length > 0)
    throw new CommandError('USAGE', `unexpected argument "${positionals[0]}"`);
  const staleAfterMs = durationFlag(values['stale-after'], '--stale-after', DEFAULT_STALE_AFTER_MS);
  const maxClockOffsetMs = durationFlag(
    values['max-clock-offset'],
    '--max-clock-offset',
    DEFAULT_MAX_CLOCK_OFFSET_MS,
  );
  const cupsServer = cupsServerOf(globals, io.env);
  const dataDir = existingDataDir(globals, io.env);
  const logger = loggerFor(globals, io, 'kioskctl.status');
  const saved = savedSettings(dataDir, logger);
  // The rule every command follows: --profile, KIOSK_API_PROFILE, Setup's, the default.
  const profile: ProfileInUse = profileReport(profileOf(globals, io.env, saved.profilePath));

  const database = openDatabase({ dataDir, schema: kioskSchema });
  let service: ServiceAccess | undefined;
  let printing: PrinterAccess | undefined;
  try {
    service = await serviceAccess(globals, io.env, saved.apiBaseUrl, logger);
    printing = await printerAccess(cupsServer, saved.printer ?? nonEmpty(io.env['KIOSK_PRINTER']));
    const report = await collectHealth({
      database,
      service,
      printing,
      profile,
      staleAfterMs,
      maxClockOffsetMs,
      logFile: logFileOf(io.env),
    });
    const exitCode = exitCodeOfVerdict[report.verdict];
    io.stdout(
      values.json
        ? `${JSON.stringify(jsonOf(report, exitCode))}\n`
        : statusScreen(report, exitCode),
    );
    return exitCode;
  } finally {
    if (service !== undefined && 'client' in service) service.client.close();
    if (printing !== undefined && 'backend' in printing) await printing.backend.dispose?.();
    database.close();
  }
}

/** KIOSK_LOG, as the kiosk resolves it (its other log settings do not matter here). */
function logFileOf(env: Io['env']): string | undefined {
  const file = env['KIOSK_LOG'];
  return file === undefined || file === '' ? undefined : resolve(file);
}

function jsonOf(report: HealthReport, exitCode: number): Record<string, unknown> {
  const { verdict, ...rest } = report;
  return { verdict, exitCode, ...rest };
}

function durationFlag(text: string | undefined, flag: string, fallback: number): number {
  if (text === undefined) return fallback;
  const ms = parseDuration(text);
  if (ms === undefined || ms <= 0)
    throw new CommandError(
      'USAGE',
      `${flag} expects a duration like 90s, 30m, 6h or 2d, got "${text}"`,
    );
  return ms;
}

/**
 * The kiosk's data directory, which must hold its database already: a status of a directory
 * that is not a kiosk's (a typo) would otherwise create an empty database and report on it.
 */
function existingDataDir(globals: GlobalFlags, env: Io['env']): string {
  const dataDir = globals.dataDir ?? env['KIOSK_DATA_DIR'];
  if (dataDir === undefined || dataDir === '') {
    throw new CommandError(
      'CONFIG',
      'no data directory: pass --data-dir <dir> or set KIOSK_DATA_DIR',
    );
  }
  if (!existsSync(join(dataDir, DATABASE_FILE))) {
    throw new CommandError(
      'CONFIG',
      `no kiosk database (${DATABASE_FILE}) in ${dataDir}: is it the kiosk's data directory?`,
    );
  }
  return dataDir;
}

/**
 * A client on the kiosk's service with its account, or why there is none. One attempt per call
 * and short timeouts: a status must answer within seconds, and one unreachable probe is offline.
 */
async function serviceAccess(
  globals: GlobalFlags,
  env: Io['env'],
  savedBaseUrl: string | null | undefined,
  logger: ReturnType<typeof loggerFor>,
): Promise<ServiceAccess> {
  // As the kiosk decides: a base URL saved in setup wins over the environment's.
  const chosen = withSavedBaseUrl(globals, savedBaseUrl);
  let baseUrl: string | undefined;
  try {
    baseUrl = apiBaseUrl(chosen, env);
    if (baseUrl === undefined) {
      throw new CommandError(
        'CONFIG',
        'no API base URL: pass --base-url <url>, set KIOSK_API_BASE_URL, or save one in setup',
      );
    }
    const { credentials, source } = await loadCredentialsWithSource(chosen, env);
    const client = buildClient({
      baseUrl,
      credentials: async () => credentials,
      logger,
      retry: { rules: { read: { maxAttempts: 1 }, replace: { maxAttempts: 1 } } },
      timeouts: { connectMs: 5_000, responseMs: 10_000 },
      offlineAfter: 1,
    });
    return { client, baseUrl, credentialsSource: source };
  } catch (error) {
    if (!(error instanceof CommandError)) throw error;
    return { unavailable: { code: error.code, message: error.message }, baseUrl: baseUrl ?? null };
  }
}

async function printerAccess(
  cupsServer: string | undefined,
  printer: string | undefined,
): Promise<PrinterAccess> {
  try {
    const { backend } = await chooseBackend({ config: { cupsServer }, platform: process.platform });
    return { backend, printer };
  } catch (error) {
    const code = isPrintError(error) ? error.code : 'backend_unavailable';
    return { unavailable: { code, message: messageOf(error) }, printer };
  }
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}
