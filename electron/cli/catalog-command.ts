import type { SyncProgress } from '../../shared/ipc/catalog.ts';
import type { CommerceApiClient } from '../api/index.ts';
import {
  CatalogError,
  CatalogQueries,
  CatalogSyncService,
  onlineProbeOf,
} from '../catalog/index.ts';
import { type KioskDatabase, openDatabase } from '../storage/index.ts';
import { kioskSchema } from '../schema.ts';
import { type CreateClient, apiBaseUrl, connectApi } from './api-connection.ts';
import {
  CommandError,
  type CommandLine,
  type Failure,
  type GlobalFlags,
  type Io,
  describeFailure,
  exitCodes,
  loggerFor,
  parseFlags,
  runCommand,
} from './command.ts';
import { setupProfileOf } from './setup-settings.ts';

/**
 * `kioskctl catalog`: the technician's view of the catalogue mirror in a kiosk's data directory.
 *
 *   kioskctl catalog sync [--full]           progress bar on a terminal's stderr, JSON result on stdout
 *   kioskctl catalog status                  JSON status (no network)
 *   kioskctl catalog search <text> [--shop <id>] [--available-only] [--category <id>]
 *                                [--limit <n>] [--fresh]
 *
 * Global flags used: --data-dir (or env KIOSK_DATA_DIR), --base-url (or KIOSK_API_BASE_URL),
 * --credentials <file> (or KIOSK_API_EMAIL and KIOSK_API_PASSWORD), --verbose.
 * `search` answers from the mirror, without reading credentials; with --fresh, or when the mirror
 * was never synchronised, it asks the service if a base URL and credentials are configured.
 */

export const catalogUsage = `usage:
  kioskctl catalog sync [--full]
  kioskctl catalog status
  kioskctl catalog search <text> [--shop <id>] [--available-only] [--category <id>] [--limit <n>] [--fresh]

global flags it uses (all of them: kioskctl --help):
  --data-dir      the kiosk data directory (or env KIOSK_DATA_DIR)
  --base-url      the Commerce API base URL (or env KIOSK_API_BASE_URL); sync and --fresh need it
  --credentials   a JSON file {"email": "...", "password": "..."} (or env KIOSK_API_EMAIL, KIOSK_API_PASSWORD)
  --verbose       redacted JSON log lines on stderr

exit codes: 0 ok, 1 unexpected, 2 refused locally, 3 API error reply (403: missing scopes),
            4 network or timeout, 5 contract violation, 6 another process is synchronising,
            8 storage (the data directory or the database cannot be used, or the disk is full)
`;

/** Beside the shared kioskctl codes: the sync lease is held by the kiosk app or another kioskctl. */
export const catalogExitCodes = { ...exitCodes, busy: 6 } as const;

export interface CatalogCommandContext {
  readonly io: Io;
  /** Draw a progress bar on stderr (kioskctl passes `process.stderr.isTTY`). */
  readonly stderrIsTty?: boolean;
  /** Builds the API client; tests and embedders may tune it (retries, timeouts). */
  readonly createClient?: CreateClient;
}

