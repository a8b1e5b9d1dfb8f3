import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chooseBackend, choosePrinter } from '../../../electron/printing/choose-backend.ts';
import { CupsBackend } from '../../../electron/printing/cups-backend.ts';
import {
  ElectronBackend,
  type ElectronPrintHost,
} from '../../../electron/printing/electron-backend.ts';
import { startPrivateCups, type PrivateCups } from '../../support/cups.ts';

let cups: PrivateCups;
beforeAll(async () => {
  cups = await startPrivateCups();
});
afterAll(async () => {
  await cups?.stop();
});

/** Electron cannot run here: a minimal stand-in for the injected host (see electron-backend.test.ts). */
function host(printers: { name: string; isDefault?: boolean }[] = []): ElectronPrintHost {
  return {
    getPrintersAsync: async () => printers,
    openHiddenDocument: () => Promise.reject(new Error('not used')),
  };
}

describe('chooseBackend', () => {
  it('uses CUPS on Linux and macOS when its tools are there', async () => {
    const linux = await chooseBackend({
      config: { cupsServer: cups.server },
      platform: 'linux',
      electronHost: host(),
    });
    expect(linux.backend).toBeInstanceOf(CupsBackend);
    expect(await linux.backend.defaultPrinter()).toBe(cups.pdfQueue);
    // A scheduler that is down now is not a reason to switch: the job will say so.
    const down = await chooseBackend({ config: { cupsServer: '127.0.0.1:1' }, platform: 'darwin' });
    expect(down.backend).toBeInstanceOf(CupsBackend);
  });

  it('uses Electron on Windows, and on Unix without the CUPS tools when inside Electron', async () => {
    expect(
      (await chooseBackend({ config: {}, platform: 'win32', electronHost: host() })).backend,
    ).toBeInstanceOf(ElectronBackend);
    const fallback = await chooseBackend({
      config: {},
      platform: 'linux',
      electronHost: host(),
      cups: { binDir: '/nonexistent/cups/bin' },
    });
    expect(fallback.backend).toBeInstanceOf(ElectronBackend);
    expect(fallback.why).toMatch(/fallback/);
  });

  it('obeys an explicit choice or refuses it, never swaps it', async () => {
    const cupsChoice = await chooseBackend({ config: { backend: 'cups' }, platform: 'win32' });
    expect(cupsChoice.backend).toBeInstanceOf(CupsBackend);
    await expect(
      chooseBackend({ config: { backend: 'electron' }, platform: 'linux' }),
    ).rejects.toMatchObject({
      code: 'backend_unavailable',
    });
    await expect(chooseBackend({ config: {}, platform: 'win32' })).rejects.toMatchObject({
      code: 'backend_unavailable',
    });
    await expect(
      chooseBackend({ config: {}, platform: 'linux', cups: { binDir: '/nonexistent/cups/bin' } }),
    ).rejects.toMatchObject({ code: 'backend_unavailable' });
  });
});

describe('choosePrinter', () => {
  it('takes the configured printer, else the system default, else says there is none', async () => {
    const backend = new CupsBackend({ server: cups.server });
    expect(await choosePrinter(backend, cups.noPaperQueue)).toBe(cups.noPaperQueue);
    expect(await choosePrinter(backend, undefined)).toBe(cups.pdfQueue);
    await expect(choosePrinter(backend, 'Front_Desk')).rejects.toMatchObject({
      code: 'printer_unknown',
      message: 'There is no printer named "Front_Desk".',
    });
    const noDefault = new ElectronBackend(host([{ name: 'Label' }]));
    await expect(choosePrinter(noDefault, undefined)).rejects.toMatchObject({ code: 'no_printer' });
  });

  it('says the print service is down, not that there is no printer, when cupsd is stopped', async () => {
    const backend = new CupsBackend({ server: cups.server });
    // `lpstat -d` then says "no system default destination" and exits 0.
    await cups.stopScheduler();
    try {
      await expect(choosePrinter(backend, undefined)).rejects.toMatchObject({
        code: 'scheduler_down',
        transient: true,
      });
      await expect(backend.defaultPrinter()).rejects.toMatchObject({ code: 'scheduler_down' });
    } finally {
      await cups.startScheduler();
    }
    expect(await choosePrinter(backend, undefined)).toBe(cups.pdfQueue);
  });
});
