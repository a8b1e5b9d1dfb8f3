import type { ParsedRequestOf } from '../../../shared/ipc/contract.ts';
import { ipcErrorCodes } from '../../../shared/ipc/errors.ts';
import type { DayReport } from '../../../shared/ipc/gift-cards.ts';
import type { DocumentKind, printingMessages } from '../../../shared/ipc/printing.ts';
import { IpcFailure, type KioskHandlers, safeMessage } from '../../ipc/index.ts';
import {
  dayReportPdf,
  previewDocument,
  PrintError,
  type PrintQueue,
  type PrintRequest,
} from '../../printing/index.ts';
import type { KioskPrinting } from '../kiosk-printing.ts';
import type { SettingsStore } from '../settings-store.ts';
import { printJobView, printerView } from '../views.ts';

export interface PrintingHandlerDeps {
  readonly printing: KioskPrinting;
  /** The printer and the paper size in force. */
  readonly settings: Pick<SettingsStore, 'current'>;
  /** The end-of-day report of a local date, from the outbox (the print path knows no outbox). */
  readonly dayReport: (date: string) => DayReport;
}

/** Printers, print jobs and document previews; previews work without a print backend. */
export function printingHandlers({
  printing,
  settings,
  dayReport,
}: PrintingHandlerDeps): Pick<KioskHandlers, keyof typeof printingMessages> {
  const { backend, queue } = printing;
  const needQueue = (): PrintQueue => {
    if (queue === undefined) throw unavailable('printing', printing.problem);
    return queue;
  };
  // Staff's choice of printer first, else the one in the settings; the paper is the settings'.
  const print = (
    kind: DocumentKind,
    reference: string,
    request: Pick<ParsedRequestOf<'printInvoice'>, 'requestId' | 'printer' | 'copies'>,
    make?: PrintRequest['make'],
  ) =>
    printJobView(
      needQueue().enqueue({
        // Lower case: the same press must not become two jobs through a change of case.
        requestId: request.requestId.toLowerCase(),
        kind,
        reference,
        make,
        printer: request.printer ?? settings.current.printer ?? undefined,
        copies: request.copies,
        media: settings.current.paperSize ?? undefined,
      }),
    );
  return {
    listPrinters: async () => {
      if (backend === undefined) return { backend: null, printers: [], defaultPrinter: null };
      const printers = await backend.listPrinters();
      const fallback = settings.current.printer ?? (await backend.defaultPrinter()) ?? null;
      return {
        backend: backend.name,
        printers: printers.map(printerView),
        defaultPrinter: fallback,
      };
    },
    printInvoice: (request) => print('invoice', request.saleId, request),
    printSavSlip: (request) => print('sav-slip', request.savId, request),
    printDayReport: (request) => {
      // Read when staff press Print: the paper says what the screen said, not a later state.
      const report = dayReport(request.date);
      return print('day-report', request.date, request, async () => ({
        bytes: await dayReportPdf(report, request.labels),
        contentType: 'application/pdf',
        number: report.date,
      }));
    },
    getPrintJob: (request) => {
      const job = needQueue().get(request.jobId);
      if (job === undefined) throw new PrintError('job_unknown', 'There is no such print job.');
      return printJobView(job);
    },
    listPrintJobs: () => ({
      jobs: queue === undefined ? [] : queue.list().map(printJobView),
    }),
    cancelPrintJob: async (request) => printJobView(await needQueue().cancel(request.jobId)),
    previewDocument: async (request) => {
      const preview = await previewDocument(request.kind, request.reference, {
        source: printing.documents,
        spool: printing.spool,
        firstPagePng: request.firstPagePng ?? false,
      });
      return {
        kind: preview.kind,
        reference: preview.reference,
        documentNumber: preview.documentNumber ?? null,
        pdfBase64: Buffer.from(preview.pdf).toString('base64'),
        firstPagePngBase64:
          preview.firstPagePng === undefined
            ? null
            : Buffer.from(preview.firstPagePng).toString('base64'),
        pngUnavailable:
          preview.pngUnavailable === undefined ? null : safeMessage(preview.pngUnavailable),
      };
    },
  };
}

function unavailable(what: string, why: string): IpcFailure {
  return new IpcFailure(
    ipcErrorCodes.serviceUnavailable,
    `${what} is not available on this kiosk: ${safeMessage(why)}`,
  );
}
