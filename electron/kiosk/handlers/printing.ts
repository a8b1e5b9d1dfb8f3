import type { ParsedRequestOf } from '../../../shared/ipc/contract.ts';
import { ipcErrorCodes } from '../../../shared/ipc/errors.ts';
import type { DocumentKind, printingMessages } from '../../../shared/ipc/printing.ts';
import { IpcFailure, type KioskHandlers, safeMessage } from '../../ipc/index.ts';
import { previewDocument, PrintError, type PrintQueue } from '../../printing/index.ts';
import type { KioskPrinting } from '../kiosk-printing.ts';
import type { SettingsStore } from '../settings-store.ts';
import { printJobView, printerView } from '../views.ts';

export interface PrintingHandlerDeps {
  readonly printing: KioskPrinting;
  /** The printer and the paper size in force. */
  readonly settings: Pick<SettingsStore, 'current'>;
}

/** Printers, print jobs and document previews; previews work without a print backend. */
export function printingHandlers({
  printing,
  settings,
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
    request: Pick<ParsedRequestOf<'printInvoice'>, 'printer' | 'copies'>,
  ) =>
    printJobView(
      needQueue().enqueue({
        kind,
        reference,
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
