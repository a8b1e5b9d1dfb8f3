import type { PrinterState } from '../../shared/ipc/printing.ts';
import {
  checkPrintOptions,
  PrintError,
  type JobStatus,
  type PrintBackend,
  type PrinterInfo,
  type PrintOptions,
} from './backend.ts';
import { printerProblem } from './printer-problems.ts';

/**
 * What this backend needs from Electron, injected by electron/host so that this file runs (and is
 * tested) under plain Node. Shapes follow Electron's own: `webContents.getPrintersAsync()` and
 * `webContents.print(options, callback)`.
 */
export interface ElectronPrintHost {
  /** `webContents.getPrintersAsync()` of any live WebContents. */
  getPrintersAsync(): Promise<readonly ElectronPrinter[]>;
  /**
   * Loads the PDF file in a hidden, sandboxed window with the PDF viewer enabled and resolves
   * once the document is rendered (printing PDFs this way works from Electron 35.7.1).
   */
  openHiddenDocument(file: string): Promise<HiddenDocument>;
}

/** Electron's PrinterInfo; `isDefault` is the host's reading of the platform options. */
export interface ElectronPrinter {
  readonly name: string;
  readonly displayName?: string;
  readonly isDefault?: boolean;
  /** Platform-specific: on CUPS platforms printer-state, printer-state-reasons, ... */
  readonly options?: Readonly<Record<string, string | undefined>>;
}

export type ElectronPageSize = 'A3' | 'A4' | 'A5' | 'A6' | 'Legal' | 'Letter' | 'Tabloid';

export interface ElectronSilentPrintOptions {
  readonly silent: true;
  readonly deviceName: string;
  readonly copies: number;
  readonly printBackground: true;
  readonly pageSize?: ElectronPageSize;
  readonly usePrinterDefaultPageSize?: boolean;
}

export interface HiddenDocument {
  /** `webContents.print`: the callback fires once, when the OS spooler took the job or it failed. */
  print(
    options: ElectronSilentPrintOptions,
    callback: (success: boolean, failureReason: string) => void,
  ): void;
  /** Destroys the hidden window; a print still in progress is abandoned. */
  close(): void;
}

const PAGE_SIZES: Readonly<Record<string, ElectronPageSize>> = {
  a3: 'A3',
  a4: 'A4',
  a5: 'A5',
  a6: 'A6',
  legal: 'Legal',
  letter: 'Letter',
  tabloid: 'Tabloid',
  iso_a4_210x297mm: 'A4',
  iso_a5_148x210mm: 'A5',
  na_letter_8_5x11in: 'Letter',
  na_legal_8_5x14in: 'Legal',
};

interface ElectronJob {
  status: JobStatus;
  document: HiddenDocument | undefined;
}

/**
 * Printing with Chromium's print pipeline (Windows, and the fallback elsewhere). Chromium only
 * says whether the OS spooler accepted the job, so `completed` here means "handed to the
 * spooler"; there is no later paper-level state to follow.
 */
export class ElectronBackend implements PrintBackend {
  readonly name = 'electron';
  readonly #host: ElectronPrintHost;
  readonly #jobs = new Map<string, ElectronJob>();
  #sequence = 0;

  constructor(host: ElectronPrintHost) {
    this.#host = host;
  }

  async listPrinters(): Promise<PrinterInfo[]> {
    const printers = await this.#printers();
    return printers.map((printer) => {
      const options = printer.options ?? {};
      const state = stateOf(options['printer-state']);
      const reasons = (options['printer-state-reasons'] ?? '')
        .split(/[\s,]+/)
        .filter((reason) => reason !== '' && reason !== 'none');
      const message = options['printer-state-message']?.trim() || undefined;
      const accepting = options['printer-is-accepting-jobs'] !== 'false';
      const reason = printerProblem({ name: printer.name, state, message, reasons }, false);
      return {
        name: printer.name,
        isDefault: printer.isDefault === true,
        state,
        accepting,
        ...(reason
          ? { reason }
          : accepting
            ? {}
            : {
                reason: {
                  code: 'printer_not_accepting',
                  message: `The printer "${printer.name}" is not accepting jobs.`,
                },
              }),
      } satisfies PrinterInfo;
    });
  }

