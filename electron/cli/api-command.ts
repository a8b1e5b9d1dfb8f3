import { readFile, writeFile } from 'node:fs/promises';
import { CliCredentialsError, loadCliCredentials } from '../credentials/cli-credentials.ts';
import type { Operation } from '../../shared/api/operation.ts';
import { type OperationName, operationList, operations } from '../../shared/api/operations.ts';
import { type CommerceApiClient, createApiClient } from '../api/client.ts';
import { isCommerceApiError } from '../api/errors.ts';
import type { PdfDocument } from '../api/pdf.ts';
import type { Credentials } from '../api/token.ts';
import { type Logger, createRedactingLogger, silentLogger } from '../logging/redacting-logger.ts';

/**
 * `kioskctl api`: one contract operation from a technician's shell, through the same client the
 * kiosk uses (validation, token, retries, reply parsing), so what it prints is what the kiosk sees.
 */

/** The exit codes are an interface: scripts on the fleet branch on them. */
export const exitCodes = {
  ok: 0,
  unexpected: 1,
  /** Refused locally: bad flag, bad input, missing configuration; nothing was sent. */
  invalidRequest: 2,
  /** The API answered with an error. */
  apiError: 3,
  /** No answer: network failure or timeout. */
  network: 4,
  /** The API answered something the contract does not allow. */
  contractViolation: 5,
} as const;

export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly env: Readonly<Record<string, string | undefined>>;
}

export interface ApiCommandArgs {
  readonly operationId: string | undefined;
  readonly list: boolean;
  readonly baseUrl: string | undefined;
  readonly credentialsFile: string | undefined;
  readonly params: readonly string[];
  readonly body: string | undefined;
  readonly idempotencyKey: string | undefined;
  readonly out: string | undefined;
  readonly verbose: boolean;
}

/** A refusal of the command line itself, before any client exists. */
export class UsageError extends Error {
  readonly code: string;
  constructor(code: 'USAGE' | 'CONFIG' | 'INVALID_REQUEST', message: string) {
    super(message);
    this.name = 'UsageError';
    this.code = code;
  }
}

export function writeError(io: CliIo, code: string, status: number | null, message: string): void {
  io.stderr(`${JSON.stringify({ error: { code, status, message } })}\n`);
}

export function exitCodeFor(error: unknown): number {
  if (error instanceof UsageError) return exitCodes.invalidRequest;
  if (!isCommerceApiError(error)) return exitCodes.unexpected;
  switch (error.kind) {
    case 'InvalidRequest':
      return 'local' in error && error.local === true
        ? exitCodes.invalidRequest
        : exitCodes.apiError;
    case 'CredentialsRejected':
      // Without a status the credentials were unreadable or malformed: a local configuration fault.
      return error.status === undefined ? exitCodes.invalidRequest : exitCodes.apiError;
    case 'NetworkError':
    case 'Timeout':
      return exitCodes.network;
    case 'ContractViolation':
      return exitCodes.contractViolation;
    default:
      return exitCodes.apiError;
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

/** The integration account for a kioskctl command, or a CONFIG usage error saying where to put it. */
export async function loadCredentials(
  credentialsFile: string | undefined,
  env: CliIo['env'],
): Promise<Credentials> {
  try {
    return (await loadCliCredentials({ credentialsFile, env })).credentials;
  } catch (error) {
    if (error instanceof CliCredentialsError) throw new UsageError('CONFIG', error.message);
    throw error;
  }
}

interface OperationInputParts {
  params?: Record<string, string>;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  body?: unknown;
}

async function buildInput(
  operation: Operation,
  args: ApiCommandArgs,
): Promise<OperationInputParts> {
  const input: OperationInputParts = {};
  const pathNames = new Set(Object.keys(operation.params?.shape ?? {}));
  const seen = new Set<string>();
  for (const pair of args.params) {
    const at = pair.indexOf('=');
    if (at <= 0) throw new UsageError('USAGE', `--param expects name=value, got "${pair}"`);
    const name = pair.slice(0, at);
    const value = pair.slice(at + 1);
    if (seen.has(name)) throw new UsageError('USAGE', `--param ${name} is given twice`);
    seen.add(name);
    // Path parameters by their name in the template; every other name is a query parameter,
    // which the operation's strict query schema accepts or refuses.
    if (pathNames.has(name)) (input.params ??= {})[name] = value;
    else (input.query ??= {})[name] = value;
  }
  if (args.idempotencyKey !== undefined) input.headers = { 'Idempotency-Key': args.idempotencyKey };
  if (args.body !== undefined) {
    let text = args.body;
    if (text.startsWith('@')) {
      try {
        text = await readFile(text.slice(1), 'utf8');
      } catch {
        throw new UsageError('USAGE', `cannot read the body file ${text.slice(1)}`);
      }
    }
    try {
      input.body = JSON.parse(text);
    } catch {
      throw new UsageError(
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

export async function runApiCommand(args: ApiCommandArgs, io: CliIo): Promise<number> {
  if (args.list) {
    if (args.operationId !== undefined)
      throw new UsageError('USAGE', '--list takes no operationId');
    io.stdout(formatOperationList());
    return exitCodes.ok;
  }
  if (args.operationId === undefined) {
    throw new UsageError(
      'USAGE',
      'missing operationId: kioskctl api <operationId> [--param name=value ...] (or --list)',
    );
  }
  if (!isOperationName(args.operationId)) {
    throw new UsageError(
      'USAGE',
      `unknown operationId "${args.operationId}" (kioskctl api --list shows the 30 operations)`,
    );
  }
  const name = args.operationId;
  const operation: Operation = operations[name];
  const isPdf = 'pdf' in operation.reply;
  if (isPdf && args.out === undefined)
    throw new UsageError('USAGE', `${name} returns a PDF: give --out <file>`);
  if (!isPdf && args.out !== undefined)
    throw new UsageError('USAGE', `--out is for the PDF operations; ${name} prints JSON`);
  if (
    name === 'authenticate' &&
    (args.params.length > 0 || args.body !== undefined || args.idempotencyKey !== undefined)
  ) {
    throw new UsageError(
      'USAGE',
      'authenticate takes no input: it uses the configured credentials',
    );
  }

  const baseUrl = args.baseUrl ?? io.env['KIOSK_API_BASE_URL'];
  if (baseUrl === undefined || baseUrl === '') {
    throw new UsageError(
      'CONFIG',
      'no API base URL: pass --base-url <url> or set KIOSK_API_BASE_URL',
    );
  }
  const input = await buildInput(operation, args);
  const credentials = await loadCredentials(args.credentialsFile, io.env);
  const logger: Logger = args.verbose
    ? createRedactingLogger({
        sink: (line) => io.stderr(`${line}\n`),
        level: 'debug',
        base: { component: 'kioskctl' },
      })
    : silentLogger;

  let client: CommerceApiClient;
  try {
    client = createApiClient({ baseUrl, credentials: async () => credentials, logger });
  } catch (error) {
    throw new UsageError('CONFIG', error instanceof Error ? error.message : String(error));
  }
  try {
    const result = await callOperation(client, name, input);
    if (isPdf) {
      const document = result as PdfDocument;
      // Invoices and slips name a customer: readable by the technician's account only.
      await writeFile(args.out!, document.bytes, { mode: 0o600 });
      io.stdout(`${JSON.stringify({ bytes: document.bytes.byteLength, out: args.out })}\n`);
    } else {
      io.stdout(`${JSON.stringify(result, null, 2)}\n`);
    }
    return exitCodes.ok;
  } finally {
    client.close();
  }
}
