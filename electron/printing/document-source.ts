import type { DocumentKind } from '../../shared/ipc/printing.ts';
import { PrintError } from './backend.ts';
import { verifyPdf, type VerifiedPdf } from './document.ts';

/** A document as the API returned it, before the printing side's own checks. */
export interface FetchedDocument {
  readonly bytes: Uint8Array;
  /** The reply's Content-Type, when the source knows it. */
  readonly contentType?: string | undefined;
  /** The business number printed on the document (invoice or SAV number): not personal data. */
  readonly number?: string | undefined;
}

/**
 * Where printable documents come from: the Commerce API client in the app, the sandbox in tests.
 * The printing code depends on this port only, so it never sees customer records.
 */
export interface DocumentSource {
  invoice(saleId: string, signal?: AbortSignal): Promise<FetchedDocument>;
  savSlip(savId: string, signal?: AbortSignal): Promise<FetchedDocument>;
}

export interface VerifiedDocument {
  readonly kind: DocumentKind;
  readonly reference: string;
  readonly pdf: VerifiedPdf;
  readonly number: string | undefined;
}

/**
 * Fetches (or, with `make`, makes on this kiosk) and verifies: a document that fails `verifyPdf`
 * never leaves this function, whoever made it.
 */
export async function fetchVerifiedDocument(
  source: DocumentSource,
  kind: DocumentKind,
  reference: string,
  options: {
    readonly maxBytes?: number;
    readonly signal?: AbortSignal;
    readonly make?: ((signal: AbortSignal) => Promise<FetchedDocument>) | undefined;
  } = {},
): Promise<VerifiedDocument> {
  const fetched = options.make
    ? await options.make(options.signal ?? new AbortController().signal)
    : kind === 'invoice'
      ? await source.invoice(reference, options.signal)
      : kind === 'sav-slip'
        ? await source.savSlip(reference, options.signal)
        : unmade(kind);
  const pdf = verifyPdf(fetched.bytes, {
    contentType: fetched.contentType,
    ...(options.maxBytes === undefined ? {} : { maxBytes: options.maxBytes }),
  });
  return { kind, reference, pdf, number: fetched.number };
}

function unmade(kind: DocumentKind): never {
  throw new PrintError(
    'document_unavailable',
    `The service has no ${kind}: this kiosk makes it, and nothing made it for this job.`,
  );
}
