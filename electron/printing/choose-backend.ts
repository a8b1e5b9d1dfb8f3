import type { PrintBackendName } from '../../shared/ipc/printing.ts';
import { isPrintError, PrintError, type PrintBackend } from './backend.ts';
import { CupsBackend, type CupsBackendOptions } from './cups-backend.ts';
import { ElectronBackend, type ElectronPrintHost } from './electron-backend.ts';

export type BackendPreference = 'auto' | PrintBackendName;

export interface PrintingConfig {
  /** `auto`: CUPS on Linux and macOS, Electron on Windows. */
  readonly backend?: BackendPreference | undefined;
  /** The printer staff print to; the system default when absent. */
  readonly printer?: string | undefined;
  /** CUPS scheduler as `host:port`, when not the system's own. */
  readonly cupsServer?: string | undefined;
  /** Paper size keyword (A4, Letter...); the printer's default when absent. */
  readonly media?: string | undefined;
}

export interface BackendChoice {
  readonly backend: PrintBackend;
  /** Why this backend, for the log and `kioskctl printers`. */
  readonly why: string;
}

export interface ChooseBackendInput {
  readonly config: PrintingConfig;
  readonly platform: NodeJS.Platform;
  /** Absent outside Electron (the CLI, tests): the Electron backend is then unavailable. */
  readonly electronHost?: ElectronPrintHost | undefined;
  readonly cups?: Omit<CupsBackendOptions, 'server'> | undefined;
}

/**
 * CUPS where it is the system's print service (Linux, macOS); Chromium's printing on Windows, and
 * on a Unix machine without the CUPS tools when running inside Electron. An explicit choice is
 * obeyed or refused, never replaced.
 */
export async function chooseBackend(input: ChooseBackendInput): Promise<BackendChoice> {
  const preference = input.config.backend ?? 'auto';
  const cups = (): CupsBackend =>
    new CupsBackend({ ...input.cups, server: input.config.cupsServer });
  const electron = (): ElectronBackend => {
    if (!input.electronHost) {
      throw new PrintError(
        'backend_unavailable',
        'Printing through Electron is only possible inside the kiosk app.',
      );
    }
    return new ElectronBackend(input.electronHost);
  };

  if (preference === 'cups') return { backend: cups(), why: 'configured: cups' };
  if (preference === 'electron') return { backend: electron(), why: 'configured: electron' };
  if (input.platform === 'win32') return { backend: electron(), why: 'Windows has no CUPS' };

  const candidate = cups();
  try {
    // Only a missing tool rules CUPS out; a scheduler that is down now is reported at print time.
    await candidate.defaultPrinter().catch((error: unknown) => {
      if (isPrintError(error) && error.code === 'backend_unavailable') throw error;
    });
    return { backend: candidate, why: `${input.platform}: CUPS` };
  } catch (error) {
    if (isPrintError(error) && error.code === 'backend_unavailable' && input.electronHost) {
      await candidate.dispose();
      return {
        backend: new ElectronBackend(input.electronHost),
        why: 'CUPS tools not installed: Electron fallback',
      };
    }
    throw error;
  }
}

/**
 * The printer a job goes to: the one asked for, else the configured one, else the system default.
 * A named printer that does not exist is an error, never silently swapped for another.
 */
export async function choosePrinter(
  backend: PrintBackend,
  requested: string | undefined,
): Promise<string> {
  if (requested !== undefined) {
    const printers = await backend.listPrinters();
    if (!printers.some((printer) => printer.name === requested)) {
      throw new PrintError('printer_unknown', `There is no printer named "${requested}".`);
    }
    return requested;
  }
  const fallback = await backend.defaultPrinter();
  if (fallback === undefined) {
    throw new PrintError(
      'no_printer',
      'No printer is configured for the kiosk and the computer has no default printer.',
    );
  }
  return fallback;
}
