import { describe, expect, it } from 'vitest';
import { PrintError } from '../../../electron/printing/backend.ts';
import {
  ElectronBackend,
  type ElectronPrinter,
  type ElectronPrintHost,
  type ElectronSilentPrintOptions,
  type HiddenDocument,
} from '../../../electron/printing/electron-backend.ts';

/**
 * The Electron binary cannot run here, so this is the one fake of the suite: it stands for
 * `webContents.getPrintersAsync()` and a hidden window's `webContents.print()`, and records what
 * the backend asked of them.
 */
class FakeHost implements ElectronPrintHost {
  printers: ElectronPrinter[] = [];
  opened: string[] = [];
  printed: ElectronSilentPrintOptions[] = [];
  closed = 0;
  /** How the next print ends; undefined: it never calls back (a print still spooling). */
  outcome: { success: boolean; failureReason: string } | undefined = {
    success: true,
    failureReason: '',
  };
  throwOnPrint: Error | undefined;

  async getPrintersAsync(): Promise<readonly ElectronPrinter[]> {
    return this.printers;
  }

  async openHiddenDocument(file: string): Promise<HiddenDocument> {
    this.opened.push(file);
    return {
      print: (options, callback) => {
        if (this.throwOnPrint) throw this.throwOnPrint;
        this.printed.push(options);
        const outcome = this.outcome;
        if (outcome) queueMicrotask(() => callback(outcome.success, outcome.failureReason));
      },
      close: () => {
        this.closed++;
      },
    };
  }
}

function setup(): { host: FakeHost; backend: ElectronBackend } {
  const host = new FakeHost();
  host.printers = [
    { name: 'Brother_QL_820NWB', displayName: 'Brother QL-820NWB', isDefault: true, options: {} },
    {
      name: 'HP_Office',
      options: {
        'printer-state': '5',
        'printer-state-reasons': 'media-empty-error',
        'printer-state-message': 'Out of paper',
      },
    },
    { name: 'Rejecting', options: { 'printer-state': '3', 'printer-is-accepting-jobs': 'false' } },
    { name: 'Busy', options: { 'printer-state': '4' } },
  ];
  return { host, backend: new ElectronBackend(host) };
}

const flush = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

describe('ElectronBackend', () => {
  it('lists printers with the default, the state and the reason the platform gives', async () => {
    const { backend } = setup();
    expect(await backend.listPrinters()).toEqual([
      { name: 'Brother_QL_820NWB', isDefault: true, state: 'idle', accepting: true },
      {
        name: 'HP_Office',
        isDefault: false,
        state: 'stopped',
        accepting: true,
        reason: {
          code: 'out_of_paper',
          message: 'The printer "HP_Office" is out of paper ("Out of paper").',
        },
      },
      {
        name: 'Rejecting',
        isDefault: false,
        state: 'idle',
        accepting: false,
        reason: {
          code: 'printer_not_accepting',
          message: 'The printer "Rejecting" is not accepting jobs.',
        },
      },
      { name: 'Busy', isDefault: false, state: 'printing', accepting: true },
    ]);
    expect(await backend.defaultPrinter()).toBe('Brother_QL_820NWB');
  });

  it('prints silently to the named device with the copies and page size, then closes the window', async () => {
    const { host, backend } = setup();
    const jobId = await backend.print('/spool/invoice-1.pdf', {
      printer: 'Brother_QL_820NWB',
      title: 'invoice',
      copies: 2,
      media: 'a4',
    });
    expect(host.opened).toEqual(['/spool/invoice-1.pdf']);
    expect(host.printed).toEqual([
      {
        silent: true,
        deviceName: 'Brother_QL_820NWB',
        copies: 2,
        printBackground: true,
        pageSize: 'A4',
      },
    ]);
    await flush();
    expect(await backend.jobState(jobId)).toEqual({ state: 'completed' });
    expect(host.closed).toBe(1);
  });

  it("uses the printer's own paper size when none is configured", async () => {
    const { host, backend } = setup();
    await backend.print('/f.pdf', { printer: 'Brother_QL_820NWB', title: 't', copies: 1 });
    expect(host.printed[0]).toMatchObject({ usePrinterDefaultPageSize: true });
    expect(host.printed[0]).not.toHaveProperty('pageSize');
  });

  it('refuses an unknown printer instead of letting Chromium pick the default', async () => {
    const { host, backend } = setup();
    await expect(
      backend.print('/f.pdf', { printer: 'Nope', title: 't', copies: 1 }),
    ).rejects.toMatchObject({
      code: 'printer_unknown',
    });
    await expect(
      backend.print('/f.pdf', { printer: 'Brother_QL_820NWB', title: 't', copies: 1, media: 'B5' }),
    ).rejects.toMatchObject({
      code: 'invalid_options',
    });
    expect(host.opened).toEqual([]);
  });

  it('maps Chromium failure reasons to cancelled and aborted', async () => {
    const { host, backend } = setup();
    host.outcome = { success: false, failureReason: 'Print job canceled' };
    const cancelled = await backend.print('/f.pdf', { printer: 'Busy', title: 't', copies: 1 });
    host.outcome = { success: false, failureReason: 'Print job failed' };
    const failed = await backend.print('/f.pdf', { printer: 'Busy', title: 't', copies: 1 });
    host.outcome = { success: false, failureReason: 'Invalid printer settings' };
    const invalid = await backend.print('/f.pdf', { printer: 'Busy', title: 't', copies: 1 });
    host.throwOnPrint = new Error('Object has been destroyed');
    const thrown = await backend.print('/f.pdf', { printer: 'Busy', title: 't', copies: 1 });
    await flush();
    expect(await backend.jobState(cancelled)).toEqual({ state: 'cancelled' });
    expect(await backend.jobState(failed)).toEqual({
      state: 'aborted',
      reason: { code: 'job_aborted', message: 'The printer refused the job: Print job failed.' },
    });
    expect((await backend.jobState(invalid)).reason?.code).toBe('invalid_options');
    expect(await backend.jobState(thrown)).toMatchObject({ state: 'aborted' });
    expect(host.closed).toBe(4);
  });

  it('cancels a print that has not been spooled by closing its window; a late callback changes nothing', async () => {
    const { host, backend } = setup();
    host.outcome = undefined;
    const jobId = await backend.print('/f.pdf', {
      printer: 'Brother_QL_820NWB',
      title: 't',
      copies: 1,
    });
    expect(await backend.jobState(jobId)).toEqual({ state: 'processing' });
    await backend.cancel(jobId);
    expect(await backend.jobState(jobId)).toEqual({ state: 'cancelled' });
    expect(host.closed).toBe(1);
    await backend.cancel(jobId);
    expect(host.closed).toBe(1);
  });

  it('reports unknown jobs and an unreadable printer list as typed errors', async () => {
    const { host, backend } = setup();
    await expect(backend.jobState('electron-42')).rejects.toBeInstanceOf(PrintError);
    await expect(backend.cancel('electron-42')).rejects.toMatchObject({ code: 'job_unknown' });
    host.getPrintersAsync = () => Promise.reject(new Error('render process gone'));
    await expect(backend.listPrinters()).rejects.toMatchObject({
      code: 'backend_unavailable',
      transient: true,
    });
  });

  it('closes the windows of unfinished jobs on dispose', async () => {
    const { host, backend } = setup();
    host.outcome = undefined;
    await backend.print('/f.pdf', { printer: 'Brother_QL_820NWB', title: 't', copies: 1 });
    await backend.dispose();
    expect(host.closed).toBe(1);
  });
});
