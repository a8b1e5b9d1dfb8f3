#!/usr/bin/env -S node --max-semi-space-size=16
/**
 * kioskctl: the field technician's tool, run over SSH on a kiosk (Node >= 22.18 runs this .ts
 * file directly). Every failure prints one JSON line on stderr, `{"error":{code,status,message}}`
 * (outbox and print: without status), and exits with a code scripts can branch on (`exitCodes`
 * in command.ts, extended by each command). What the commands share is in command.ts.
 */
import { realpathSync } from 'node:fs';
import { enableCompileCache } from 'node:module';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Io } from './command.ts';

// A technician runs kioskctl again and again over a slow SSH link on a small kiosk PC; caching
// the compiled contract and client halves the start-up. Must run before they are imported, and
// only when this file is the program (not when a test imports `main`).
if (isEntryPoint()) enableCompileCache?.();
const { commandNameOf, describeFailure, writeError } = await import('./command.ts');

export interface MainOptions {
  /** Whether stderr is a terminal (progress bars); false when captured. */
  readonly stderrIsTty?: boolean;
}

/** Runs kioskctl: every command receives argv as typed, and reports its own failures. */
export async function main(
  argv: readonly string[],
  io: Io,
  { stderrIsTty = false }: MainOptions = {},
): Promise<number> {
  // Each command is loaded only when used, so a fault in one cannot take `kioskctl api`, the
  // last-resort diagnostic, down with it.
  try {
    switch (commandNameOf(argv)) {
      case 'catalog': {
        const { runCatalogCommand } = await import('./catalog-command.ts');
        return await runCatalogCommand(argv, { io, stderrIsTty });
      }
      case 'outbox': {
        const { runOutboxCommand } = await import('./outbox-command.ts');
        return await runOutboxCommand(argv, { io });
      }
      case 'credentials': {
        const { runCredentialsCommand } = await import('./credentials-command.ts');
        return await runCredentialsCommand(argv, { io });
      }
      case 'contract': {
        const { runContractCommand } = await import('./contract-command.ts');
        return await runContractCommand(argv, { io });
      }
      case 'status': {
        const { runStatusCommand } = await import('./status-command.ts');
        return await runStatusCommand(argv, { io });
      }
      case 'print':
      case 'printers': {
        const { runPrintCommand } = await import('./print-command.ts');
        return await runPrintCommand(argv, { io });
      }
      default: {
        // `api`, and no command at all: its usage is kioskctl's.
        const { runApiCommand } = await import('./api-command.ts');
        return await runApiCommand(argv, { io });
      }
    }
  } catch (error) {
    // A command that could not even load.
    const failure = describeFailure(error);
    writeError(io, failure);
    return failure.exitCode;
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
  const io: Io = {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    env: process.env,
  };
  process.exitCode = await main(process.argv.slice(2), io, { stderrIsTty: process.stderr.isTTY });
}
