import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  PrintError,
  type JobStatus,
  type PrintBackend,
} from '../../../electron/printing/backend.ts';
import { CupsBackend } from '../../../electron/printing/cups-backend.ts';
import { DocumentSpool, newJobId, verifyPdf } from '../../../electron/printing/document.ts';
import { startPrivateCups, type PrivateCups } from '../../support/cups.ts';
import { makePdf, pdfText } from './pdf.ts';

let cups: PrivateCups;
let backend: CupsBackend;
let spool: DocumentSpool;
let file: string;

beforeAll(async () => {
  cups = await startPrivateCups();
  backend = new CupsBackend({ server: cups.server });
  spool = await DocumentSpool.create();
  file = (
    await spool.write('invoice', newJobId(), verifyPdf(await makePdf('Facture V-2026-000777')))
  ).path;
});

afterAll(async () => {
  await backend?.dispose();
  await spool?.dispose();
  await cups?.stop();
});

async function until(
  target: PrintBackend,
  jobId: string,
  accept: (status: JobStatus) => boolean,
): Promise<JobStatus> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const status = await target.jobState(jobId);
    if (accept(status) || Date.now() > deadline) return status;
    await sleep(100);
  }
}

function jobNumber(jobId: string): string {
  return jobId.slice(jobId.lastIndexOf('-') + 1);
}

async function failure(promise: Promise<unknown>): Promise<PrintError> {
  const error: unknown = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(PrintError);
  return error as PrintError;
}

describe('CupsBackend against a private cupsd', () => {
  it('lists printers with the default, their state and a reason a person understands', async () => {
    const printers = await backend.listPrinters();
    const byName = new Map(printers.map((printer) => [printer.name, printer]));
    expect(byName.get(cups.pdfQueue)).toEqual({
      name: cups.pdfQueue,
      isDefault: true,
      state: 'idle',
      accepting: true,
    });
    expect(byName.get(cups.noPaperQueue)).toMatchObject({
      isDefault: false,
      state: 'stopped',
      reason: { code: 'out_of_paper', message: expect.stringContaining('out of paper') },
    });
    expect(byName.get(cups.offlineQueue)).toMatchObject({
      state: 'stopped',
      reason: { code: 'printer_offline' },
    });
    expect(await backend.defaultPrinter()).toBe(cups.pdfQueue);
  });

  it('prints a PDF: cups-pdf writes it out with the same text', async () => {
    const jobId = await backend.print(file, {
      printer: cups.pdfQueue,
      title: 'invoice-test',
      copies: 1,
      media: 'A4',
    });
    expect(jobId).toMatch(new RegExp(`^${cups.pdfQueue}-\\d+$`));
    expect(await until(backend, jobId, (status) => status.state === 'completed')).toEqual({
      state: 'completed',
    });
    const output = await cups.waitForOutput(jobNumber(jobId));
    expect(output).toBe(join(cups.outputDir, `invoice-test-job_${jobNumber(jobId)}.pdf`));
    expect(await pdfText(output)).toContain('Facture V-2026-000777');
  });

  it('says the printer is unknown, and tells it apart from a scheduler that is down', async () => {
    const unknown = await failure(
      backend.print(file, { printer: 'no-such-printer', title: 't', copies: 1 }),
    );
    expect(unknown).toMatchObject({ code: 'printer_unknown', transient: false });
    expect(unknown.message).toContain('no-such-printer');

    // lp says "printer does not exist" for both; the backend asks the scheduler which it is.
    const down = new CupsBackend({ server: '127.0.0.1:1' });
    expect(await down.schedulerRunning()).toBe(false);
    expect(
      await failure(down.print(file, { printer: cups.pdfQueue, title: 't', copies: 1 })),
    ).toMatchObject({
      code: 'scheduler_down',
      transient: true,
    });
    expect(await failure(down.listPrinters())).toMatchObject({ code: 'scheduler_down' });
    expect(await failure(down.jobState(`${cups.pdfQueue}-1`))).toMatchObject({
      code: 'scheduler_down',
    });
  });

  it('reports a job waiting on a stopped printer as stopped, with the printer’s reason', async () => {
    const jobId = await backend.print(file, {
      printer: cups.noPaperQueue,
      title: 'stuck',
      copies: 1,
    });
    expect(await backend.jobState(jobId)).toEqual({
      state: 'stopped',
      reason: { code: 'out_of_paper', message: expect.stringContaining('Out of paper') },
    });
    await backend.cancel(jobId);
    expect(await backend.jobState(jobId)).toEqual({ state: 'cancelled' });
  });

  it('cancels a job the printer is working on; `lpstat -W completed` alone would call it completed', async () => {
    const jobId = await backend.print(file, { printer: cups.slowQueue, title: 'slow', copies: 1 });
    expect((await until(backend, jobId, (status) => status.state === 'processing')).state).toBe(
      'processing',
    );
    // Cancelled by someone else (another backend instance): only the scheduler can tell.
    const other = new CupsBackend({ server: cups.server });
    await other.cancel(jobId);
    await other.dispose();
    expect(await until(backend, jobId, (status) => status.state !== 'processing')).toEqual({
      state: 'cancelled',
    });
    // The completed list of lpstat does include it: the state comes from IPP, not from that list.
    expect(await cups.lpstat(['-W', 'completed', '-o', cups.slowQueue])).toContain(jobId);
    // Cancelling again is not an error: nothing is printing, which is what was asked.
    await expect(backend.cancel(jobId)).resolves.toBeUndefined();
  });

  it('without ipptool, still knows the jobs it cancelled itself', async () => {
    const plain = new CupsBackend({ server: cups.server, useIpptool: false });
    const jobId = await plain.print(file, {
      printer: cups.slowQueue,
      title: 'slow-plain',
      copies: 1,
    });
    await plain.cancel(jobId);
    expect(await until(plain, jobId, (status) => status.state !== 'processing')).toEqual({
      state: 'cancelled',
    });
    const done = await plain.print(file, { printer: cups.pdfQueue, title: 'plain', copies: 2 });
    expect((await until(plain, done, (status) => status.state === 'completed')).state).toBe(
      'completed',
    );
  });

  it('refuses unknown job ids and odd options before running anything', async () => {
    expect(await failure(backend.jobState(`${cups.pdfQueue}-99999`))).toMatchObject({
      code: 'job_unknown',
    });
    expect(await failure(backend.jobState('not a job'))).toMatchObject({ code: 'job_unknown' });
    expect(await failure(backend.jobState('no-such-printer-3'))).toMatchObject({
      code: 'printer_unknown',
    });
    expect(await failure(backend.cancel(`${cups.pdfQueue}-99999`))).toMatchObject({
      code: 'job_unknown',
    });
    const before = await cups.allJobIds();
    for (const options of [
      { printer: '-oraw', title: 't', copies: 1 },
      { printer: cups.pdfQueue, title: 't', copies: 0 },
      { printer: cups.pdfQueue, title: 't', copies: 1.5 },
      { printer: cups.pdfQueue, title: 't', copies: 1, media: 'A4 -o x' },
      { printer: cups.pdfQueue, title: '\n', copies: 1 },
    ]) {
      expect(await failure(backend.print(file, options))).toMatchObject({
        code: 'invalid_options',
      });
    }
    expect(await cups.allJobIds()).toEqual(before);
  });

  it('says when the CUPS tools are missing', async () => {
    const missing = new CupsBackend({ binDir: join(spool.directory, 'no-bin') });
    expect(await failure(missing.listPrinters())).toMatchObject({ code: 'backend_unavailable' });
  });
});
