import { createStore, type StoreApi } from 'zustand/vanilla';
import type { KioskApi } from '../../shared/ipc/contract.ts';
import type { IpcError } from '../../shared/ipc/errors.ts';
import type { DayReportLabels } from '../../shared/ipc/printing.ts';
import {
  MAX_COPIES,
  type ServiceDocumentKind,
  type PreviewDocumentReply,
  type PrintJob,
} from '../../shared/ipc/printing.ts';
import { settle } from './call.ts';

export interface DocumentRef {
  readonly kind: ServiceDocumentKind;
  /** The sale id (invoice) or the SAV id (slip). */
  readonly reference: string;
  /** The business number staff know it by (sale or SAV number), when the screen had it. */
  readonly number: string | null;
}

/** A look-up by the number on the receipt, until a document opens. */
export type DocumentLookup =
  | { readonly phase: 'finding'; readonly number: string }
  | { readonly phase: 'none'; readonly number: string; readonly complete: boolean }
  | { readonly phase: 'failed'; readonly number: string; readonly error: IpcError };

export interface DocumentState {
  readonly lookup: DocumentLookup | null;
  readonly document: DocumentRef | null;
  /**
   * The sale was found but has no invoice yet: said in plain words instead of "not found" under
   * a heading made of the sale's identifier.
   */
  readonly noInvoice: boolean;
  readonly preview: PreviewDocumentReply | null;
  readonly previewLoading: boolean;
  readonly previewError: IpcError | null;
  /** The printer chosen on this screen; null: the kiosk's default printer. */
  readonly printer: string | null;
  readonly copies: number;
  /** A press of Print waits for main's reply: the button stays disabled meanwhile. */
  readonly printing: boolean;
  /**
   * The press whose outcome is not on screen yet. Pressing again before then (a double tap, a
   * retry after a lost reply) sends the same id, and main hands back the same job.
   */
  readonly requestId: string | null;
  /** The job this screen started; its progress is in the printer store (events). */
  readonly jobId: string | null;
  readonly printError: IpcError | null;
  /** The day report's print job (the report is not a document opened here: no preview). */
  readonly dayReportJobId: string | null;
  readonly dayReportRequestId: string | null;
  readonly dayReportPrinting: boolean;
  readonly dayReportError: IpcError | null;
  open(document: DocumentRef): Promise<void>;
  /**
   * A row's Print invoice or Print slip: the document opens with its preview and, once the
   * preview is on screen, prints on the printer chosen here, as the button said.
   */
  openAndPrint(document: DocumentRef): Promise<void>;
  /** Opens what a receipt's number (sale, invoice, SAV case) or an identifier names. */
  find(number: string): Promise<void>;
  choosePrinter(printer: string | null): void;
  setCopies(copies: number): void;
  print(): Promise<void>;
  /**
   * After a failed job, or while its printer holds it up: the same document again, on `printer`
   * (another one) when given. A held-up job is cancelled first, so it can never come out later
   * as a second copy.
   */
  printAgain(printer?: string): Promise<void>;
  cancelJob(): Promise<void>;
  /** Prints the day report of `date` in the words given, on the printer chosen here. */
  printDayReport(date: string, labels: DayReportLabels): Promise<void>;
  cancelDayReportJob(): Promise<void>;
  /**
   * Closes the document on screen and any look-up (an invoice carries the customer's name and
   * address): the kiosk left unattended. A job already sent goes on printing.
   */
  forget(): void;
}

export type DocumentStore = StoreApi<DocumentState>;

const FINISHED: ReadonlySet<PrintJob['state']> = new Set(['completed', 'failed', 'cancelled']);

/**
 * `jobOf` reads a job as main last reported it (the printer store): a press is over once its
 * job's outcome is known, and only then does the next press mint a new request id.
 */
