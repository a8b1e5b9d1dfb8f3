import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RENDERER_VERSION_META, preloadBanner } from '../../../electron/host/asset-version.ts';
import { packageVersion } from '../../../electron/package-version.ts';

export const SECRET_TEXT = 'root:x:0:0:NOT-FOR-THE-RENDERER';

export interface RendererFixture {
  /** The renderer folder: index.html, assets/app.js, a symlink leading outside. */
  readonly rendererDir: string;
  /** A preload stamped, as the build stamps it, with this package's version. */
  readonly preloadPath: string;
  /** A file beside the renderer folder that must never be served. */
  readonly secretPath: string;
  close(): Promise<void>;
}

export async function makeRendererFixture(): Promise<RendererFixture> {
  const base = await mkdtemp(join(tmpdir(), 'kiosk-renderer-'));
  const rendererDir = join(base, 'renderer');
  await mkdir(join(rendererDir, 'assets'), { recursive: true });
  await writeFile(
    join(rendererDir, 'index.html'),
    `<!doctype html><meta name="${RENDERER_VERSION_META}" content="${packageVersion()}">` +
      '<script type="module" src="./assets/app.js"></script>',
  );
  const preloadPath = join(base, 'preload.cjs');
  await writeFile(preloadPath, `${preloadBanner(packageVersion())}\n`);
  await writeFile(join(rendererDir, 'assets', 'app.js'), 'console.log("kiosk")');
  await writeFile(join(rendererDir, 'notes.unknownext'), 'x');
  const secretPath = join(base, 'secret.txt');
  await writeFile(secretPath, SECRET_TEXT);
  await symlink(secretPath, join(rendererDir, 'assets', 'leak.txt'));
  await symlink(base, join(rendererDir, 'up'));
  return {
    rendererDir,
    preloadPath,
    secretPath,
    close: () => rm(base, { recursive: true, force: true }),
  };
}
