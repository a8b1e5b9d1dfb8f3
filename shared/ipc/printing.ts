import { z } from 'zod';
import { Text } from '../api/primitives.ts';
import { Base64, EmptyRequest, IsoTime, RecordId } from './common.ts';
import { CollectionMethod, DebitState, ReportDate, staffResolutionKinds } from './gift-cards.ts';
import { defineMessage } from './message.ts';
import { lazySchema } from './lazy-schema.ts';

/**
 * Printing invoices, SAV slips and the end-of-day report. Jobs carry no personal data (opaque ids, business numbers);
 * their progress arrives as `printJobChanged` events.
 */

export const printProblemCodes = [
  'printer_unknown',
  'printer_offline',
  'printer_stopped',
  'printer_not_accepting',
  'out_of_paper',
  'paper_jam',
  'scheduler_down',
  'no_printer',
  'job_unknown',
  'job_held',
  'job_aborted',
  'job_stalled',
  'backend_unavailable',
  'invalid_options',
  'document_rejected',
  'document_unavailable',
  'filter_failed',
  'print_failed',
] as const;

/** Stable codes the UI translates (French and English); coarse: what staff can act on. */
export const PrintProblemCode = lazySchema(() => z.enum(printProblemCodes));
export type PrintProblemCode = z.infer<typeof PrintProblemCode>;

/** What holds a printer or a job up, as a code the UI translates and an English sentence. */
export const PrintProblem = lazySchema(() =>
  z.object({
    code: PrintProblemCode,
    /** A sentence a person understands; may quote the printer's own status message. */
    message: z.string(),
  }),
);
export type PrintProblem = z.infer<typeof PrintProblem>;

export const PrinterState = lazySchema(() => z.enum(['idle', 'printing', 'stopped']));
export type PrinterState = z.infer<typeof PrinterState>;

/** The backends that print: CUPS's command-line tools, or Electron's `webContents.print`. */
export const PrintBackendName = lazySchema(() => z.enum(['cups', 'electron']));
export type PrintBackendName = z.infer<typeof PrintBackendName>;

export const PrinterInfo = lazySchema(() =>
  z.object({
    name: z.string(),
    isDefault: z.boolean(),
    state: PrinterState,
    /** False when the queue refuses new jobs. */
    accepting: z.boolean(),
    reason: PrintProblem.nullable(),
  }),
);
export type PrinterInfo = z.infer<typeof PrinterInfo>;

export const ListPrintersReply = lazySchema(() =>
  z.object({
    /** Null when no backend could be set up. */
    backend: PrintBackendName.nullable(),
    printers: z.array(PrinterInfo),
    /** The printer jobs go to when none is named: the kiosk's setting, else the system default. */
    defaultPrinter: z.string().nullable(),
  }),
);
export type ListPrintersReply = z.infer<typeof ListPrintersReply>;

/** What the kiosk prints; also the prefix of spool file names, so it must stay filename-safe. */
export const DocumentKind = lazySchema(() => z.enum(['invoice', 'sav-slip', 'day-report']));
export type DocumentKind = z.infer<typeof DocumentKind>;

/**
 * The documents the service makes, fetched by their record's id; the day report is made on the
 * kiosk from its own outbox, so there is nothing to fetch or preview by id.
 */
export const ServiceDocumentKind = lazySchema(() => DocumentKind.exclude(['day-report']));
export type ServiceDocumentKind = z.infer<typeof ServiceDocumentKind>;

export const PrintJobState = lazySchema(() =>
  z.enum(['queued', 'sending', 'printing', 'completed', 'failed', 'cancelled']),
);
export type PrintJobState = z.infer<typeof PrintJobState>;

/** An opaque job id (a UUID from main): it also names spool files, so nothing else passes. */
export const PrintJobId = lazySchema(() =>
  z.string().regex(/^[A-Za-z0-9-]{1,64}$/, {
    message: 'not a print job id',
  }),
);

export const PrintJob = lazySchema(() =>
  z.object({
    id: z.string(),
    kind: DocumentKind,
    /** The sale id (invoice), SAV id (slip) or local date (day report). */
    reference: z.string(),
    documentNumber: z.string().nullable(),
    printer: z.string().nullable(),
    copies: z.number().int(),
    state: PrintJobState,
    problem: PrintProblem.nullable(),
    retries: z.number().int().min(0),
    createdAt: IsoTime,
    updatedAt: IsoTime,
  }),
);
export type PrintJob = z.infer<typeof PrintJob>;

/**
 * A CUPS queue name as the printing backends accept it (no spaces, slashes, quotes, no leading
 * `-`): it reaches command lines and native print dialogs.
 */
