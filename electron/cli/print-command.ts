import { type DocumentKind, MAX_COPIES } from '../../shared/ipc/printing.ts';
import {
  apiDocumentSource,
  chooseBackend,
  type DocumentSource,
  DocumentSpool,
  isPrintError,
  type PrintBackend,
  type PrintJobSnapshot,
  PrintQueue,
  type PrintQueueOptions,
} from '../printing/index.ts';
import { connectApi } from './api-connection.ts';
import {
  CommandError,
  type CommandLine,
  type Failure,
  type GlobalFlags,
  type Io,
  describeFailure,
  exitCodes,
  parseFlags,
  runCommand,
  writeError,
} from './command.ts';

/**
 * `kioskctl printers` and `kioskctl print invoice|sav-slip <id>`: the same queue, checks and
 * backend as the kiosk, from a technician's shell. Results are one JSON document on stdout;
 * failures also print one JSON line on stderr, `{"error":{code,message}}`.
 */

/** Scripts on the fleet branch on these. */
export const printExitCodes = {
  ok: exitCodes.ok,
  unexpected: exitCodes.unexpected,
  /** Bad flag, bad id, missing configuration: nothing was fetched nor sent. */
  invalidRequest: exitCodes.invalidRequest,
  /** The API could not give the document (error reply, network, credentials). */
  documentUnavailable: 3,
  /** The API replied with something that is not a whole PDF: refused, never sent to a printer. */
  documentRejected: 5,
  /** The printer or print service failed: unknown printer, offline, out of paper, CUPS down. */
  printFailed: 6,
  /** The job was cancelled (by someone at the print service, or a timeout). */
  cancelled: 7,
} as const;

export const printUsage = `usage:
  kioskctl printers
  kioskctl print invoice <saleId> [--printer <name>] [--copies <n>] [--media <size>] [--timeout <s>]
  kioskctl print sav-slip <savId> [--printer <name>] [--copies <n>] [--media <size>] [--timeout <s>]

  global flags it uses (all of them: kioskctl --help): [--base-url <url>] [--credentials <file>]
  [--cups-server <host:port>]
  --printer      the printer; else env KIOSK_PRINTER; else the system default printer
  --cups-server  the CUPS scheduler (or env KIOSK_CUPS_SERVER); the system's own when absent
  --timeout      seconds to wait for the printer before cancelling the job (default 120)

exit codes: 0 printed, 1 unexpected, 2 refused locally, 3 document unavailable,
            5 document refused (not a whole PDF), 6 printing failed, 7 cancelled
`;

export interface DocumentConnection {
  readonly source: DocumentSource;
  close(): void;
}

export interface PrintConnectSettings {
  readonly globals: GlobalFlags;
  readonly env: Io['env'];
}

export interface PrintCommandContext {
  readonly io: Io;
  /** The backend to use; by default the one chooseBackend picks for this platform (CUPS). */
  readonly backend?: PrintBackend;
  /** Builds the document source; by default an API client from the flags or the environment. */
  readonly connect?: (settings: PrintConnectSettings) => Promise<DocumentConnection>;
  /** Polling and retry timings (tests shorten them). */
  readonly queue?: Partial<
    Pick<
      PrintQueueOptions,
      'pollIntervalMs' | 'retryDelayMs' | 'maxAttempts' | 'stallTimeoutMs' | 'maxDocumentBytes'
    >
  >;
  readonly platform?: NodeJS.Platform;
}

