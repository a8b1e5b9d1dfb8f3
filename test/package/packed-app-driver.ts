/**
 * Runs the packed app's main module in a folder holding only `dist/` and its production
 * dependencies, with the electron stand-in: loads it, asks for the shops over IPC as the kiosk
 * page would, closes the window, and prints one JSON line of what it saw. The process must then
 * end by itself. `node packed-app-driver.ts <app folder>`.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FakeElectron } from '../electron/host/fake-electron.ts';

const appDir = process.argv[2];
if (appDir === undefined) throw new Error('usage: packed-app-driver.ts <app folder>');
const manifest = (await import(pathToFileURL(join(appDir, 'package.json')).href, {
  with: { type: 'json' },
})) as { default: { main: string } };
const { fake } = (await import(
  pathToFileURL(join(appDir, 'node_modules', 'electron', 'index.js')).href
)) as { fake: FakeElectron };

// The app's main module resolves to the same stand-in (the folder's node_modules/electron).
await import(pathToFileURL(join(appDir, manifest.default.main)).href);

const window = fake.windows[0];
if (window === undefined) throw new Error('the app opened no window');
const listShops = fake.ipcHandlers.get('kiosk:listShops');
const reply = (await listShops?.(
  {
    sender: { id: window.webContents.id },
    senderFrame: { url: window.loadedUrl ?? '', parent: null },
  },
  {},
)) as { ok: boolean; value?: { shops: unknown[] } } | undefined;
const handlers = fake.ipcHandlers.size;

fake.appEvents.emit('window-all-closed');
for (let waited = 0; !fake.quitCalled && waited < 200; waited += 1) {
  await new Promise((resolve) => setTimeout(resolve, 50));
}

process.stdout.write(
  `${JSON.stringify({
    main: manifest.default.main,
    page: window.loadedUrl,
    handlers,
    shops: reply?.ok ? reply.value?.shops.length : reply,
    quit: fake.quitCalled,
    handlersAfterClose: fake.ipcHandlers.size,
  })}\n`,
);
