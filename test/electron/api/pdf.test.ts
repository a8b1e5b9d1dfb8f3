import { describe, expect, test } from 'vitest';
import { ContractViolation } from '../../../electron/api/errors.ts';
import { checkPdf } from '../../../electron/api/pdf.ts';

const pdfBytes = new TextEncoder().encode(
  '%PDF-1.7\n%\xE2\xE3\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n',
);

function violation(run: () => unknown): ContractViolation {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ContractViolation);
    return error as ContractViolation;
  }
  throw new Error('expected a ContractViolation');
}

describe('PDF checks', () => {
  test('a PDF with its content type passes, with the file name from Content-Disposition', () => {
    const document = checkPdf(
      'downloadSaleInvoice',
      {
        status: 200,
        headers: {
          'content-type': 'application/pdf',
          'content-disposition': 'attachment; filename="../../INV-001.pdf"',
        },
        body: pdfBytes,
      },
      1024,
    );
    expect(document.bytes).toBe(pdfBytes);
    expect(document.contentType).toBe('application/pdf');
    expect(document.fileName).toBe('INV-001.pdf');
  });

  test('the wrong content type, missing magic or an oversized body are typed errors', () => {
    const html = violation(() =>
      checkPdf(
        'downloadSavSlip',
        { status: 200, headers: { 'content-type': 'text/html' }, body: pdfBytes },
        1024,
      ),
    );
    expect(html.reason).toBe('content-type');
    expect(html.operationId).toBe('downloadSavSlip');
    expect(html.code).toBe('CONTRACT_VIOLATION');

    const magic = violation(() =>
      checkPdf(
        'downloadSavSlip',
        {
          status: 200,
          headers: { 'content-type': 'application/pdf' },
          body: new TextEncoder().encode('<html>'),
        },
        1024,
      ),
    );
    expect(magic.reason).toBe('pdf-magic');
    expect(
      violation(() =>
        checkPdf(
          'x',
          { status: 200, headers: { 'content-type': 'application/pdf' }, body: new Uint8Array() },
          10,
        ),
      ).reason,
    ).toBe('pdf-magic');

    const big = violation(() =>
      checkPdf(
        'downloadSavSlip',
        {
          status: 200,
          headers: { 'content-type': 'application/pdf; charset=binary' },
          body: pdfBytes,
        },
        10,
      ),
    );
    expect(big.reason).toBe('too-large');
  });
});
