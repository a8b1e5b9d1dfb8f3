import { isPrintError, type PrintBackend, type PrinterInfo } from '../printing/index.ts';
import type { ErrorNote } from './service-check.ts';
import type { Problem } from './trouble.ts';

/**
 * The printers as the print service (CUPS) reports them, and whether the kiosk's printer can
 * print: the one configured (settings, KIOSK_PRINTER), else the system default. Other queues'
 * troubles are listed but do not make the kiosk unhealthy: it never prints to them. A kiosk
 * deployed without a printer (none named, and no print service or no default printer on it) is
 * healthy: printing is `not-configured`, not a trouble. A printer named but out of reach is.
 */

export interface PrinterHealth {
  /**
   * `configured`: the kiosk prints to `printer`; `not-configured`: no printer is named and the
   * machine has no print service or no default printer, so the kiosk does not print.
   */
  readonly printing: 'configured' | 'not-configured';
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

/** A backend to ask, or why there is none (no CUPS on this platform...); `printer`: the one named in setup or KIOSK_PRINTER. */
export type PrinterAccess =
  | { readonly backend: PrintBackend; readonly printer: string | undefined }
  | { readonly unavailable: ErrorNote; readonly printer: string | undefined };

const checkQueue = (name: string) =>
  `fix the printer (paper, jam, power, cable), then let the queue print again: cupsenable ${name}; cupsaccept ${name}. Check: kioskctl printers`;

export async function printerHealth(
  access: PrinterAccess,
): Promise<{ printers: PrinterHealth; problems: Problem[] }> {
  if ('unavailable' in access) {
    // No print service on this machine and no printer named: a kiosk that does not print.
    if (access.printer === undefined) return notConfigured(null, [], access.unavailable);
    return failed(null, access.printer, access.unavailable);
  }
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
  const queues = list.map((printer) => ({
    name: printer.name,
    state: printer.state,
    accepting: printer.accepting,
    problem: printer.reason
      ? { code: printer.reason.code, message: printer.reason.message }
      : printer.state === 'stopped'
        ? { code: 'printer_stopped', message: `The printer "${printer.name}" is stopped.` }
        : null,
  }));
  if (chosen === null) return notConfigured(backend.name, queues, null);
  const printers: PrinterHealth = {
    printing: 'configured',
    backend: backend.name,
    printer: chosen,
    default: fallback ?? null,
    printers: queues,
    error: null,
  };
  const problems: Problem[] = [];
  const mine = printers.printers.find((printer) => printer.name === chosen);
  if (mine === undefined) {
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

function notConfigured(
  backend: string | null,
  printers: PrinterHealth['printers'],
  error: ErrorNote | null,
): { printers: PrinterHealth; problems: Problem[] } {
  return {
    printers: {
      printing: 'not-configured',
      backend,
      printer: null,
      default: null,
      printers,
      error,
    },
    problems: [],
  };
}

/**
 * The print service cannot be asked. With no printer named, the kiosk would print to the
 * service's default, which only the service knows: still trouble, as for a named printer.
 */
function failed(
  backend: string | null,
  printer: string | null,
  error: ErrorNote,
): { printers: PrinterHealth; problems: Problem[] } {
  return {
    printers: { printing: 'configured', backend, printer, default: null, printers: [], error },
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
