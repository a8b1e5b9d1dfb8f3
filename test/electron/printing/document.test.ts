import { readdir, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_PDF_MAX_BYTES as DEFAULT_MAX_DOCUMENT_BYTES } from '../../../electron/api/pdf.ts';
import {
  DocumentRejected,
  DocumentSpool,
  newJobId,
  verifyPdf,
} from '../../../electron/printing/document.ts';

async function realPdf(): Promise<Uint8Array> {
  const document = await PDFDocument.create();
  document.addPage();
  return document.save();
}

function rejection(run: () => unknown): DocumentRejected {
  try {
    run();
  } catch (error) {
    if (error instanceof DocumentRejected) return error;
    throw error;
  }
  throw new Error('expected a DocumentRejected');
}

describe('verifyPdf', () => {
  it('accepts a real PDF, with or without a content type', async () => {
    const pdf = await realPdf();
    expect(verifyPdf(pdf)).toBe(pdf);
    expect(verifyPdf(pdf, { contentType: 'application/pdf' })).toBe(pdf);
    expect(verifyPdf(pdf, { contentType: 'Application/PDF; charset=binary' })).toBe(pdf);
  });

  it('accepts trailing whitespace after %%EOF', async () => {
    const pdf = await realPdf();
    const padded = new Uint8Array([...pdf, 0x0d, 0x0a, 0x20, 0x0a]);
    expect(() => verifyPdf(padded)).not.toThrow();
  });

  it('refuses an empty body', () => {
    expect(rejection(() => verifyPdf(new Uint8Array()))).toMatchObject({
      code: 'document_rejected',
      reason: 'empty',
    });
  });

  it('refuses an HTML error page, even when it claims to be a PDF', () => {
    const html = new TextEncoder().encode('<html><body>502 Bad Gateway</body></html>');
    expect(rejection(() => verifyPdf(html, { contentType: 'text/html' })).reason).toBe('not_pdf');
    expect(rejection(() => verifyPdf(html, { contentType: 'application/pdf' })).reason).toBe(
      'not_pdf',
    );
  });

  it('refuses a PDF announced with another content type', async () => {
    expect(rejection(() => verifyPdf(new Uint8Array(0)))).toBeInstanceOf(DocumentRejected);
    const pdf = await realPdf();
    expect(
      rejection(() => verifyPdf(pdf, { contentType: 'application/octet-stream' })).reason,
    ).toBe('not_pdf');
    expect(rejection(() => verifyPdf(pdf, { contentType: '' })).reason).toBe('not_pdf');
  });

  it('refuses a PDF cut short (no %%EOF near the end)', async () => {
    const pdf = await realPdf();
    expect(rejection(() => verifyPdf(pdf.subarray(0, pdf.byteLength - 10))).reason).toBe(
      'truncated',
    );
    expect(rejection(() => verifyPdf(pdf.subarray(0, Math.floor(pdf.byteLength / 2)))).reason).toBe(
      'truncated',
    );
  });

  it('refuses a document larger than the limit before anything else', async () => {
    const pdf = await realPdf();
    expect(rejection(() => verifyPdf(pdf, { maxBytes: pdf.byteLength - 1 })).reason).toBe(
      'too_large',
    );
    expect(DEFAULT_MAX_DOCUMENT_BYTES).toBe(20 * 1024 * 1024);
  });
});

describe('DocumentSpool', () => {
  let spool: DocumentSpool | undefined;
  afterEach(async () => {
    await spool?.dispose();
    spool = undefined;
  });

  it('writes private files, named by kind and opaque job id, in a private directory', async () => {
    spool = await DocumentSpool.create();
    expect((await stat(spool.directory)).mode & 0o777).toBe(0o700);
    const jobId = newJobId();
    const file = await spool.write('invoice', jobId, verifyPdf(await realPdf()));
    expect(basename(file.path)).toBe(`invoice-${jobId}.pdf`);
    expect((await stat(file.path)).mode & 0o777).toBe(0o600);
    await file.remove();
    await file.remove();
    expect(await readdir(spool.directory)).toEqual([]);
    expect(spool.files()).toEqual([]);
  });

  it('never overwrites an existing file and refuses names that are not opaque ids', async () => {
    spool = await DocumentSpool.create();
    const pdf = verifyPdf(await realPdf());
    const jobId = newJobId();
    await spool.write('sav-slip', jobId, pdf);
    await expect(spool.write('sav-slip', jobId, pdf)).rejects.toMatchObject({ code: 'EEXIST' });
    await expect(spool.write('invoice', '../../etc/passwd', pdf)).rejects.toThrow(/opaque job id/);
    await expect(spool.write('invoice', 'Hélène Lefèvre', pdf)).rejects.toThrow(/opaque job id/);
  });

  it('removes every file and its directory on dispose', async () => {
    spool = await DocumentSpool.create();
    const directory = spool.directory;
    await spool.write('invoice', newJobId(), verifyPdf(await realPdf()));
    await spool.dispose();
    spool = undefined;
    await expect(stat(directory)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
