import { parseArgs } from 'node:util';
import { type ApiClientOptions, type CommerceApiClient, createApiClient } from '../api/client.ts';
import { isCommerceApiError } from '../api/errors.ts';
import { CatalogQueries } from '../catalog/availability.ts';
import { CatalogError } from '../catalog/errors.ts';
import type { SyncProgress } from '../catalog/progress.ts';
import { onlineProbeOf } from '../catalog/source.ts';
import { CatalogSyncService } from '../catalog/sync-service.ts';
import { type Logger, createRedactingLogger, silentLogger } from '../logging/redacting-logger.ts';
import { type KioskDatabase, openDatabase } from '../storage/database.ts';
import { StorageError } from '../storage/errors.ts';
import { type CliIo, UsageError, exitCodeFor, exitCodes, loadCredentials } from './api-command.ts';

/**
 * `kioskctl catalog`: the technician's view of the catalogue mirror in a kiosk's data directory.
 *
 *   kioskctl catalog sync [--full]           progress bar on a terminal's stderr, JSON result on stdout
 *   kioskctl catalog status                  JSON status (no network)
 *   kioskctl catalog search <text> [--shop <id>] [--available-only] [--category <id>]
 *                                [--limit <n>] [--fresh]
 *
 * Common flags: --data-dir (or env KIOSK_DATA_DIR), --base-url (or KIOSK_API_BASE_URL),
 * --credentials <file> (or KIOSK_API_EMAIL and KIOSK_API_PASSWORD), --verbose.
 * `search` answers from the mirror, without reading credentials; with --fresh, or when the mirror
 * was never synchronised, it asks the service if a base URL and credentials are configured.
 */

export const catalogUsage = `usage:
  kioskctl catalog sync [--full]
  kioskctl catalog status
  kioskctl catalog search <text> [--shop <id>] [--available-only] [--category <id>] [--limit <n>] [--fresh]

  --data-dir      the kiosk data directory (or env KIOSK_DATA_DIR)
  --base-url      the Commerce API base URL (or env KIOSK_API_BASE_URL); sync and --fresh need it
  --credentials   a JSON file {"email": "...", "password": "..."} (or env KIOSK_API_EMAIL, KIOSK_API_PASSWORD)
  --verbose       redacted JSON log lines on stderr

exit codes: 0 ok, 1 unexpected, 2 refused locally, 3 API error reply (403: missing scopes),
            4 network or timeout, 5 contract violation, 6 another process is synchronising
`;

/** Beside the shared kioskctl codes: the sync lease is held by the kiosk app or another kioskctl. */
export const catalogExitCodes = { ...exitCodes, busy: 6 } as const;

export interface CatalogCommandContext {
  readonly io: CliIo;
  /** Draw a progress bar on stderr (kioskctl passes `process.stderr.isTTY`). */
  readonly stderrIsTty?: boolean;
  /** Builds the API client; tests and embedders may tune it (retries, timeouts). */
  readonly createClient?: (options: ApiClientOptions) => CommerceApiClient;
}

