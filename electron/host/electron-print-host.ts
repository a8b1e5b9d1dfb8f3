import { pathToFileURL } from 'node:url';
import type { ElectronPrintHost, HiddenDocument } from '../printing/index.ts';
import type { BrowserWindowLike, ElectronModule } from './electron-module.ts';
import { DEFAULT_KIOSK_PARTITION } from './kiosk-window.ts';

/**
 * The printing backend's view of Electron: the printers as Chromium sees them (through the kiosk
 * window, or any live WebContents), and a hidden, sandboxed window that renders a spooled PDF
 * for `webContents.print`. The window has no preload and no bridge; it only shows the PDF, on the
 * kiosk's session partition (so the kiosk hardens it, and the host's session never sees it).
 */
export function electronPrintHost(
  electron: Pick<ElectronModule, 'BrowserWindow'>,
  anyWindow: () => BrowserWindowLike | undefined,
  partition: string = DEFAULT_KIOSK_PARTITION,
): ElectronPrintHost {
  return {
    async getPrintersAsync() {
      const window = anyWindow();
      if (window === undefined || window.isDestroyed()) return [];
      const printers = await window.webContents.getPrintersAsync();
      // Electron types `options` as an empty interface; on CUPS platforms it holds the queue's
      // attributes as strings (printer-state, printer-state-reasons...).
      return printers.map((printer) => ({
        name: printer.name,
        displayName: printer.displayName,
        options: { ...(printer.options as Record<string, string | undefined>) },
      }));
    },
    async openHiddenDocument(file): Promise<HiddenDocument> {
      const hidden = new electron.BrowserWindow({
        show: false,
        webPreferences: {
          partition,
          sandbox: true,
          contextIsolation: true,
          nodeIntegration: false,
          webSecurity: true,
          // Chromium's PDF viewer is a plugin.
          plugins: true,
          devTools: false,
        },
      });
      try {
        await hidden.loadURL(pathToFileURL(file).href);
      } catch (error) {
        hidden.destroy();
        throw error;
      }
      return {
        print: (options, callback) =>
          hidden.webContents.print({ ...options } as Record<string, unknown>, callback),
        close: () => {
          if (!hidden.isDestroyed()) hidden.destroy();
        },
      };
    },
  };
}
