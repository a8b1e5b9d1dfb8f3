import { randomUUID } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient, type CommerceApiClient } from '../../../electron/api/client.ts';
import { apiDocumentSource } from '../../../electron/printing/api-document-source.ts';
import type { PrintBackend } from '../../../electron/printing/backend.ts';
import { CupsBackend } from '../../../electron/printing/cups-backend.ts';
import { DocumentSpool } from '../../../electron/printing/document.ts';
import type { PrintJobSnapshot } from '../../../electron/printing/print-job.ts';
import { PrintQueue, type PrintQueueOptions } from '../../../electron/printing/print-queue.ts';
import { startPrivateCups, type PrivateCups } from '../../support/cups.ts';
import { startDocumentServer, type DocumentServer } from './document-server.ts';
import { makePdf, pdfText } from './pdf.ts';

let cups: PrivateCups;
let server: DocumentServer;
let client: CommerceApiClient;
let backend: CupsBackend;
let spool: DocumentSpool;
let goodPdf: Uint8Array;
const queues: PrintQueue[] = [];

beforeAll(async () => {
  [cups, server] = await Promise.all([startPrivateCups(), startDocumentServer()]);
  client = createApiClient({
    baseUrl: server.baseUrl,
    credentials: async () => ({ email: 'kiosk@example.com', password: 'secret' }),
  });
  backend = new CupsBackend({ server: cups.server });
  spool = await DocumentSpool.create();
  goodPdf = await makePdf(
    'FACTURE F-2026-004711',
    'Vente V-2026-000123',
    'Client : Hélène Lefèvre',
  );
  server.invoices.set('sale_good', {
    contentType: 'application/pdf',
    body: goodPdf,
    fileName: 'F-2026-004711.pdf',
  });
  server.slips.set('sav_good', {
    contentType: 'application/pdf',
    body: await makePdf('BON DE DEPOT SAV-2026-00042'),
    fileName: 'SAV-2026-00042.pdf',
  });
  server.invoices.set('sale_html', {
    contentType: 'text/html',
    body: '<html><body>Bad gateway</body></html>',
  });
  server.invoices.set('sale_lying', {
    contentType: 'application/pdf',
    body: '<html><body>Bad gateway</body></html>',
  });
  server.invoices.set('sale_truncated', {
    contentType: 'application/pdf',
    body: goodPdf.subarray(0, Math.floor(goodPdf.byteLength * 0.7)),
  });
});

afterEach(async () => {
  await Promise.all(queues.splice(0).map((queue) => queue.close()));
});

afterAll(async () => {
  client?.close();
  await backend?.dispose();
  await spool?.dispose();
  await Promise.all([cups?.stop(), server?.close()]);
});

function makeQueue(options: Partial<PrintQueueOptions> = {}): {
  queue: PrintQueue;
  seen: PrintJobSnapshot[];
} {
  const queue = new PrintQueue({
    backend,
    source: apiDocumentSource(client),
    spool,
    pollIntervalMs: 100,
    retryDelayMs: 250,
    ...options,
  });
  queues.push(queue);
  const seen: PrintJobSnapshot[] = [];
  queue.events.on('job-changed', (snapshot) => seen.push(snapshot));
  return { queue, seen };
}

/** The real cupsd, answering the first printer check 500 ms late, as a busy one may. */
function firstCheckAnsweredLast(): { backend: PrintBackend; checks(): number } {
  let checks = 0;
  return {
    checks: () => checks,
    backend: {
      name: backend.name,
      listPrinters: async () => {
        checks += 1;
        if (checks === 1) await new Promise((resolve) => setTimeout(resolve, 500));
        return backend.listPrinters();
      },
      defaultPrinter: () => backend.defaultPrinter(),
      print: (file, options) => backend.print(file, options),
      jobState: (jobId) => backend.jobState(jobId),
      cancel: (jobId) => backend.cancel(jobId),
    },
  };
}

/** Two invoices sent together to the printer that never finishes a job. */
function invoicesForTheSlowPrinter(queue: PrintQueue): [PrintJobSnapshot, PrintJobSnapshot] {
  const send = () =>
    queue.enqueue({ kind: 'invoice', reference: 'sale_good', printer: cups.slowQueue });
  return [send(), send()];
}

function jobNumber(backendJobId: string | undefined): string {
  expect(backendJobId).toBeDefined();
  return backendJobId!.slice(backendJobId!.lastIndexOf('-') + 1);
}

