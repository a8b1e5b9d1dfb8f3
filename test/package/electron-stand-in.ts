/**
 * An `electron` package for a folder that has no Electron (the binary cannot run here): it exports
 * the test fake's parts under the real module's names, and the fake itself as `fake`, so a
 * driver can see what the app did. Written into `<app>/node_modules/electron/`.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from './packed.ts';

export async function installElectronStandIn(appDir: string): Promise<void> {
  const dir = join(appDir, 'node_modules', 'electron');
  await mkdir(dir, { recursive: true });
  const fakeUrl = pathToFileURL(join(ROOT, 'test', 'electron', 'host', 'fake-electron.ts')).href;
  await writeFile(
    join(dir, 'package.json'),
    JSON.stringify({
      name: 'electron',
      version: '0.0.0-stand-in',
      type: 'module',
      main: 'index.js',
    }),
  );
  await writeFile(
    join(dir, 'index.js'),
    [
      `import { fakeElectron } from ${JSON.stringify(fakeUrl)};`,
      'export const fake = fakeElectron();',
      'export const { app, protocol, session, ipcMain, BrowserWindow } = fake;',
      '',
    ].join('\n'),
  );
}
