import { CliCredentialsError, loadCliCredentials } from '../credentials/cli-credentials.ts';
import { parseArgs } from 'node:util';
import { createApiClient } from '../api/client.ts';
import type { Credentials } from '../api/token.ts';
import { apiDocumentSource } from '../printing/api-document-source.ts';
import { isPrintError, MAX_COPIES, type PrintBackend } from '../printing/backend.ts';
import { chooseBackend } from '../printing/choose-backend.ts';
import type { DocumentSource } from '../printing/document-source.ts';
import { DocumentSpool, type DocumentKind } from '../printing/document.ts';
import {
  PrintQueue,
  type PrintJobSnapshot,
  type PrintQueueOptions,
} from '../printing/print-queue.ts';

/**
 * `kioskctl printers` and `kioskctl print invoice|sav-slip <id>`: the same queue, checks and
 * backend as the kiosk, from a technician's shell. Results are one JSON document on stdout;
 * failures also print one JSON line on stderr, `{"error":{code,message}}`.
 */

/** Scripts on the fleet branch on these. */
export const printExitCodes = {
  ok: 0,
  unexpected: 1,
  /** Bad flag, bad id, missing configuration: nothing was fetched nor sent. */
  invalidRequest: 2,
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

  global: [--base-url <url>] [--credentials <file>] [--cups-server <host:port>]
  --printer      the printer; else env KIOSK_PRINTER; else the system default printer
  --cups-server  the CUPS scheduler (or env KIOSK_CUPS_SERVER); the system's own when absent
  --timeout      seconds to wait for the printer before cancelling the job (default 120)

exit codes: 0 printed, 1 unexpected, 2 refused locally, 3 document unavailable,
            5 document refused (not a whole PDF), 6 printing failed, 7 cancelled
`;

export interface PrintCommandIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly env: Readonly<Record<string, string | undefined>>;
}

export interface DocumentConnection {
  readonly source: DocumentSource;
  close(): void;
}

export interface PrintConnectSettings {
  readonly baseUrl: string | undefined;
  readonly credentialsFile: string | undefined;
  readonly env: Readonly<Record<string, string | undefined>>;
}

export interface PrintCommandContext {
  readonly io: PrintCommandIo;
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

class CommandError extends Error {
  readonly code: string;
  readonly exitCode: number;
  constructor(code: string, message: string, exitCode: number = printExitCodes.invalidRequest) {
    super(message);
    this.code = code;
    this.exitCode = exitCode;
  }
}

const options = {
  'base-url': { type: 'string' },
  credentials: { type: 'string' },
  'cups-server': { type: 'string' },
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

/**
 * Runs `printers` or `print ...`. `args` is kioskctl's argv as is: global flags may come anywhere.
 */
export async function runPrintCommand(
  args: readonly string[],
  context: PrintCommandContext,
): Promise<number> {
  const { io } = context;
  try {
    return await run(args, context);
  } catch (error) {
    const { code, message, exitCode } = describeFailure(error);
    io.stderr(`${JSON.stringify({ error: { code, message } })}\n`);
    return exitCode;
  }
}

async function run(args: readonly string[], context: PrintCommandContext): Promise<number> {
  const { io } = context;
  let parsed;
  try {
    parsed = parseArgs({ args: [...args], options, strict: true, allowPositionals: true });
  } catch (error) {
    throw new CommandError(
      'USAGE',
      `${error instanceof Error ? error.message : String(error)} (kioskctl print --help)`,
    );
  }
  const { values, positionals } = parsed;
  if (values.help) {
    io.stdout(printUsage);
    return printExitCodes.ok;
  }
  const [command, ...rest] = positionals;
  const cupsServer = values['cups-server'] ?? nonEmpty(io.env['KIOSK_CUPS_SERVER']);
  if (
    cupsServer !== undefined &&
    !/^[A-Za-z0-9.-]+:\d{1,5}$|^\[[0-9A-Fa-f:]+\]:\d{1,5}$|^\//.test(cupsServer)
  ) {
    throw new CommandError('USAGE', '--cups-server must be host:port (or a socket path)');
  }

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

  const connection = await (context.connect ?? connectWithClient)({
    baseUrl: values['base-url'],
    credentialsFile: values.credentials,
    env: io.env,
  });
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
    io.stderr(`${JSON.stringify({ error: { code: problem.code, message: problem.message } })}\n`);
    return exitCodeFor(final);
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

function exitCodeFor(snapshot: PrintJobSnapshot): number {
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

async function loadCredentials(settings: PrintConnectSettings): Promise<Credentials> {
  try {
    const loaded = await loadCliCredentials({
      credentialsFile: settings.credentialsFile,
      env: settings.env,
    });
    return loaded.credentials;
  } catch (error) {
    if (error instanceof CliCredentialsError) throw new CommandError('CONFIG', error.message);
    throw error;
  }
}

async function connectWithClient(settings: PrintConnectSettings): Promise<DocumentConnection> {
  const baseUrl = settings.baseUrl ?? settings.env['KIOSK_API_BASE_URL'];
  if (baseUrl === undefined || baseUrl === '') {
    throw new CommandError(
      'CONFIG',
      'no API base URL: pass --base-url <url> or set KIOSK_API_BASE_URL',
    );
  }
  const credentials = await loadCredentials(settings);
  try {
    const client = createApiClient({ baseUrl, credentials: async () => credentials });
    return { source: apiDocumentSource(client), close: () => client.close() };
  } catch (error) {
    throw new CommandError('CONFIG', error instanceof Error ? error.message : String(error));
  }
}

function describeFailure(error: unknown): { code: string; message: string; exitCode: number } {
  if (error instanceof CommandError)
    return { code: error.code, message: error.message, exitCode: error.exitCode };
  if (isPrintError(error)) {
    return {
      code: error.code,
      message: error.message,
      exitCode:
        error.code === 'invalid_options'
          ? printExitCodes.invalidRequest
          : printExitCodes.printFailed,
    };
  }
  return {
    code: 'UNEXPECTED',
    message: error instanceof Error ? error.message : String(error),
    exitCode: printExitCodes.unexpected,
  };
}
