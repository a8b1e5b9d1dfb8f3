/**
 * Printing: documents fetched from the service, checked to be PDFs, spooled to a private file and
 * sent to CUPS or Chromium's printing. The job, printer and document shapes the kiosk shows are
 * the IPC contract's (shared/ipc/printing.ts), MAX_COPIES and DocumentKind included.
 */
export { type DocumentApi, apiDocumentSource } from './api-document-source.ts';
export { type DayReportLabels, dayReportPdf } from './day-report-pdf.ts';
export {
  type JobState,
  type JobStatus,
  type PrintBackend,
  PrintError,
  type PrintOptions,
  type PrinterInfo,
  isPrintError,
} from './backend.ts';
export {
  type BackendChoice,
  type BackendPreference,
  type ChooseBackendInput,
  type PrintingConfig,
  chooseBackend,
} from './choose-backend.ts';
export type { DocumentSource, FetchedDocument } from './document-source.ts';
export {
  DocumentRejected,
  type DocumentRejectedReason,
  DocumentSpool,
  isDocumentRejected,
} from './document.ts';
export type {
  ElectronPrintHost,
  ElectronPrinter,
  ElectronSilentPrintOptions,
  HiddenDocument,
} from './electron-backend.ts';
export { type DocumentPreview, type PreviewOptions, previewDocument } from './preview.ts';
export type { PrintJobSnapshot, PrintRequest } from './print-job.ts';
export { type PrintQueueEvents, type PrintQueueOptions, PrintQueue } from './print-queue.ts';
