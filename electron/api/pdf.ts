import { ContractViolation } from './errors.ts';

/** A PDF reply (invoice, SAV slip), checked before it reaches a printer. */
export interface PdfDocument {
  readonly contentType: 'application/pdf';
  readonly bytes: Uint8Array;
  /** From `Content-Disposition` when the server names the file. */
  readonly fileName: string | undefined;
}

/** Invoices and slips are a few hundred kilobytes; anything near this is not a document to print. */
export const DEFAULT_PDF_MAX_BYTES = 20 * 1024 * 1024;

export const PDF_MAGIC = [0x25, 0x50, 0x44, 0x46, 0x2d]; // "%PDF-"

/**
 * A printer fed an HTML error page or a truncated file prints garbage or nothing, so the reply
 * must say it is a PDF, start like one, and fit the size limit. `%PDF-` may legally follow up to
 * 1024 bytes of leading junk; the service sends none, so it must come first.
 */
export function checkPdf(
  operationId: string,
  reply: {
    readonly status: number;
    readonly headers: Readonly<Record<string, string>>;
    readonly body: Uint8Array;
  },
  maxBytes: number,
): PdfDocument {
  const contentType =
    (reply.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (contentType !== 'application/pdf') {
    throw new ContractViolation({
      operationId,
      status: reply.status,
      reason: 'content-type',
      path: '',
      explanation: `expected application/pdf, got ${contentType === '' ? 'no content type' : contentType}`,
    });
  }
  if (reply.body.byteLength > maxBytes) {
    throw new ContractViolation({
      operationId,
      status: reply.status,
      reason: 'too-large',
      path: '',
      explanation: `the document exceeds ${maxBytes} bytes`,
    });
  }
  if (
    reply.body.byteLength < PDF_MAGIC.length ||
    PDF_MAGIC.some((byte, index) => reply.body[index] !== byte)
  ) {
    throw new ContractViolation({
      operationId,
      status: reply.status,
      reason: 'pdf-magic',
      path: '',
      explanation: 'the document does not start with %PDF-',
    });
  }
  return {
    contentType: 'application/pdf',
    bytes: reply.body,
    fileName: fileNameOf(reply.headers['content-disposition']),
  };
}

/** `attachment; filename="INV-2024-001.pdf"`: only a plain name, never a path. */
function fileNameOf(disposition: string | undefined): string | undefined {
  if (!disposition) return undefined;
  const match = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(disposition);
  if (!match?.[1]) return undefined;
  let name: string;
  try {
    name = decodeURIComponent(match[1]);
  } catch {
    name = match[1];
  }
  const base = name.split(/[/\\]/).pop()?.trim();
  return base && base !== '.' && base !== '..' ? base : undefined;
}
