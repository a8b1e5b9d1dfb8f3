import { type IntegrationProfile, defaultProfile, viewOf } from '../../shared/profile/index.ts';
import { type CommerceApiClient, ContractViolation } from '../api/index.ts';
import type { DocumentSource } from './document-source.ts';
import { DocumentRejected } from './document.ts';

/** The three operations printing uses; the whole client satisfies it. */
export type DocumentApi = Pick<
  CommerceApiClient,
  'getSaleInvoice' | 'downloadSaleInvoice' | 'downloadSavSlip'
>;

/** Business numbers look like `V-2026-000123` or `SAV-2026-00042`: nothing else is kept. */
const DOCUMENT_NUMBER = /^[A-Za-z]{1,8}(?:[-_/][A-Za-z0-9]{1,16}){1,4}$/;

/**
 * The Commerce API client as a DocumentSource. The client already checks the content type, the
 * `%PDF-` magic and the size; the printing side checks again (document.ts) whatever comes here.
 *
 * The number shown in the queue and its history: for an invoice the invoice record's `number`
 * (a business number by contract); for a slip, the file name the server gives when it has the
 * shape of a document number. Names of files are otherwise ignored: a server could put a
 * customer's name there, and the queue must not keep one.
 */
export function apiDocumentSource(
  api: DocumentApi,
  profile: () => IntegrationProfile = () => defaultProfile,
): DocumentSource {
  return {
    async invoice(saleId, signal) {
      const options = signal === undefined ? undefined : { signal };
      // The metadata only names the document; printing must not fail for want of it.
      const [document, metadata] = await Promise.all([
        api.downloadSaleInvoice({ params: { saleId } }, options).catch(asRejection),
        api.getSaleInvoice({ params: { saleId } }, options).catch(() => undefined),
      ]);
      return {
        bytes: document.bytes,
        contentType: document.contentType,
        // Invoice metadata is 'not shown': its number is wherever the profile says.
        number: documentNumber(
          metadata === undefined
            ? undefined
            : (viewOf(profile(), 'invoice', metadata).number ?? undefined),
        ),
      };
    },
    async savSlip(savId, signal) {
      const document = await api
        .downloadSavSlip({ params: { savId } }, signal === undefined ? undefined : { signal })
        .catch(asRejection);
      return {
        bytes: document.bytes,
        contentType: document.contentType,
        number: documentNumber(document.fileName?.replace(/\.pdf$/i, '')),
      };
    },
  };
}

/** The client's own PDF checks failing mean the same as ours: this is no document to print. */
function asRejection(error: unknown): never {
  if (error instanceof ContractViolation) {
    if (error.reason === 'too-large')
      throw new DocumentRejected('too_large', `The document is too large (${error.explanation}).`);
    if (error.reason === 'content-type' || error.reason === 'pdf-magic') {
      throw new DocumentRejected('not_pdf', `The document is not a PDF (${error.explanation}).`);
    }
  }
  throw error;
}

function documentNumber(candidate: string | undefined): string | undefined {
  return candidate !== undefined && DOCUMENT_NUMBER.test(candidate) && /\d/.test(candidate)
    ? candidate
    : undefined;
}