const options = {
  full: { type: 'boolean' },
  shop: { type: 'string' },
  'available-only': { type: 'boolean' },
  category: { type: 'string' },
  limit: { type: 'string' },
  fresh: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

type Values = ReturnType<typeof parseFlags<typeof options>>['values'];

/** Runs `kioskctl catalog ...` (`argv` is kioskctl's, as typed); returns the exit code. */
export function runCatalogCommand(
  argv: readonly string[],
  context: CatalogCommandContext,
): Promise<number> {
  return runCommand(argv, context.io, (line) => run(line, context), describeCatalogFailure);
}

async function run(
  { globals, args }: CommandLine,
  context: CatalogCommandContext,
): Promise<number> {
  const { io } = context;
  const { values, positionals } = parseFlags(args, options, 'kioskctl catalog --help');
  if (values.help) {
    io.stdout(catalogUsage);
    return exitCodes.ok;
  }
  const [command, ...rest] = positionals;
  switch (command) {
    case 'sync':
      refuseExtra(rest);
      refuseFlags(values, ['shop', 'available-only', 'category', 'limit', 'fresh'], 'sync');
      return await sync(values, globals, context);
    case 'status':
      refuseExtra(rest);
      refuseFlags(
        values,
        ['full', 'shop', 'available-only', 'category', 'limit', 'fresh'],
        'status',
      );
      return status(globals, io);
    case 'search':
      refuseFlags(values, ['full'], 'search');
      return await search(rest.join(' '), values, globals, context);
    case undefined:
      throw new CommandError(
        'USAGE',
        'missing command: sync, status or search (kioskctl catalog --help)',
      );
    default:
      throw new CommandError(
        'USAGE',
        `unknown catalog command "${command}" (kioskctl catalog --help)`,
      );
  }
}

async function sync(
  values: Values,
  globals: GlobalFlags,
  context: CatalogCommandContext,
): Promise<number> {
  const { io } = context;
  // The referential lists are 'not shown': read (and paged) the way the profile says.
  const { profile } = setupProfileOf(globals, io.env);
  const client = await connect(globals, context);
  const bar = context.stderrIsTty ? new ProgressBar(io) : undefined;
  try {
    const database = openData(globals, io);
    try {
      const service = new CatalogSyncService({
        database,
        source: client,
        logger: loggerFor(globals, io, 'kioskctl'),
        profile: () => profile,
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

function status(globals: GlobalFlags, io: Io): number {
  const database = openData(globals, io);
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
  globals: GlobalFlags,
  context: CatalogCommandContext,
): Promise<number> {
  const { io } = context;
  let limit: number | undefined;
  if (values.limit !== undefined) {
    if (!/^\d+$/.test(values.limit))
      throw new CommandError('USAGE', '--limit expects an integer from 1 to 100');
    limit = Number(values.limit);
  }
  const database = openData(globals, io);
  let client: CommerceApiClient | undefined;
  try {
    // A mirror answer needs neither the service nor credentials (a technician over SSH has no
    // keyring): connect only when the search will ask the service.
    const mirrorOnly = !new CatalogQueries({ database }).searchWantsService(values.fresh);
    // Without --fresh the service is optional: no base URL means an answer from the mirror.
    if (!mirrorOnly && (values.fresh === true || apiBaseUrl(globals, io.env) !== undefined))
      client = await connect(globals, context);
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

function openData(globals: GlobalFlags, io: Io): KioskDatabase {
  const dataDir = globals.dataDir ?? io.env['KIOSK_DATA_DIR'];
  if (dataDir === undefined || dataDir === '') {
    throw new CommandError(
      'CONFIG',
      'no data directory: pass --data-dir <dir> or set KIOSK_DATA_DIR',
    );
  }
  return openDatabase({ dataDir, schema: kioskSchema });
}

function connect(globals: GlobalFlags, context: CatalogCommandContext): Promise<CommerceApiClient> {
  return connectApi(
    globals,
    context.io.env,
    { logger: loggerFor(globals, context.io, 'kioskctl') },
    context.createClient,
  );
}

function refuseExtra(rest: readonly string[]): void {
  if (rest.length > 0) throw new CommandError('USAGE', `unexpected argument "${rest[0]}"`);
}

function refuseFlags(values: Values, flags: readonly (keyof Values)[], command: string): void {
  for (const flag of flags) {
    if (values[flag] !== undefined)
      throw new CommandError('USAGE', `--${flag} does not apply to "catalog ${command}"`);
  }
}

function unreachableSource(): ConstructorParameters<typeof CatalogSyncService>[0]['source'] {
  return new Proxy({} as ConstructorParameters<typeof CatalogSyncService>[0]['source'], {
    get: () => () => Promise.reject(new Error('catalog status does not call the service')),
  });
}

/** The catalogue's errors, with the missing scopes of a 403; the others the kioskctl way. */
function describeCatalogFailure(error: unknown): Failure {
  if (error instanceof CatalogError) {
    return {
      code: error.code,
      status: error.code === 'CATALOG_FORBIDDEN' ? 403 : null,
      message: error.message,
      ...(error.missingScopes.length > 0
        ? { details: { missingScopes: error.missingScopes } }
        : {}),
      exitCode: catalogExitCodeOf(error),
    };
  }
  return describeFailure(error);
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
  readonly #io: Io;
  #lastDraw = 0;
  #drawn = false;

  constructor(io: Io) {
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