const options = {
  'data-dir': { type: 'string' },
  'base-url': { type: 'string' },
  credentials: { type: 'string' },
  verbose: { type: 'boolean' },
  full: { type: 'boolean' },
  shop: { type: 'string' },
  'available-only': { type: 'boolean' },
  category: { type: 'string' },
  limit: { type: 'string' },
  fresh: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

type Values = ReturnType<
  typeof parseArgs<{ options: typeof options; allowPositionals: true }>
>['values'];

/** Runs `kioskctl catalog ...` (`args` are the words after `catalog`); returns the exit code. */
export async function runCatalogCommand(
  args: readonly string[],
  context: CatalogCommandContext,
): Promise<number> {
  const { io } = context;
  try {
    let parsed;
    try {
      parsed = parseArgs({ args: [...args], options, strict: true, allowPositionals: true });
    } catch (error) {
      throw new UsageError(
        'USAGE',
        `${error instanceof Error ? error.message : String(error)} (kioskctl catalog --help)`,
      );
    }
    const { values, positionals } = parsed;
    if (values.help) {
      io.stdout(catalogUsage);
      return exitCodes.ok;
    }
    const [command, ...rest] = positionals;
    switch (command) {
      case 'sync':
        refuseExtra(rest);
        refuseFlags(values, ['shop', 'available-only', 'category', 'limit', 'fresh'], 'sync');
        return await sync(values, context);
      case 'status':
        refuseExtra(rest);
        refuseFlags(
          values,
          ['full', 'shop', 'available-only', 'category', 'limit', 'fresh'],
          'status',
        );
        return status(values, io);
      case 'search':
        refuseFlags(values, ['full'], 'search');
        return await search(rest.join(' '), values, context);
      case undefined:
        throw new UsageError(
          'USAGE',
          'missing command: sync, status or search (kioskctl catalog --help)',
        );
      default:
        throw new UsageError(
          'USAGE',
          `unknown catalog command "${command}" (kioskctl catalog --help)`,
        );
    }
  } catch (error) {
    return report(io, error);
  }
}

async function sync(values: Values, context: CatalogCommandContext): Promise<number> {
  const { io } = context;
  const client = await connect(values, context, true);
  if (client === undefined) throw new UsageError('CONFIG', 'no API client');
  const bar = context.stderrIsTty ? new ProgressBar(io) : undefined;
  try {
    const database = openData(values, io);
    try {
      const service = new CatalogSyncService({
        database,
        source: client,
        logger: loggerOf(values, io),
      });
      if (bar) service.events.on('progress', (progress) => bar.draw(progress));
      const outcome = await service.sync({ full: values.full ?? false });
      bar?.finish();
      io.stdout(`${JSON.stringify({ ...outcome, status: service.status() }, null, 2)}\n`);
      return exitCodes.ok;
    } finally {
      database.close();
    }
  } finally {
    bar?.finish();
    client.close();
  }
}

function status(values: Values, io: CliIo): number {
  const database = openData(values, io);
  try {
    const service = new CatalogSyncService({
      database,
      // Status reads the database only; a source that is never called.
      source: unreachableSource(),
    });
    io.stdout(`${JSON.stringify(service.status(), null, 2)}\n`);
    return exitCodes.ok;
  } finally {
    database.close();
  }
}

async function search(
  text: string,
  values: Values,
  context: CatalogCommandContext,
): Promise<number> {
  const { io } = context;
  let limit: number | undefined;
  if (values.limit !== undefined) {
    if (!/^\d+$/.test(values.limit))
      throw new UsageError('USAGE', '--limit expects an integer from 1 to 100');
    limit = Number(values.limit);
  }
  const database = openData(values, io);
  let client: CommerceApiClient | undefined;
  try {
    // A mirror answer needs neither the service nor credentials (a technician over SSH has no
    // keyring): connect only when the search will ask the service.
    const mirrorOnly = !new CatalogQueries({ database }).searchWantsService(values.fresh);
    if (!mirrorOnly) client = await connect(values, context, values.fresh === true);
    try {
      const queries = new CatalogQueries({
        database,
        ...(client === undefined ? {} : { source: client, online: onlineProbeOf(client) }),
      });
      const answer = await queries.search({
        text,
        shopId: values.shop,
        availableOnly: values['available-only'],
        categoryId: values.category,
        limit,
        fresh: values.fresh,
      });
      io.stdout(`${JSON.stringify(answer, null, 2)}\n`);
      return exitCodes.ok;
    } finally {
      client?.close();
    }
  } finally {
    database.close();
  }
}

function openData(values: Values, io: CliIo): KioskDatabase {
  const dataDir = values['data-dir'] ?? io.env['KIOSK_DATA_DIR'];
  if (dataDir === undefined || dataDir === '') {
    throw new UsageError(
      'CONFIG',
      'no data directory: pass --data-dir <dir> or set KIOSK_DATA_DIR',
    );
  }
  return openDatabase({ dataDir });
}

/** The client, or undefined when it is optional and nothing is configured. */
async function connect(
  values: Values,
  context: CatalogCommandContext,
  required: boolean,
): Promise<CommerceApiClient | undefined> {
  const { io } = context;
  const baseUrl = values['base-url'] ?? io.env['KIOSK_API_BASE_URL'];
  if (baseUrl === undefined || baseUrl === '') {
    if (!required) return undefined;
    throw new UsageError(
      'CONFIG',
      'no API base URL: pass --base-url <url> or set KIOSK_API_BASE_URL',
    );
  }
  const credentials = await loadCredentials(values.credentials, io.env);
  try {
    return (context.createClient ?? createApiClient)({
      baseUrl,
      credentials: async () => credentials,
      logger: loggerOf(values, io),
    });
  } catch (error) {
    throw new UsageError('CONFIG', error instanceof Error ? error.message : String(error));
  }
}

function loggerOf(values: Values, io: CliIo): Logger {
  return values.verbose
    ? createRedactingLogger({
        sink: (line) => io.stderr(`${line}\n`),
        level: 'debug',
        base: { component: 'kioskctl' },
      })
    : silentLogger;
}

function refuseExtra(rest: readonly string[]): void {
  if (rest.length > 0) throw new UsageError('USAGE', `unexpected argument "${rest[0]}"`);
}

function refuseFlags(values: Values, flags: readonly (keyof Values)[], command: string): void {
  for (const flag of flags) {
    if (values[flag] !== undefined)
      throw new UsageError('USAGE', `--${flag} does not apply to "catalog ${command}"`);
  }
}

function unreachableSource(): ConstructorParameters<typeof CatalogSyncService>[0]['source'] {
  return new Proxy({} as ConstructorParameters<typeof CatalogSyncService>[0]['source'], {
    get: () => () => Promise.reject(new Error('catalog status does not call the service')),
  });
}

/** One JSON error line on stderr, the kioskctl way, with the missing scopes of a 403. */
function report(io: CliIo, error: unknown): number {
  let line: {
    code: string;
    status: number | null;
    message: string;
    missingScopes?: readonly string[];
  };
  let exit: number;
  if (error instanceof CatalogError) {
    line = {
      code: error.code,
      status: error.code === 'CATALOG_FORBIDDEN' ? 403 : null,
      message: error.message,
    };
    if (error.missingScopes.length > 0) line.missingScopes = error.missingScopes;
    exit = catalogExitCodeOf(error);
  } else if (error instanceof StorageError) {
    line = { code: error.code, status: null, message: error.message };
    exit = exitCodes.unexpected;
  } else if (isCommerceApiError(error)) {
    line = { code: error.code, status: error.status ?? null, message: error.message };
    exit = exitCodeFor(error);
  } else if (error instanceof UsageError) {
    line = { code: error.code, status: null, message: error.message };
    exit = exitCodeFor(error);
  } else {
    line = {
      code: 'UNEXPECTED',
      status: null,
      message: error instanceof Error ? error.message : String(error),
    };
    exit = exitCodes.unexpected;
  }
  io.stderr(`${JSON.stringify({ error: line })}\n`);
  return exit;
}

function catalogExitCodeOf(error: CatalogError): number {
  switch (error.code) {
    case 'CATALOG_FORBIDDEN':
    case 'CATALOG_PRODUCT_NOT_FOUND':
      return catalogExitCodes.apiError;
    case 'CATALOG_UNAVAILABLE':
      return catalogExitCodes.network;
    case 'CATALOG_INVALID_QUERY':
      return catalogExitCodes.invalidRequest;
    case 'CATALOG_SYNC_BUSY':
      return catalogExitCodes.busy;
  }
}

/** A one-line bar redrawn in place, at most ten times a second. */
class ProgressBar {
  readonly #io: CliIo;
  #lastDraw = 0;
  #drawn = false;

  constructor(io: CliIo) {
    this.#io = io;
  }

  draw(progress: SyncProgress): void {
    const now = Date.now();
    if (now - this.#lastDraw < 100 && progress.phase !== 'done') return;
    this.#lastDraw = now;
    const fraction =
      progress.pagesTotal !== null && progress.pagesTotal > 0
        ? Math.min(1, progress.pagesDone / progress.pagesTotal)
        : 0;
    const width = 24;
    const filled = Math.round(fraction * width);
    const parts = [
      `${progress.kind === 'full' ? 'full sync' : 'changes'} ${progress.phase.padEnd(12)}`,
      `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${String(Math.round(fraction * 100)).padStart(3)}%`,
      `pages ${progress.pagesDone}/${progress.pagesTotal ?? '?'}`,
    ];
    if (progress.productsTotal !== null)
      parts.push(`products ${progress.productsDone}/${progress.productsTotal}`);
    if (progress.productsPerSecond !== null)
      parts.push(`${Math.round(progress.productsPerSecond)}/s`);
    if (progress.etaMs !== null) parts.push(`ETA ${Math.ceil(progress.etaMs / 1000)}s`);
    this.#io.stderr(`\r\x1b[2K${parts.join('  ')}`);
    this.#drawn = true;
  }

  finish(): void {
    if (this.#drawn) this.#io.stderr('\n');
    this.#drawn = false;
  }
}
