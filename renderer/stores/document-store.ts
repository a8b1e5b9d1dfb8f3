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

export interface DocumentState {
  readonly document: DocumentRef | null;
  readonly preview: PreviewDocumentReply | null;
  readonly previewLoading: boolean;
  readonly previewError: IpcError | null;
  /** The printer chosen on this screen; null: the kiosk's default printer. */
  readonly printer: string | null;
  readonly copies: number;
  readonly printing: boolean;
  /** The job this screen started; its progress is in the printer store (events). */
  readonly jobId: string | null;
  readonly printError: IpcError | null;
  /** The day report's print job (the report is not a document opened here: no preview). */
  readonly dayReportJobId: string | null;
  readonly dayReportPrinting: boolean;
  readonly dayReportError: IpcError | null;
  open(document: DocumentRef): Promise<void>;
  choosePrinter(printer: string | null): void;
  setCopies(copies: number): void;
  print(): Promise<void>;
  cancelJob(): Promise<void>;
  /** Prints the day report of `date` in the words given, on the printer chosen here. */
  printDayReport(date: string, labels: DayReportLabels): Promise<void>;
  cancelDayReportJob(): Promise<void>;
}

export type DocumentStore = StoreApi<DocumentState>;

export function createDocumentStore(api: KioskApi, onJob: (job: PrintJob) => void): DocumentStore {
  return createStore<DocumentState>()((set, get) => {
    let generation = 0;
    return {
      document: null,
      preview: null,
      previewLoading: false,
      previewError: null,
      printer: null,
      copies: 1,
      printing: false,
      jobId: null,
      printError: null,
      dayReportJobId: null,
      dayReportPrinting: false,
      dayReportError: null,
      open: async (document) => {
        const mine = ++generation;
        set({
          document,
          preview: null,
          previewLoading: true,
          previewError: null,
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
        if (reply.ok) set({ preview: reply.value, previewLoading: false });
        else set({ previewLoading: false, previewError: reply.error });
      },
      choosePrinter: (printer) => set({ printer }),
      setCopies: (copies) => set({ copies: Math.min(MAX_COPIES, Math.max(1, Math.round(copies))) }),
      print: async () => {
        const { document, printer, copies, printing } = get();
        if (!document || printing) return;
        set({ printing: true, printError: null, jobId: null });
        const options = { ...(printer === null ? {} : { printer }), copies };
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
          set({ printing: false, printError: reply.error });
        }
      },
      cancelJob: async () => {
        const { jobId } = get();
        if (jobId === null) return;
        const reply = await settle(api.cancelPrintJob({ jobId }));
        if (reply.ok) onJob(reply.value);
        else set({ printError: reply.error });
      },
      printDayReport: async (date, labels) => {
        const { printer, dayReportPrinting } = get();
        if (dayReportPrinting) return;
        set({ dayReportPrinting: true, dayReportError: null, dayReportJobId: null });
        const reply = await settle(
          api.printDayReport({ date, labels, ...(printer === null ? {} : { printer }) }),
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
