import { readdir } from 'node:fs/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient, type CommerceApiClient } from '../../../electron/api/client.ts';
import { apiDocumentSource } from '../../../electron/printing/api-document-source.ts';
import { CupsBackend } from '../../../electron/printing/cups-backend.ts';
import { DocumentSpool } from '../../../electron/printing/document.ts';
import { PrintQueue } from '../../../electron/printing/print-queue.ts';
import { demoSales, demoSav } from '../../../sandbox/data/seed.ts';
import { startSandbox, type RunningSandbox } from '../../../sandbox/index.ts';
import { startPrivateCups, type PrivateCups } from '../../support/cups.ts';
import { pdfText } from './pdf.ts';

/** End to end: the sandbox's real invoice and slip PDFs, through the API client, to a cups-pdf queue. */

let sandbox: RunningSandbox;
let cups: PrivateCups;
let client: CommerceApiClient;
let backend: CupsBackend;
let spool: DocumentSpool;
let queue: PrintQueue;

beforeAll(async () => {
  [sandbox, cups] = await Promise.all([
    startSandbox({ port: 0, control: true }),
    startPrivateCups(),
  ]);
  const account = sandbox.accounts.find(
    (candidate) => candidate.scopes.includes('sales:read') && candidate.scopes.includes('sav:read'),
  );
  if (!account) throw new Error('the sandbox has no account reading sales and SAV cases');
  client = createApiClient({
    baseUrl: sandbox.baseUrl,
    credentials: async () => ({ email: account.email, password: account.password }),
    // One attempt per read: a lasting fault then reaches the queue without the client's backoff.
    retry: { rules: { read: { maxAttempts: 1 } } },
  });
  backend = new CupsBackend({ server: cups.server });
  spool = await DocumentSpool.create();
  queue = new PrintQueue({
    backend,
    source: apiDocumentSource(client),
    spool,
    printer: cups.pdfQueue,
    pollIntervalMs: 100,
  });
});

afterEach(() => {
  sandbox.control?.clearFaults();
});

afterAll(async () => {
  await queue?.close();
  client?.close();
  await backend?.dispose();
  await spool?.dispose();
  await Promise.all([sandbox?.close(), cups?.stop()]);
});

function jobNumber(backendJobId: string | undefined): string {
  if (backendJobId === undefined) throw new Error('the job was never sent');
  return backendJobId.slice(backendJobId.lastIndexOf('-') + 1);
}

describe('printing the sandbox documents', { timeout: 20_000 }, () => {
  it("prints a sale's invoice: the printed PDF carries the sale number", async () => {
    const sale = await client.getSale({ params: { saleId: demoSales.withInvoice } });
    expect(sale.number).toMatch(/^V-\d{4}-\d+$/);
    const final = await queue.waitFor(
      queue.enqueue({ kind: 'invoice', reference: demoSales.withInvoice }).id,
    );
    expect(final).toMatchObject({ state: 'completed', printer: cups.pdfQueue });
    const text = await pdfText(await cups.waitForOutput(jobNumber(final.backendJobId)));
    expect(text).toContain(sale.number);
    // The invoice names its customer; the queue's record of it does not.
    const customer = (sale['customer'] as { lastName?: string } | null)?.lastName;
    if (customer) {
      expect(text).toContain(customer);
      expect(JSON.stringify(queue.history())).not.toContain(customer);
    }
  });

  it('prints a SAV slip: the printed PDF carries the SAV number', async () => {
    const sav = await client.getSav({ params: { savId: demoSav.inRepair } });
    expect(sav.number).toMatch(/^SAV-\d{4}-\d+$/);
    const final = await queue.waitFor(
      queue.enqueue({ kind: 'sav-slip', reference: demoSav.inRepair }).id,
    );
    expect(final).toMatchObject({ state: 'completed', documentNumber: sav.number });
    expect(await pdfText(await cups.waitForOutput(jobNumber(final.backendJobId)))).toContain(
      sav.number,
    );
  });

  it('fails with the reason when the API cannot give the document, and sends nothing', async () => {
    sandbox.control?.addFault({ kind: 'unavailable', route: 'downloadSaleInvoice' });
    const before = await cups.allJobIds();
    const final = await queue.waitFor(
      queue.enqueue({ kind: 'invoice', reference: demoSales.withInvoice }).id,
    );
    expect(final).toMatchObject({ state: 'failed', problem: { code: 'document_unavailable' } });
    const missing = await queue.waitFor(
      queue.enqueue({ kind: 'sav-slip', reference: 'sav_does-not-exist' }).id,
    );
    expect(missing).toMatchObject({ state: 'failed', problem: { code: 'document_unavailable' } });
    expect(await cups.allJobIds()).toEqual(before);
    expect(await readdir(spool.directory)).toEqual([]);
  });
});
