import type { DocumentKind, PrintJobState, PrintProblem } from '../../shared/ipc/printing.ts';
import { isPrintError } from './backend.ts';
import type { FetchedDocument } from './document-source.ts';
import { isDocumentRejected } from './document.ts';

/** A print job: what was asked, what the queue reports of it, and why it failed. */

export interface PrintRequest {
  /**
   * The staff press this job answers (a UUID from the renderer): the queue makes one job per
   * request id and hands the same job back when it is asked again.
   */
  readonly requestId?: string | undefined;
  readonly kind: DocumentKind;
  /** The sale id (invoice), SAV id (slip) or local date (day report). */
  readonly reference: string;
  /**
   * Makes the document on this kiosk (the day report) instead of fetching it from the service;
   * it then goes through the same checks, spool and backend.
   */
  readonly make?: ((signal: AbortSignal) => Promise<FetchedDocument>) | undefined;
  /** Overrides the configured printer for this job. */
  readonly printer?: string | undefined;
  readonly copies?: number | undefined;
  readonly media?: string | undefined;
}

/**
 * One job as the UI, the CLI and the history see it. Deliberately free of personal data: ids are
 * opaque, the document number is a business number, and nothing from the customer record
 * (names, contact) ever reaches the queue.
 */
export interface PrintJobSnapshot {
  readonly id: string;
  readonly requestId: string | undefined;
  readonly kind: DocumentKind;
  readonly reference: string;
  readonly documentNumber: string | undefined;
  readonly printer: string | undefined;
  readonly copies: number;
  readonly state: PrintJobState;
  /** failed: why. queued/printing: what holds it up (out of paper...), when known. */
  readonly problem: PrintProblem | undefined;
  /** The backend's id once sent (CUPS `queue-N`). */
  readonly backendJobId: string | undefined;
  /** Tries repeated because the print service was briefly unreachable. */
  readonly retries: number;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** Any failure as the reason a person reads. */
export function problemOf(error: unknown): PrintProblem {
  if (isPrintError(error)) return error.toProblem();
  if (isDocumentRejected(error)) return { code: 'document_rejected', message: error.message };
  const code =
    typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : undefined;
  return {
    code: 'document_unavailable',
    message: `The document could not be downloaded${code ? ` (${code})` : ''}.`,
  };
}
