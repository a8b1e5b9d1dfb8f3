import type { DocumentKind } from '../../shared/ipc/printing.ts';
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

/** Fetches and verifies: a document that fails `verifyPdf` never leaves this function. */
export async function fetchVerifiedDocument(
  source: DocumentSource,
  kind: DocumentKind,
  reference: string,
  options: { readonly maxBytes?: number; readonly signal?: AbortSignal } = {},
): Promise<VerifiedDocument> {
  const fetched =
    kind === 'invoice'
      ? await source.invoice(reference, options.signal)
      : await source.savSlip(reference, options.signal);
  const pdf = verifyPdf(fetched.bytes, {
    contentType: fetched.contentType,
    ...(options.maxBytes === undefined ? {} : { maxBytes: options.maxBytes }),
  });
  return { kind, reference, pdf, number: fetched.number };
}
