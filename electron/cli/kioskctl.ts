#!/usr/bin/env node
/**
 * kioskctl: the field technician's tool, run over SSH on a kiosk (Node >= 22.18 runs this .ts
 * file directly). Every failure prints one JSON line on stderr, `{"error":{code,status,message}}`,
 * and exits with a code scripts can branch on (see `exitCodes`).
 */
import { realpathSync } from 'node:fs';
import { enableCompileCache } from 'node:module';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { CliIo } from './api-command.ts';

// A technician runs kioskctl again and again over a slow SSH link on a small kiosk PC; caching
// the compiled contract and client halves the start-up. Must run before they are imported, and
// only when this file is the program (not when a test imports `main`).
if (isEntryPoint()) enableCompileCache?.();
const { isCommerceApiError } = await import('../api/errors.ts');
const { UsageError, exitCodeFor, exitCodes, runApiCommand, writeError } =
  await import('./api-command.ts');

const usage = `usage:
  kioskctl [--base-url <url>] [--credentials <file>] api <operationId> [--param name=value ...]
           [--body <json>|@<file>] [--idempotency-key <key>] [--out <file>] [--verbose]
  kioskctl api --list
  kioskctl catalog|outbox|print|printers|credentials ... --help   (the other commands, each with its own help)

  --base-url      the Commerce API base URL (or env KIOSK_API_BASE_URL)
  --credentials   a JSON file {"email": "...", "password": "..."} (or env KIOSK_API_EMAIL, KIOSK_API_PASSWORD)
  --param         a path or query parameter of the operation; repeat for several
  --body          the JSON body (replaceCustomer, debitGiftCard)
  --idempotency-key  the Idempotency-Key of debitGiftCard: reuse it to retry the same debit
  --out           where a PDF operation writes the document
  --verbose       redacted JSON log lines on stderr

exit codes of api: 0 ok, 2 refused locally, 3 API error reply, 4 network or timeout, 5 contract violation
`;

/** Global flags that take a value, so their value is not mistaken for the command word. */
const globalValueFlags = new Set(['--base-url', '--credentials', '--data-dir', '--cups-server']);

/** The command word: the first argument that is neither a flag nor a global flag's value. */
function commandOf(
  argv: readonly string[],
): { readonly word: string; readonly index: number } | undefined {
  for (let index = 0; index < argv.length; index += 1) {
    const arg = argv[index]!;
    if (arg === '--') return undefined;
    if (globalValueFlags.has(arg)) {
      index += 1;
      continue;
    }
    if (!arg.startsWith('-')) return { word: arg, index };
  }
  return undefined;
}

export interface MainOptions {
  /** Whether stderr is a terminal (progress bars); false when captured. */
  readonly stderrIsTty?: boolean;
}

const options = {
  'base-url': { type: 'string' },
  credentials: { type: 'string' },
  param: { type: 'string', multiple: true },
  body: { type: 'string' },
  'idempotency-key': { type: 'string' },
  out: { type: 'string' },
  list: { type: 'boolean' },
  verbose: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

export async function main(
  argv: readonly string[],
  io: CliIo,
  { stderrIsTty = false }: MainOptions = {},
): Promise<number> {
  // The other commands own their flags; each is loaded only when used, so a fault in one
  // cannot take `kioskctl api`, the last-resort diagnostic, down with it.
  const command = commandOf(argv);
  try {
    switch (command?.word) {
      case 'catalog': {
        const { runCatalogCommand } = await import('./catalog-command.ts');
        const rest = [...argv.slice(0, command.index), ...argv.slice(command.index + 1)];
        return await runCatalogCommand(rest, { io, stderrIsTty });
      }
      case 'outbox': {
        const { runOutboxCommand } = await import('./outbox-command.ts');
        return await runOutboxCommand(argv, { io });
      }
      case 'credentials': {
        const { runCredentialsCommand } = await import('./credentials-command.ts');
        const rest = [...argv.slice(0, command.index), ...argv.slice(command.index + 1)];
        return await runCredentialsCommand(rest, { io });
      }
      case 'print':
      case 'printers': {
        const { runPrintCommand } = await import('./print-command.ts');
        return await runPrintCommand(argv, { io });
      }
      default:
        return await runApi(argv, io);
    }
  } catch (error) {
    // The commands report their own failures; this is the net under a command that threw.
    writeError(io, 'UNEXPECTED', null, error instanceof Error ? error.message : String(error));
    return exitCodes.unexpected;
  }
}

async function runApi(argv: readonly string[], io: CliIo): Promise<number> {
  try {
    let parsed;
    try {
      parsed = parseArgs({ args: [...argv], options, strict: true, allowPositionals: true });
    } catch (error) {
      // parseArgs names the offending flag ("Unknown option '--bogus'"); keep its words.
      throw new UsageError(
        'USAGE',
        `${error instanceof Error ? error.message : String(error)} (kioskctl --help)`,
      );
    }
    const { values, positionals } = parsed;
    if (values.help) {
      io.stdout(usage);
      return exitCodes.ok;
    }
    const [command, operationId, ...extra] = positionals;
    if (command !== 'api') {
      throw new UsageError(
        'USAGE',
        command === undefined
          ? 'missing command (kioskctl --help)'
          : `unknown command "${command}" (commands: api, catalog, outbox, print, printers, credentials; kioskctl --help)`,
      );
    }
    if (extra.length > 0) throw new UsageError('USAGE', `unexpected argument "${extra[0]}"`);
    return await runApiCommand(
      {
        operationId,
        list: values.list ?? false,
        baseUrl: values['base-url'],
        credentialsFile: values.credentials,
        params: values.param ?? [],
        body: values.body,
        idempotencyKey: values['idempotency-key'],
        out: values.out,
        verbose: values.verbose ?? false,
      },
      io,
    );
  } catch (error) {
    if (error instanceof UsageError) {
      writeError(io, error.code, null, error.message);
    } else if (isCommerceApiError(error)) {
      writeError(io, error.code, error.status ?? null, error.message);
    } else {
      writeError(io, 'UNEXPECTED', null, error instanceof Error ? error.message : String(error));
    }
    return exitCodeFor(error);
  }
}

function isEntryPoint(): boolean {
  const script = process.argv[1];
  if (!script) return false;
  try {
    // Through an npm bin link argv[1] is the link; compare real paths.
    return realpathSync(resolve(script)) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (isEntryPoint()) {
  const io: CliIo = {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    env: process.env,
  };
  process.exitCode = await main(process.argv.slice(2), io, { stderrIsTty: process.stderr.isTTY });
}
