import { isPrintError, type PrintBackend, type PrinterInfo } from '../printing/index.ts';
import type { ErrorNote } from './service-check.ts';
import type { Problem } from './trouble.ts';

/**
 * The printers as the print service (CUPS) reports them, and whether the kiosk's printer can
 * print: the one configured (settings, KIOSK_PRINTER), else the system default. Other queues'
 * troubles are listed but do not make the kiosk unhealthy: it never prints to them.
 */

export interface PrinterHealth {
  readonly backend: string | null;
  /** The printer the kiosk prints to; null when none is configured and there is no default. */
  readonly printer: string | null;
  readonly default: string | null;
  readonly printers: readonly {
    readonly name: string;
    readonly state: PrinterInfo['state'];
    readonly accepting: boolean;
    readonly problem: ErrorNote | null;
  }[];
  /** The print service could not be asked. */
  readonly error: ErrorNote | null;
}

/** A backend to ask, or why there is none (no CUPS on this platform...). */
export type PrinterAccess =
  | { readonly backend: PrintBackend; readonly printer: string | undefined }
  | { readonly unavailable: ErrorNote };

const checkQueue = (name: string) =>
  `fix the printer (paper, jam, power, cable), then let the queue print again: cupsenable ${name}; cupsaccept ${name}. Check: kioskctl printers`;

export async function printerHealth(
  access: PrinterAccess,
): Promise<{ printers: PrinterHealth; problems: Problem[] }> {
  if ('unavailable' in access) return failed(null, null, access.unavailable);
  const { backend } = access;
  let list: PrinterInfo[];
  let fallback: string | undefined;
  try {
    [list, fallback] = await Promise.all([backend.listPrinters(), backend.defaultPrinter()]);
  } catch (error) {
    const note = isPrintError(error)
      ? { code: error.code, message: error.message }
      : { code: 'print_failed', message: error instanceof Error ? error.message : String(error) };
    return failed(backend.name, access.printer ?? null, note);
  }
  const chosen = access.printer ?? fallback ?? null;
  const printers: PrinterHealth = {
    backend: backend.name,
    printer: chosen,
    default: fallback ?? null,
    printers: list.map((printer) => ({
      name: printer.name,
      state: printer.state,
      accepting: printer.accepting,
      problem: printer.reason
        ? { code: printer.reason.code, message: printer.reason.message }
        : printer.state === 'stopped'
          ? { code: 'printer_stopped', message: `The printer "${printer.name}" is stopped.` }
          : null,
    })),
    error: null,
  };
  const problems: Problem[] = [];
  const mine = printers.printers.find((printer) => printer.name === chosen);
  if (chosen === null) {
    problems.push({
      class: 'printer',
      code: 'NO_PRINTER',
      message: 'no printer is configured and the print service has no default printer',
      next: "choose the printer in the kiosk's setup, or set a default: lpadmin -d <queue>",
    });
  } else if (mine === undefined) {
    problems.push({
      class: 'printer',
      code: 'PRINTER_NOT_FOUND',
      message: `the kiosk's printer "${chosen}" is not a queue of the print service`,
      next: "choose an existing printer in the kiosk's setup (lpstat -p lists them)",
    });
  } else if (mine.problem !== null) {
    problems.push({
      class: 'printer',
      code: problemCode(mine.problem.code),
      message: mine.problem.message,
      next: checkQueue(chosen),
    });
  }
  return { printers, problems };
}

function failed(
  backend: string | null,
  printer: string | null,
  error: ErrorNote,
): { printers: PrinterHealth; problems: Problem[] } {
  return {
    printers: { backend, printer, default: null, printers: [], error },
    problems: [
      {
        class: 'printer',
        code: 'PRINT_SERVICE_UNAVAILABLE',
        message: `the print service cannot be asked: ${error.message}`,
        next: 'start CUPS (systemctl status cups) or check --cups-server / KIOSK_CUPS_SERVER',
      },
    ],
  };
}

/** `printer_offline` → `PRINTER_OFFLINE`, `out_of_paper` → `PRINTER_OUT_OF_PAPER`. */
function problemCode(code: string): string {
  const upper = code.toUpperCase();
  return upper.startsWith('PRINTER_') ? upper : `PRINTER_${upper}`;
}
