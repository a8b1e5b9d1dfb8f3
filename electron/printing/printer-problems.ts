import type { PrinterState, PrintProblem } from '../../shared/ipc/printing.ts';

/** What a backend knows about a printer's health, in the IPP vocabulary both CUPS and Chromium use. */
export interface PrinterCondition {
  readonly name: string;
  readonly state: PrinterState;
  /** printer-state-message: free text from the driver ("Out of paper", "Printer is offline"). */
  readonly message: string | undefined;
  /** printer-state-reasons keywords (media-empty-error, offline-report, paused...). */
  readonly reasons: readonly string[];
}

const OUT_OF_PAPER =
  /out of paper|paper (is )?(empty|out)|no paper|load paper|add paper|media[- ]empty|media[- ]needed/i;
const JAM = /jam/i;
const OFFLINE =
  /offline|not responding|may not exist or is unavailable|unable to connect|not connected|cannot connect|connection refused|waiting for printer/i;

/**
 * What is wrong with a printer, in words staff can act on. The reason keywords are authoritative
 * when present; the free-text message is read too because many drivers only say "Out of paper"
 * there. `busy` is true when a job is waiting on the printer: an idle printer's leftover error
 * message alone is not reported.
 */
export function printerProblem(printer: PrinterCondition, busy: boolean): PrintProblem | undefined {
  const reasons = printer.reasons.join(' ');
  const message = printer.message;
  const quoted = message === undefined ? '' : ` ("${message}")`;
  const name = printer.name;
  if (
    /media-empty|media-needed/.test(reasons) ||
    (message !== undefined && OUT_OF_PAPER.test(message))
  ) {
    return { code: 'out_of_paper', message: `The printer "${name}" is out of paper${quoted}.` };
  }
  if (/media-jam/.test(reasons) || (message !== undefined && JAM.test(message))) {
    return { code: 'paper_jam', message: `Paper is jammed in the printer "${name}"${quoted}.` };
  }
  if (
    /offline|connecting-to-device|shutdown/.test(reasons) ||
    (message !== undefined && OFFLINE.test(message))
  ) {
    return {
      code: 'printer_offline',
      message: `The printer "${name}" is offline or unreachable${quoted}.`,
    };
  }
  if (printer.state === 'stopped') {
    return { code: 'printer_stopped', message: `The printer "${name}" is stopped${quoted}.` };
  }
  if (busy && message !== undefined && /-error\b/.test(reasons)) {
    return { code: 'print_failed', message: `The printer "${name}" reports a problem${quoted}.` };
  }
  return undefined;
}
