/**
 * Module hooks that run the Electron host's own source (`electron/host/main.ts`) under plain
 * Node, as the packed-app test runs its build: `electron` is the test fake (with the two calls
 * the host makes when it refuses its data: `dialog.showErrorBox`, printed as a JSON line on
 * stdout, and `app.exit`), the package's entry points are their sources, and its built assets
 * (the renderer and the preload, checked for their version stamps) are the stamped stand-ins in
 * `KIOSK_TEST_ASSETS`.
 *
 *   KIOSK_TEST_ASSETS=<dir> node --import ./electron-main-hooks.ts electron/host/main.ts
 */
import { register } from 'node:module';

const root = new URL('../../../', import.meta.url);
const standIn = `data:text/javascript,${encodeURIComponent(`
  import { fakeElectron } from ${JSON.stringify(new URL('test/electron/host/fake-electron.ts', root).href)};
  export const fake = fakeElectron();
  export const { protocol, session, ipcMain, BrowserWindow } = fake;
  export const app = Object.assign(fake.app, { exit: (code) => process.exit(code) });
  export const dialog = {
    showErrorBox: (title, content) =>
      process.stdout.write(JSON.stringify({ dialog: { title, content } }) + '\\n'),
  };
`)}`;
const entries: Record<string, string> = {
  electron: standIn,
  'commerce-kiosk': new URL('electron/exports/main.ts', root).href,
  'commerce-kiosk/sandbox': new URL('sandbox/index.ts', root).href,
};

const assets = process.env['KIOSK_TEST_ASSETS'] ?? '';
const assetPaths = `data:text/javascript,${encodeURIComponent(`
  export const kioskPreloadPath = () => ${JSON.stringify(`${assets}/preload.cjs`)};
  export const kioskRendererDir = () => ${JSON.stringify(`${assets}/renderer/`)};
`)}`;

register(
  `data:text/javascript,${encodeURIComponent(`
    const entries = ${JSON.stringify(entries)};
    export async function resolve(specifier, context, next) {
      const url = entries[specifier];
      if (url !== undefined) return { url, shortCircuit: true };
      const resolved = await next(specifier, context);
      return resolved.url.endsWith('/electron/host/asset-paths.ts')
        ? { url: ${JSON.stringify(assetPaths)}, shortCircuit: true }
        : resolved;
    }
  `)}`,
);