export function createDocumentStore(
  api: KioskApi,
  onJob: (job: PrintJob) => void,
  jobOf: (jobId: string) => PrintJob | undefined = () => undefined,
): DocumentStore {
  return createStore<DocumentState>()((set, get) => {
    let generation = 0;
    let dayReportDate: string | null = null;
    /** The job on screen, when its printer holds it up (paper, jam, stall) and it is not over. */
    const heldJob = (): PrintJob | undefined => {
      const { jobId } = get();
      const job = jobId === null ? undefined : jobOf(jobId);
      return job !== undefined && !FINISHED.has(job.state) && job.problem !== null
        ? job
        : undefined;
    };
    /**
     * Cancels a held-up job before its document goes to another printer: true once main says it
     * is cancelled (or it ended meanwhile), false with the error on screen otherwise.
     */
    const cancelHeld = async (job: PrintJob): Promise<boolean> => {
      const reply = await settle(api.cancelPrintJob({ jobId: job.id }));
      if (!reply.ok) {
        set({ printError: reply.error });
        return false;
      }
      onJob(reply.value);
      return FINISHED.has(reply.value.state);
    };
    const pressOf = (requestId: string | null, jobId: string | null): string => {
      if (requestId === null) return crypto.randomUUID();
      const job = jobId === null ? undefined : jobOf(jobId);
      return job !== undefined && FINISHED.has(job.state) ? crypto.randomUUID() : requestId;
    };
    return {
      lookup: null,
      document: null,
      noInvoice: false,
      preview: null,
      previewLoading: false,
      previewError: null,
      printer: null,
      copies: 1,
      printing: false,
      requestId: null,
      jobId: null,
      printError: null,
      dayReportJobId: null,
      dayReportRequestId: null,
      dayReportPrinting: false,
      dayReportError: null,
      forget: () => {
        generation++;
        set({
          lookup: null,
          document: null,
          noInvoice: false,
          preview: null,
          previewLoading: false,
          previewError: null,
          requestId: null,
          jobId: null,
          printError: null,
          copies: 1,
        });
      },
      open: async (document) => {
        const mine = ++generation;
        set({
          lookup: null,
          document,
          noInvoice: false,
          preview: null,
          previewLoading: true,
          previewError: null,
          requestId: null,
          jobId: null,
          printError: null,
          copies: 1,
        });
        const reply = await settle(
          api.previewDocument({
            kind: document.kind,
            reference: document.reference,
            firstPagePng: true,
          }),
        );
        if (mine !== generation) return;
        if (reply.ok) {
          set({ preview: reply.value, previewLoading: false });
          return;
        }
        if (document.kind === 'invoice' && reply.error.code === 'RESOURCE_NOT_FOUND') {
          // The service answers "not found" both for no such sale and for a sale not invoiced
          // yet; the sale itself tells which.
          const sale = await settle(api.getSale({ saleId: document.reference }));
          if (mine !== generation) return;
          if (sale.ok && sale.value.hasInvoice !== true) {
            set({
              previewLoading: false,
              noInvoice: true,
              document: { ...document, number: sale.value.number ?? document.number },
            });
            return;
          }
        }
        set({ previewLoading: false, previewError: reply.error });
      },
      find: async (text) => {
        const number = text.trim();
        if (number === '') return;
        const mine = ++generation;
        set({
          lookup: { phase: 'finding', number },
          document: null,
          preview: null,
          noInvoice: false,
          // The last document's job is not this one's: no "Printed" beside "nothing to print".
          requestId: null,
          jobId: null,
          printError: null,
        });
        const reply = await settle(api.findDocument({ number }));
        if (mine !== generation) return;
        if (!reply.ok) {
          set({ lookup: { phase: 'failed', number, error: reply.error } });
          return;
        }
        const found = reply.value;
        if (found.found === 'none') {
          set({ lookup: { phase: 'none', number, complete: found.complete } });
        } else if (found.found === 'sav') {
          await get().open({ kind: 'sav-slip', reference: found.savId, number: found.number });
        } else if (found.found === 'sale' && found.hasInvoice === false) {
          set({
            lookup: null,
            document: { kind: 'invoice', reference: found.saleId, number: found.number ?? number },
            noInvoice: true,
            previewLoading: false,
            previewError: null,
          });
        } else {
          await get().open({ kind: 'invoice', reference: found.saleId, number: found.number });
        }
      },
      openAndPrint: async (document) => {
        await get().open(document);
        if (get().document === document && get().preview !== null) await get().print();
      },
      choosePrinter: (printer) => set({ printer }),
      setCopies: (copies) => set({ copies: Math.min(MAX_COPIES, Math.max(1, Math.round(copies))) }),
      print: async () => {
        const { document, preview, printer, copies, printing } = get();
        // Nothing goes to the printer before staff have seen what it will print.
        if (!document || !preview || printing) return;
        // Another printer chosen while the job is held up: the press is for that printer now,
        // not the same request again (which main would answer with the held job).
        const held = heldJob();
        if (held && printer !== null && printer !== held.printer) {
          set({ printing: true });
          const cancelled = await cancelHeld(held);
          set({ printing: false });
          if (!cancelled || get().document !== document) return;
          set({ requestId: null, jobId: null });
        }
        const requestId = pressOf(get().requestId, get().jobId);
        set({ printing: true, printError: null, requestId });
        const options = { requestId, ...(printer === null ? {} : { printer }), copies };
        const reply = await settle(
          document.kind === 'invoice'
            ? api.printInvoice({ saleId: document.reference, ...options })
            : api.printSavSlip({ savId: document.reference, ...options }),
        );
        if (get().document !== document) return;
        if (reply.ok) {
          onJob(reply.value);
          set({ printing: false, jobId: reply.value.id });
        } else {
          // The request id stays: if main made the job before the reply was lost, pressing again
          // finds it instead of printing a second copy.
          set({ printing: false, printError: reply.error });
        }
      },
      printAgain: async (printer) => {
        const { jobId } = get();
        const job = jobId === null ? undefined : jobOf(jobId);
        const held = heldJob();
        if (held) {
          if (!(await cancelHeld(held))) return;
        } else if (job !== undefined && !FINISHED.has(job.state)) return;
        set({
          requestId: null,
          jobId: null,
          ...(printer === undefined ? {} : { printer }),
        });
        await get().print();
      },
      cancelJob: async () => {
        const { jobId } = get();
        if (jobId === null) return;
        const reply = await settle(api.cancelPrintJob({ jobId }));
        if (reply.ok) onJob(reply.value);
        else set({ printError: reply.error });
      },
      printDayReport: async (date, labels) => {
        const { printer, dayReportPrinting, dayReportRequestId, dayReportJobId } = get();
        if (dayReportPrinting) return;
        // Another day is another document: its press owes nothing to the last one.
        const requestId = pressOf(
          date === dayReportDate ? dayReportRequestId : null,
          dayReportJobId,
        );
        dayReportDate = date;
        set({ dayReportPrinting: true, dayReportError: null, dayReportRequestId: requestId });
        const reply = await settle(
          api.printDayReport({
            requestId,
            date,
            labels,
            ...(printer === null ? {} : { printer }),
          }),
        );
        if (reply.ok) {
          onJob(reply.value);
          set({ dayReportPrinting: false, dayReportJobId: reply.value.id });
        } else {
          set({ dayReportPrinting: false, dayReportError: reply.error });
        }
      },
      cancelDayReportJob: async () => {
        const { dayReportJobId } = get();
        if (dayReportJobId === null) return;
        const reply = await settle(api.cancelPrintJob({ jobId: dayReportJobId }));
        if (reply.ok) onJob(reply.value);
        else set({ dayReportError: reply.error });
      },
    };
  });
}
