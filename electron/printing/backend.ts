import {
  MAX_COPIES,
  PrinterName,
  type PrintBackendName,
  type PrinterState,
  type PrintProblem,
  type PrintProblemCode,
} from '../../shared/ipc/printing.ts';

/**
 * The one interface every print backend (CUPS, Electron webContents.print) offers to the queue.
 * States and failure codes are deliberately coarse: they are what staff at a kiosk can act on.
 */

export interface PrinterInfo {
  readonly name: string;
  readonly isDefault: boolean;
  readonly state: PrinterState;
  /** False when the queue refuses new jobs (CUPS `reject`). */
  readonly accepting: boolean;
  /** Why the printer cannot print right now, when it says so (out of paper, offline...). */
  readonly reason?: PrintProblem | undefined;
}

export type JobState = 'pending' | 'processing' | 'completed' | 'cancelled' | 'aborted' | 'stopped';

export const terminalJobStates: ReadonlySet<JobState> = new Set([
  'completed',
  'cancelled',
  'aborted',
]);

export interface JobStatus {
  readonly state: JobState;
  /** What holds the job up or why it ended badly. */
  readonly reason?: PrintProblem | undefined;
}

export interface PrintOptions {
  readonly printer: string;
  /** Shown in the printer's queue; never personal data. */
  readonly title: string;
  readonly copies: number;
  /** A media keyword such as `A4` or `Letter`; the printer's default when absent. */
  readonly media?: string | undefined;
}

export interface PrintBackend {
  /** For logs and the CLI: which backend is printing. */
  readonly name: PrintBackendName;
  listPrinters(): Promise<PrinterInfo[]>;
  /**
   * The system default printer, or undefined when the system has none; rejects (`scheduler_down`)
   * when the print service is not there to say.
   */
  defaultPrinter(): Promise<string | undefined>;
  /** Sends `file` (a verified PDF on disk) and returns the backend's job id. */
  print(file: string, options: PrintOptions): Promise<string>;
  jobState(jobId: string): Promise<JobStatus>;
  cancel(jobId: string): Promise<void>;
  /** Releases what the backend holds (helper files, hidden windows). */
  dispose?(): Promise<void>;
}

/** A failure of a backend operation, as a value with a stable code. */
export class PrintError extends Error {
  override readonly name = 'PrintError';
  readonly code: PrintProblemCode;
  /** True when trying again shortly may succeed (the scheduler was briefly unreachable). */
  readonly transient: boolean;
  constructor(
    code: PrintProblemCode,
    message: string,
    options: { transient?: boolean; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.transient = options.transient ?? false;
  }

  toProblem(): PrintProblem {
    return { code: this.code, message: this.message };
  }
}

export function isPrintError(value: unknown): value is PrintError {
  return value instanceof PrintError;
}

const MEDIA = /^[A-Za-z0-9_.-]{1,64}$/;

/**
 * Options reach command lines and native print dialogs; refuse anything odd rather than trust
 * every backend to quote it. Returns the options with the title made printable.
 */
export function checkPrintOptions(options: PrintOptions): PrintOptions {
  if (!PrinterName.safeParse(options.printer).success) {
    throw new PrintError('invalid_options', `"${options.printer}" is not a valid printer name.`);
  }
  if (!Number.isInteger(options.copies) || options.copies < 1 || options.copies > MAX_COPIES) {
    throw new PrintError(
      'invalid_options',
      `Copies must be a whole number from 1 to ${MAX_COPIES}.`,
    );
  }
  if (options.media !== undefined && !MEDIA.test(options.media)) {
    throw new PrintError('invalid_options', `"${options.media}" is not a valid paper size.`);
  }
  // Control characters would break the queue listing; CUPS caps names at 255 bytes.
  const title = [...options.title]
    .map((char) => (/\p{Cc}/u.test(char) ? ' ' : char))
    .join('')
    .trim()
    .slice(0, 120);
  if (title === '') {
    throw new PrintError('invalid_options', 'A print job needs a title.');
  }
  return { ...options, title };
}