const options = {
  printer: { type: 'string' },
  copies: { type: 'string' },
  media: { type: 'string' },
  timeout: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

const kinds: Readonly<Record<string, DocumentKind>> = {
  invoice: 'invoice',
  'sav-slip': 'sav-slip',
};
const REFERENCE = /^[A-Za-z0-9_.:-]{1,128}$/;

/** Runs `kioskctl printers` or `kioskctl print ...` (`argv` is kioskctl's, as typed). */
export function runPrintCommand(
  argv: readonly string[],
  context: PrintCommandContext,
): Promise<number> {
  return runCommand(argv, context.io, (line) => run(line, context), describePrintFailure);
}

async function run(
  { globals, name: command, args }: CommandLine,
  context: PrintCommandContext,
): Promise<number> {
  const { io } = context;
  const { values, positionals: rest } = parseFlags(args, options, 'kioskctl print --help');
  if (values.help) {
    io.stdout(printUsage);
    return printExitCodes.ok;
  }
  const cupsServer = cupsServerOf(globals, io.env);

  if (command === 'printers') {
    if (rest.length > 0) throw new CommandError('USAGE', `unexpected argument "${rest[0]}"`);
    for (const flag of ['printer', 'copies', 'media', 'timeout'] as const) {
      if (values[flag] !== undefined)
        throw new CommandError('USAGE', `--${flag} is for kioskctl print`);
    }
    const { backend, why } = await backendFor(context, cupsServer);
    try {
      const [printers, fallback] = await Promise.all([
        backend.listPrinters(),
        backend.defaultPrinter(),
      ]);
      io.stdout(
        `${JSON.stringify({ backend: backend.name, why, default: fallback ?? null, printers }, null, 2)}\n`,
      );
      return printExitCodes.ok;
    } finally {
      if (!context.backend) await backend.dispose?.();
    }
  }

  if (command !== 'print') {
    throw new CommandError(
      'USAGE',
      command === undefined
        ? 'missing command (kioskctl print --help)'
        : `unknown command "${command}" (kioskctl print --help)`,
    );
  }
  const [kindWord, reference, ...extra] = rest;
  const kind = kindWord === undefined ? undefined : kinds[kindWord];
  if (kind === undefined)
    throw new CommandError('USAGE', 'kioskctl print invoice <saleId> | print sav-slip <savId>');
  if (reference === undefined || !REFERENCE.test(reference)) {
    throw new CommandError(
      'USAGE',
      `missing or malformed ${kind === 'invoice' ? 'saleId' : 'savId'}`,
    );
  }
  if (extra.length > 0) throw new CommandError('USAGE', `unexpected argument "${extra[0]}"`);
  const copies = parseCopies(values.copies);
  const timeoutMs = parseTimeout(values.timeout);
  const printer = values.printer ?? nonEmpty(io.env['KIOSK_PRINTER']);
  const media = values.media ?? nonEmpty(io.env['KIOSK_PRINT_MEDIA']);

  const connection = await (context.connect ?? connectWithClient)({ globals, env: io.env });
  let backend: PrintBackend | undefined;
  let spool: DocumentSpool | undefined;
  let queue: PrintQueue | undefined;
  try {
    backend = (await backendFor(context, cupsServer)).backend;
    spool = await DocumentSpool.create();
    queue = new PrintQueue({
      backend,
      source: connection.source,
      spool,
      printer,
      media,
      ...context.queue,
      jobTimeoutMs: timeoutMs,
    });
    const job = queue.enqueue({ kind, reference, copies });
    const final = await queue.waitFor(job.id);
    io.stdout(`${JSON.stringify(view(final), null, 2)}\n`);
    if (final.state === 'completed') return printExitCodes.ok;
    const problem = final.problem ?? { code: 'cancelled', message: 'The print job was cancelled.' };
    const failure = { code: problem.code, message: problem.message, exitCode: exitCodeOf(final) };
    writeError(io, failure);
    return failure.exitCode;
  } finally {
    await queue?.close();
    await spool?.dispose();
    if (!context.backend) await backend?.dispose?.();
    connection.close();
  }
}

/** What the technician sees: the snapshot, with absent values as null so every key is there. */
function view(snapshot: PrintJobSnapshot): Record<string, unknown> {
  return {
    jobId: snapshot.id,
    backendJobId: snapshot.backendJobId ?? null,
    kind: snapshot.kind,
    reference: snapshot.reference,
    documentNumber: snapshot.documentNumber ?? null,
    printer: snapshot.printer ?? null,
    copies: snapshot.copies,
    state: snapshot.state,
    problem: snapshot.problem ?? null,
    retries: snapshot.retries,
  };
}

function exitCodeOf(snapshot: PrintJobSnapshot): number {
  if (snapshot.state === 'cancelled') return printExitCodes.cancelled;
  switch (snapshot.problem?.code) {
    case 'document_rejected':
      return printExitCodes.documentRejected;
    case 'document_unavailable':
      return printExitCodes.documentUnavailable;
    case 'invalid_options':
      return printExitCodes.invalidRequest;
    default:
      return printExitCodes.printFailed;
  }
}

async function backendFor(
  context: PrintCommandContext,
  cupsServer: string | undefined,
): Promise<{ backend: PrintBackend; why: string }> {
  if (context.backend) return { backend: context.backend, why: 'given by the caller' };
  // No Electron here: on Windows this is a clear refusal, not a guess.
  return chooseBackend({ config: { cupsServer }, platform: context.platform ?? process.platform });
}

/** The CUPS scheduler: `--cups-server`, else KIOSK_CUPS_SERVER; undefined: the system's own. */
export function cupsServerOf(globals: GlobalFlags, env: Io['env']): string | undefined {
  const cupsServer = globals.cupsServer ?? nonEmpty(env['KIOSK_CUPS_SERVER']);
  if (
    cupsServer !== undefined &&
    !/^[A-Za-z0-9.-]+:\d{1,5}$|^\[[0-9A-Fa-f:]+\]:\d{1,5}$|^\//.test(cupsServer)
  ) {
    throw new CommandError('USAGE', '--cups-server must be host:port (or a socket path)');
  }
  return cupsServer;
}

function parseCopies(text: string | undefined): number {
  if (text === undefined) return 1;
  const copies = Number(text);
  if (!/^\d+$/.test(text) || copies < 1 || copies > MAX_COPIES) {
    throw new CommandError('USAGE', `--copies must be a whole number from 1 to ${MAX_COPIES}`);
  }
  return copies;
}

function parseTimeout(text: string | undefined): number {
  if (text === undefined) return 120_000;
  const seconds = Number(text);
  if (!/^\d+(\.\d+)?$/.test(text) || seconds <= 0 || seconds > 3600) {
    throw new CommandError('USAGE', '--timeout must be a number of seconds, at most 3600');
  }
  return seconds * 1000;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}

async function connectWithClient(settings: PrintConnectSettings): Promise<DocumentConnection> {
  const client = await connectApi(settings.globals, settings.env);
  return { source: apiDocumentSource(client), close: () => client.close() };
}

/** The print service's errors; the line of print has never carried a status. */
function describePrintFailure(error: unknown): Failure {
  const { code, message, exitCode } = isPrintError(error)
    ? {
        code: error.code,
        message: error.message,
        exitCode:
          error.code === 'invalid_options'
            ? printExitCodes.invalidRequest
            : printExitCodes.printFailed,
      }
    : describeFailure(error);
  return { code, message, exitCode };
}