async function until(
  condition: () => boolean | Promise<boolean>,
  // A real cupsd on a busy 2-core machine: generous, as a wait costs nothing once met.
  timeoutMs = 30_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('PrintQueue, printing for real through a private cupsd', { timeout: 60_000 }, () => {
  it('prints an invoice on the default printer: queued, sending, printing, completed', async () => {
    const { queue, seen } = makeQueue();
    const first = queue.enqueue({ kind: 'invoice', reference: 'sale_good' });
    expect(first).toMatchObject({
      state: 'queued',
      kind: 'invoice',
      reference: 'sale_good',
      copies: 1,
    });
    const final = await queue.waitFor(first.id);
    expect(final).toMatchObject({
      state: 'completed',
      printer: cups.pdfQueue,
      documentNumber: 'F-2026-004711',
      problem: undefined,
      retries: 0,
    });
    expect([...new Set(seen.map((snapshot) => snapshot.state))]).toEqual([
      'queued',
      'sending',
      'printing',
      'completed',
    ]);

    const output = await cups.waitForOutput(jobNumber(final.backendJobId));
    expect(await pdfText(output)).toContain('V-2026-000123');
    // The spool file is gone once the job ended.
    expect(await readdir(spool.directory)).toEqual([]);
  });

  it('prints a SAV slip on a named printer with copies', async () => {
    const { queue } = makeQueue();
    const job = queue.enqueue({
      kind: 'sav-slip',
      reference: 'sav_good',
      printer: cups.pdfQueue,
      copies: 2,
    });
    const final = await queue.waitFor(job.id);
    expect(final).toMatchObject({
      state: 'completed',
      documentNumber: 'SAV-2026-00042',
      copies: 2,
    });
    expect(await pdfText(await cups.waitForOutput(jobNumber(final.backendJobId)))).toContain(
      'SAV-2026-00042',
    );
  });

  it('keeps a short history without personal data', async () => {
    const { queue } = makeQueue({ historySize: 2 });
    const printed = queue.enqueue({ kind: 'invoice', reference: 'sale_good' });
    await queue.waitFor(printed.id);
    const failed = queue.enqueue({ kind: 'invoice', reference: 'sale_good', printer: 'Nowhere' });
    await queue.waitFor(failed.id);
    expect(queue.history().map((snapshot) => snapshot.id)).toEqual([failed.id, printed.id]);
    // The PDF names the customer; nothing of it may reach the queue's records.
    expect(JSON.stringify(queue.history())).not.toMatch(/Hélène|Lefèvre|Lefevre/i);
    expect(Object.keys(queue.history()[1]!).sort()).toEqual(
      [
        'backendJobId',
        'copies',
        'createdAt',
        'documentNumber',
        'id',
        'kind',
        'printer',
        'problem',
        'reference',
        'requestId',
        'retries',
        'state',
        'updatedAt',
      ].sort(),
    );
    const third = queue.enqueue({ kind: 'sav-slip', reference: 'sav_good', printer: 'Nowhere' });
    await queue.waitFor(third.id);
    // Only the last N are kept.
    expect(queue.history().map((snapshot) => snapshot.id)).toEqual([third.id, failed.id]);
    expect(queue.get(printed.id)).toBeUndefined();
  });

  it('fails with a clear reason, and sends nothing, for an unknown or stopped printer', async () => {
    const { queue } = makeQueue();
    const before = await cups.allJobIds();
    const unknown = await queue.waitFor(
      queue.enqueue({ kind: 'invoice', reference: 'sale_good', printer: 'Front_Desk' }).id,
    );
    expect(unknown).toMatchObject({
      state: 'failed',
      problem: { code: 'printer_unknown', message: 'There is no printer named "Front_Desk".' },
      backendJobId: undefined,
    });
    const noPaper = await queue.waitFor(
      queue.enqueue({ kind: 'invoice', reference: 'sale_good', printer: cups.noPaperQueue }).id,
    );
    expect(noPaper).toMatchObject({ state: 'failed', problem: { code: 'out_of_paper' } });
    const offline = await queue.waitFor(
      queue.enqueue({ kind: 'sav-slip', reference: 'sav_good', printer: cups.offlineQueue }).id,
    );
    expect(offline).toMatchObject({ state: 'failed', problem: { code: 'printer_offline' } });
    expect(await cups.allJobIds()).toEqual(before);
    expect(await readdir(spool.directory)).toEqual([]);
  });

  it('refuses a reply that is not a whole PDF: nothing reaches the queue', async () => {
    const { queue } = makeQueue();
    const before = await cups.allJobIds();
    const outputsBefore = await cups.outputs();
    const results: Record<string, PrintJobSnapshot> = {};
    for (const reference of ['sale_html', 'sale_lying', 'sale_truncated']) {
      results[reference] = await queue.waitFor(queue.enqueue({ kind: 'invoice', reference }).id);
    }
    expect(results['sale_html']).toMatchObject({
      state: 'failed',
      problem: { code: 'document_rejected' },
    });
    expect(results['sale_lying']).toMatchObject({
      state: 'failed',
      problem: { code: 'document_rejected' },
    });
    // Magic and content type are right, so only the printing side's own %%EOF check catches it.
    expect(results['sale_truncated']).toMatchObject({
      state: 'failed',
      problem: { code: 'document_rejected', message: expect.stringContaining('incomplete') },
    });
    expect(server.downloads).toContain('/v1/sales/sale_truncated/invoice/download');
    expect(await cups.allJobIds()).toEqual(before);
    expect(await cups.outputs()).toEqual(outputsBefore);
    expect(await readdir(spool.directory)).toEqual([]);
  });

  it('reports a document the API does not have', async () => {
    const { queue } = makeQueue();
    const final = await queue.waitFor(
      queue.enqueue({ kind: 'invoice', reference: 'sale_missing' }).id,
    );
    expect(final).toMatchObject({ state: 'failed', problem: { code: 'document_unavailable' } });
    expect(final.problem?.message).toContain('NOT_FOUND');
  });

  it('cancels a job while the printer works on it, and one waiting behind it', async () => {
    const { queue } = makeQueue();
    const printing = queue.enqueue({
      kind: 'invoice',
      reference: 'sale_good',
      printer: cups.slowQueue,
    });
    const waiting = queue.enqueue({
      kind: 'invoice',
      reference: 'sale_good',
      printer: cups.slowQueue,
    });
    await until(() => queue.get(printing.id)?.state === 'printing');
    // One job at a time per printer: the second has not been sent.
    expect(queue.get(waiting.id)).toMatchObject({ state: 'queued', backendJobId: undefined });

    expect(await queue.cancel(waiting.id)).toMatchObject({
      state: 'cancelled',
      backendJobId: undefined,
    });
    const cancelled = await queue.cancel(printing.id);
    expect(cancelled).toMatchObject({ state: 'cancelled' });
    expect(await backend.jobState(cancelled.backendJobId!)).toEqual({ state: 'cancelled' });
    expect(await cups.lpstat(['-W', 'not-completed', '-o', cups.slowQueue])).toBe('');
    // Cancelling a finished job returns it unchanged.
    expect(await queue.cancel(printing.id)).toEqual(cancelled);
  });

  it('sends the jobs for one printer in the order staff sent them, whichever check answers first', async () => {
    const { queue } = makeQueue({ backend: firstCheckAnsweredLast().backend });
    const [first, second] = invoicesForTheSlowPrinter(queue);
    await until(
      () => queue.get(first.id)?.state === 'printing' || queue.get(second.id)?.state === 'printing',
    );
    expect(queue.get(first.id)?.state).toBe('printing');
    expect(queue.get(second.id)?.state).toBe('queued');
    await queue.cancel(second.id);
    await queue.cancel(first.id);
  });

  it('a job cancelled while the one ahead checks its printer never asks the print service', async () => {
    const slow = firstCheckAnsweredLast();
    const { queue } = makeQueue({ backend: slow.backend });
    const [first, second] = invoicesForTheSlowPrinter(queue);
    expect(await queue.cancel(second.id)).toMatchObject({ state: 'cancelled' });
    await until(() => queue.get(first.id)?.state === 'printing');
    // The first job's printer check and its check before sending; none for the cancelled one.
    expect(slow.checks()).toBe(2);
    await queue.cancel(first.id);
  });

  it('retries while the scheduler is briefly unreachable, then prints', async () => {
    const { queue, seen } = makeQueue({ maxAttempts: 5, retryDelayMs: 300 });
    await cups.stopScheduler();
    let job: PrintJobSnapshot;
    try {
      job = queue.enqueue({ kind: 'invoice', reference: 'sale_good', printer: cups.pdfQueue });
      await until(() =>
        seen.some(
          (snapshot) => snapshot.id === job.id && snapshot.problem?.code === 'scheduler_down',
        ),
      );
    } finally {
      await cups.startScheduler();
    }
    const final = await queue.waitFor(job.id);
    expect(final.state).toBe('completed');
    expect(final.retries).toBeGreaterThan(0);
    expect(final.problem).toBeUndefined();
  });

  it('gives up after a bounded number of attempts when the scheduler stays down', async () => {
    const down = new CupsBackend({ server: '127.0.0.1:1' });
    const { queue } = makeQueue({ backend: down, maxAttempts: 2, retryDelayMs: 50 });
    const final = await queue.waitFor(
      queue.enqueue({ kind: 'invoice', reference: 'sale_good', printer: cups.pdfQueue }).id,
    );
    expect(final).toMatchObject({
      state: 'failed',
      retries: 1,
      problem: { code: 'scheduler_down' },
    });
  });

  it('fails and cancels a job held up longer than the stall limit, saying why', async () => {
    const { queue } = makeQueue({ stallTimeoutMs: 300 });
    const job = queue.enqueue({ kind: 'invoice', reference: 'sale_good', printer: cups.slowQueue });
    const final = await queue.waitFor(job.id);
    // The socket backend keeps retrying a printer nobody answers for: CUPS says it may not exist.
    expect(final).toMatchObject({ state: 'failed', problem: { code: 'printer_offline' } });
    expect(await backend.jobState(final.backendJobId!)).toEqual({ state: 'cancelled' });
  }, 20_000);

  it('makes one job per request id: a second tap gets the first job back, never a second print', async () => {
    const { queue } = makeQueue();
    const before = await cups.allJobIds();
    const requestId = randomUUID();
    const press = { requestId, kind: 'invoice', reference: 'sale_good', printer: cups.pdfQueue };
    const first = queue.enqueue({ ...press, kind: 'invoice' });
    const tapped = queue.enqueue({ ...press, kind: 'invoice' });
    expect(tapped.id).toBe(first.id);
    const final = await queue.waitFor(first.id);
    expect(final.state).toBe('completed');
    // Once printed, the same press still names the same job: a lost reply asked again is no reprint.
    expect(queue.enqueue({ ...press, kind: 'invoice' })).toMatchObject({
      id: first.id,
      state: 'completed',
    });
    const sent = (await cups.allJobIds()).filter((id) => !before.includes(id));
    expect(sent).toEqual([final.backendJobId]);
    expect(queue.list().filter((job) => job.requestId === requestId)).toHaveLength(1);

    // The same id for another document is a bug in the caller: refused, nothing printed.
    expect(() => queue.enqueue({ ...press, kind: 'sav-slip', reference: 'sav_good' })).toThrow(
      expect.objectContaining({ code: 'invalid_options' }),
    );
    // A new press (a new id) is a new job.
    const again = queue.enqueue({ ...press, kind: 'invoice', requestId: randomUUID() });
    expect(again.id).not.toBe(first.id);
    await queue.waitFor(again.id);
  });

  it('remembers a request id beyond the short history', async () => {
    const { queue } = makeQueue({ historySize: 1 });
    const requestId = randomUUID();
    const first = queue.enqueue({ requestId, kind: 'invoice', reference: 'sale_good' });
    await queue.waitFor(first.id);
    await queue.waitFor(queue.enqueue({ kind: 'sav-slip', reference: 'sav_good' }).id);
    expect(queue.get(first.id)).toBeUndefined();
    expect(queue.enqueue({ requestId, kind: 'invoice', reference: 'sale_good' }).id).toBe(first.id);
  });

  it('reports a filter failure at once with its message, and leaves no job to print later', async () => {
    // Limits far beyond the test's own timeout: only the failure itself can end the job in time.
    const { queue } = makeQueue({ stallTimeoutMs: 10 * 60_000, jobTimeoutMs: 10 * 60_000 });
    const job = queue.enqueue({
      kind: 'invoice',
      reference: 'sale_good',
      printer: cups.failingFilterQueue,
    });
    const final = await queue.waitFor(job.id);
    expect(final).toMatchObject({ state: 'failed', problem: { code: 'filter_failed' } });
    // CUPS's own words: the filter's ERROR line, or, once cupsd has reaped the filter (a race with
    // the queue's read), its generic "Filter failed".
    expect(final.problem?.message).toMatch(
      new RegExp(`${cups.failingFilterMessage}|Filter failed`),
    );
    expect(final.problem?.message).not.toMatch(/in time/);
    // Cancelled at CUPS: restarting the queue later must not print what staff were told failed.
    expect(await cups.lpstat(['-W', 'not-completed', '-o', cups.failingFilterQueue])).toBe('');
  }, 15_000);
});