  async defaultPrinter(): Promise<string | undefined> {
    return (await this.#printers()).find((printer) => printer.isDefault === true)?.name;
  }

  async print(file: string, options: PrintOptions): Promise<string> {
    const checked = checkPrintOptions(options);
    const page = pageOptions(checked.media);
    const printers = await this.#printers();
    // Silent printing to a name the system does not know falls back to the default printer in
    // some Chromium versions; a kiosk must print where it was told or not at all.
    if (!printers.some((printer) => printer.name === checked.printer)) {
      throw new PrintError('printer_unknown', `There is no printer named "${checked.printer}".`);
    }
    let document: HiddenDocument;
    try {
      document = await this.#host.openHiddenDocument(file);
    } catch (error) {
      throw new PrintError('print_failed', 'The document could not be opened for printing.', {
        cause: error,
      });
    }
    const jobId = `electron-${++this.#sequence}`;
    const job: ElectronJob = { status: { state: 'processing' }, document };
    this.#jobs.set(jobId, job);
    try {
      document.print(
        {
          silent: true,
          deviceName: checked.printer,
          copies: checked.copies,
          printBackground: true,
          ...page,
        },
        (success, failureReason) => this.#finish(jobId, success, failureReason),
      );
    } catch (error) {
      this.#finish(jobId, false, error instanceof Error ? error.message : 'Print job failed');
    }
    return jobId;
  }

  async jobState(jobId: string): Promise<JobStatus> {
    const job = this.#jobs.get(jobId);
    if (!job) throw new PrintError('job_unknown', `There is no print job ${jobId}.`);
    return job.status;
  }

  async cancel(jobId: string): Promise<void> {
    const job = this.#jobs.get(jobId);
    if (!job) throw new PrintError('job_unknown', `There is no print job ${jobId}.`);
    if (job.status.state !== 'processing') return;
    // Chromium has no cancel for a silent print; closing its window abandons it before spooling.
    job.status = { state: 'cancelled' };
    this.#close(job);
  }

  async dispose(): Promise<void> {
    for (const job of this.#jobs.values()) this.#close(job);
    this.#jobs.clear();
  }

  #finish(jobId: string, success: boolean, failureReason: string): void {
    const job = this.#jobs.get(jobId);
    if (!job || job.status.state !== 'processing') return;
    if (success) {
      job.status = { state: 'completed' };
    } else if (/cancel/i.test(failureReason)) {
      job.status = { state: 'cancelled' };
    } else {
      job.status = {
        state: 'aborted',
        reason: {
          code: /invalid printer settings/i.test(failureReason) ? 'invalid_options' : 'job_aborted',
          message: `The printer refused the job${failureReason ? `: ${failureReason}` : ''}.`,
        },
      };
    }
    this.#close(job);
  }

  #close(job: ElectronJob): void {
    const document = job.document;
    job.document = undefined;
    try {
      document?.close();
    } catch {
      // A window already destroyed by Electron has nothing left to release.
    }
  }

  async #printers(): Promise<readonly ElectronPrinter[]> {
    try {
      return await this.#host.getPrintersAsync();
    } catch (error) {
      throw new PrintError('backend_unavailable', 'The list of printers could not be read.', {
        transient: true,
        cause: error,
      });
    }
  }
}

/** IPP printer-state: 3 idle, 4 processing, 5 stopped. Windows gives none: assume idle. */
function stateOf(value: string | undefined): PrinterState {
  if (value === '4') return 'printing';
  if (value === '5') return 'stopped';
  return 'idle';
}

function pageOptions(
  media: string | undefined,
): Pick<ElectronSilentPrintOptions, 'pageSize' | 'usePrinterDefaultPageSize'> {
  if (media === undefined) return { usePrinterDefaultPageSize: true };
  const pageSize = PAGE_SIZES[media.toLowerCase()];
  if (!pageSize) {
    throw new PrintError(
      'invalid_options',
      `The paper size "${media}" is not supported when printing through Electron.`,
    );
  }
  return { pageSize };
}
