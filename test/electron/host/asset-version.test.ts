import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AssetVersionError,
  RENDERER_VERSION_META,
  checkAssetVersions,
  preloadBanner,
} from '../../../electron/host/asset-version.ts';
import { createKioskIntegration } from '../../../electron/host/kiosk-integration.ts';
import { packageVersion } from '../../../electron/package-version.ts';
import { fakeElectron } from './fake-electron.ts';

const page = (version: string) =>
  `<!doctype html><meta name="${RENDERER_VERSION_META}" content="${version}"><title>k</title>`;

describe('the renderer and preload must be of the main process version', () => {
  let dir: string;
  let current: { rendererDir: string; preloadPath: string };
  let older: { rendererDir: string; preloadPath: string };
  let unstamped: { rendererDir: string; preloadPath: string };

  async function assets(name: string, html: string, preload: string) {
    const rendererDir = join(dir, name);
    await mkdir(rendererDir);
    await writeFile(join(rendererDir, 'index.html'), html);
    const preloadPath = join(dir, `${name}.cjs`);
    await writeFile(preloadPath, preload);
    return { rendererDir, preloadPath };
  }

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kiosk-assets-'));
    const version = packageVersion();
    current = await assets('current', page(version), `${preloadBanner(version)}\n"use strict";`);
    older = await assets('older', page('0.9.0'), `${preloadBanner('0.9.0')}\n`);
    unstamped = await assets('unstamped', '<!doctype html><title>k</title>', '"use strict";\n');
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('takes the package version from its own package.json', async () => {
    const manifest = JSON.parse(await readFile('package.json', 'utf8')) as { version: string };
    expect(packageVersion()).toBe(manifest.version);
  });

  it('accepts assets stamped with this version', async () => {
    await expect(checkAssetVersions(current)).resolves.toBeUndefined();
  });

  it('refuses a renderer of another version, naming both', async () => {
    const refusal = checkAssetVersions({ ...current, rendererDir: older.rendererDir });
    await expect(refusal).rejects.toBeInstanceOf(AssetVersionError);
    await expect(refusal).rejects.toMatchObject({
      code: 'asset_version_mismatch',
      message: expect.stringMatching(/renderer .* is version 0\.9\.0, the main process is /),
    });
  });

  it('refuses a preload of another version', async () => {
    await expect(
      checkAssetVersions({ ...current, preloadPath: older.preloadPath }),
    ).rejects.toMatchObject({ code: 'asset_version_mismatch', message: /preload/ });
  });

  it('refuses assets that carry no stamp, or are missing', async () => {
    await expect(
      checkAssetVersions({ ...current, rendererDir: unstamped.rendererDir }),
    ).rejects.toMatchObject({ code: 'asset_unversioned', message: /renderer/ });
    await expect(
      checkAssetVersions({ ...current, preloadPath: unstamped.preloadPath }),
    ).rejects.toMatchObject({ code: 'asset_unversioned', message: /preload/ });
    await expect(
      checkAssetVersions({ ...current, preloadPath: join(dir, 'absent.cjs') }),
    ).rejects.toMatchObject({ code: 'asset_unversioned' });
  });

  it('stops createKioskIntegration before it changes anything in the host', async () => {
    const electron = fakeElectron();
    const start = createKioskIntegration({
      electron,
      dataDir: join(dir, 'data'),
      rendererDir: older.rendererDir,
      preloadPath: current.preloadPath,
    });
    await expect(start).rejects.toMatchObject({ code: 'asset_version_mismatch' });
    expect(electron.windows).toHaveLength(0);
    expect(electron.ipcHandlers.size).toBe(0);
  });
});