export const PrinterName = lazySchema(() =>
  z.string().regex(/^[^\s/#\\'"-][^\s/#\\'"]{0,126}$/u, { message: 'not a valid printer name' }),
);

export const MAX_COPIES = 20;

/**
 * Minted by the renderer when staff press Print and kept until the job's outcome is on screen:
 * a second tap, or a retry after a lost reply, names the same job instead of printing twice.
 */
export const PrintRequestId = lazySchema(() => z.uuid({ version: 'v4' }));

const printOptions = {
  requestId: PrintRequestId,
  /** Overrides the kiosk's printer for this job. */
  printer: lazySchema(() => PrinterName.optional()),
  copies: lazySchema(() => z.number().int().min(1).max(MAX_COPIES).optional()),
};

export const PrintInvoiceRequest = lazySchema(() =>
  z.strictObject({ saleId: RecordId, ...printOptions }),
);
export type PrintInvoiceRequest = z.input<typeof PrintInvoiceRequest>;

export const PrintSavSlipRequest = lazySchema(() =>
  z.strictObject({ savId: RecordId, ...printOptions }),
);
export type PrintSavSlipRequest = z.input<typeof PrintSavSlipRequest>;

const ReportLabel = lazySchema(() => Text.min(1).max(120));

/**
 * The words of the printed day report, in the kiosk's language: the catalogue is the renderer's,
 * so the screen that asks for the print gives them. `locale` formats the times and amounts.
 */
export const DayReportLabels = lazySchema(() =>
  z.strictObject({
    locale: z.string().regex(/^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{2,8}){0,3}$/u, {
      message: 'not a language tag',
    }),
    title: ReportLabel,
    empty: ReportLabel,
    offline: ReportLabel,
    needsAttention: ReportLabel,
    states: z.record(DebitState, ReportLabel),
    resolutions: z.record(z.enum(staffResolutionKinds), ReportLabel),
    methods: z.record(CollectionMethod, ReportLabel),
    /** The table's column headers. */
    columns: z.strictObject({
      time: ReportLabel,
      amount: ReportLabel,
      card: ReportLabel,
      sale: ReportLabel,
      state: ReportLabel,
      offline: ReportLabel,
      resolution: ReportLabel,
      count: ReportLabel,
    }),
    /** The heading of the totals, one line per state. */
    totals: ReportLabel,
    /** In the card column, for a card main never read (no masked number to show). */
    cardNotRead: ReportLabel,
    /** In the sale column, for a debit taken without a sale reference. */
    noSaleReference: ReportLabel,
  }),
);
export type DayReportLabels = z.infer<typeof DayReportLabels>;

export const PrintDayReportRequest = lazySchema(() =>
  z.strictObject({
    date: ReportDate,
    labels: DayReportLabels,
    ...printOptions,
  }),
);
export type PrintDayReportRequest = z.input<typeof PrintDayReportRequest>;

export const PrintJobIdRequest = lazySchema(() => z.strictObject({ jobId: PrintJobId }));
export type PrintJobIdRequest = z.input<typeof PrintJobIdRequest>;

export const ListPrintJobsReply = lazySchema(() =>
  z.object({
    /** Unfinished jobs first (oldest first), then recent finished ones (newest first). */
    jobs: z.array(PrintJob),
  }),
);
export type ListPrintJobsReply = z.infer<typeof ListPrintJobsReply>;

export const PreviewDocumentRequest = lazySchema(() =>
  z.strictObject({
    kind: ServiceDocumentKind,
    /** The sale id (invoice) or SAV id (slip). */
    reference: RecordId,
    /** Also render the first page as PNG (needs poppler's pdftoppm in main). */
    firstPagePng: z.boolean().optional(),
  }),
);
export type PreviewDocumentRequest = z.input<typeof PreviewDocumentRequest>;

export const PreviewDocumentReply = lazySchema(() =>
  z.object({
    kind: ServiceDocumentKind,
    reference: z.string(),
    documentNumber: z.string().nullable(),
    /** The verified PDF, exactly what the printer would get. */
    pdfBase64: Base64,
    firstPagePngBase64: Base64.nullable(),
    /** Why there is no PNG although one was asked for. */
    pngUnavailable: z.string().nullable(),
  }),
);
export type PreviewDocumentReply = z.infer<typeof PreviewDocumentReply>;

export const printingMessages = {
  listPrinters: defineMessage('listPrinters', {
    group: 'printing',
    summary: 'The printers and which one is used by default',
    request: EmptyRequest,
    reply: ListPrintersReply,
  }),
  printInvoice: defineMessage('printInvoice', {
    group: 'printing',
    summary: "Print a sale's invoice",
    request: PrintInvoiceRequest,
    reply: PrintJob,
  }),
  printSavSlip: defineMessage('printSavSlip', {
    group: 'printing',
    summary: 'Print a SAV slip',
    request: PrintSavSlipRequest,
    reply: PrintJob,
  }),
  printDayReport: defineMessage('printDayReport', {
    group: 'printing',
    summary: 'Print the end-of-day report of gift-card debits, as the kiosk makes it',
    request: PrintDayReportRequest,
    reply: PrintJob,
  }),
  getPrintJob: defineMessage('getPrintJob', {
    group: 'printing',
    summary: 'One print job',
    request: PrintJobIdRequest,
    reply: PrintJob,
  }),
  listPrintJobs: defineMessage('listPrintJobs', {
    group: 'printing',
    summary: 'Unfinished and recent print jobs',
    request: EmptyRequest,
    reply: ListPrintJobsReply,
  }),
  cancelPrintJob: defineMessage('cancelPrintJob', {
    group: 'printing',
    summary: 'Cancel a print job',
    request: PrintJobIdRequest,
    reply: PrintJob,
  }),
  previewDocument: defineMessage('previewDocument', {
    group: 'printing',
    summary: 'The PDF (and optionally its first page as PNG) as it would be printed',
    request: PreviewDocumentRequest,
    reply: PreviewDocumentReply,
  }),
} as const;
