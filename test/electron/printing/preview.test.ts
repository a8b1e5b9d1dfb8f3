import { readdir } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient, type CommerceApiClient } from '../../../electron/api/client.ts';
import { apiDocumentSource } from '../../../electron/printing/api-document-source.ts';
import type { DocumentSource } from '../../../electron/printing/document-source.ts';
import { DocumentRejected, DocumentSpool } from '../../../electron/printing/document.ts';
import { previewDocument } from '../../../electron/printing/preview.ts';
import { startDocumentServer, type DocumentServer } from './document-server.ts';
import { makePdf } from './pdf.ts';

let server: DocumentServer;
let client: CommerceApiClient;
let source: DocumentSource;
let spool: DocumentSpool;
let pdf: Uint8Array;

beforeAll(async () => {
  server = await startDocumentServer();
  client = createApiClient({
    baseUrl: server.baseUrl,
    credentials: async () => ({ email: 'k@example.com', password: 'p' }),
  });
  source = apiDocumentSource(client);
  spool = await DocumentSpool.create();
  pdf = await makePdf('Facture F-2026-000321');
  server.invoices.set('sale_preview', {
    contentType: 'application/pdf',
    body: pdf,
    fileName: 'F-2026-000321.pdf',
  });
  server.slips.set('sav_truncated', {
    contentType: 'application/pdf',
    body: pdf.subarray(0, pdf.byteLength - 20),
  });
});

afterAll(async () => {
  client?.close();
  await spool?.dispose();
  await server?.close();
});

describe('previewDocument', () => {
  it('returns the verified PDF bytes for the renderer, and the first page as PNG', async () => {
    const preview = await previewDocument('invoice', 'sale_preview', {
      source,
      spool,
      firstPagePng: true,
    });
    expect(preview).toMatchObject({
      kind: 'invoice',
      reference: 'sale_preview',
      documentNumber: 'F-2026-000321',
      pngUnavailable: undefined,
    });
    expect(Buffer.from(preview.pdf).equals(Buffer.from(pdf))).toBe(true);
    const png = Buffer.from(preview.firstPagePng!);
    expect(png.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
    // IHDR: an A4 page (595.28 x 841.89 pt) at 72 dpi, rounded up by poppler.
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([596, 842]);
    expect(await readdir(spool.directory)).toEqual([]);
  });

  it('gives the PDF alone when no PNG is asked for, or says why there is none', async () => {
    const plain = await previewDocument('invoice', 'sale_preview', { source, spool });
    expect(plain.firstPagePng).toBeUndefined();
    expect(plain.pngUnavailable).toBeUndefined();
    const noTool = await previewDocument('invoice', 'sale_preview', {
      source,
      spool,
      firstPagePng: true,
      pdftoppm: '/nonexistent/pdftoppm',
    });
    expect(noTool.firstPagePng).toBeUndefined();
    expect(noTool.pngUnavailable).toMatch(/not installed/);
    expect(await readdir(spool.directory)).toEqual([]);
  });

  it('refuses a document the printer would refuse', async () => {
    await expect(
      previewDocument('sav-slip', 'sav_truncated', { source, spool, firstPagePng: true }),
    ).rejects.toMatchObject({
      reason: 'truncated',
    });
    await expect(
      previewDocument('sav-slip', 'sav_truncated', { source, spool }),
    ).rejects.toBeInstanceOf(DocumentRejected);
    expect(await readdir(spool.directory)).toEqual([]);
  });
});
