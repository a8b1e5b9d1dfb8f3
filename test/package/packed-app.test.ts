/**
 * What electron-builder packs, started: a folder holding only `dist/` and `npm ci --omit=dev`
 * (no devDependency, no source), with an `electron` stand-in. The app's main module must load,
 * open the kiosk on the embedded sandbox, answer IPC and close, with no missing module.
 */
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installElectronStandIn } from './electron-stand-in.ts';
import { ROOT, npm, outcome, requireBuild } from './packed.ts';

describe('the packed app, with production dependencies only', () => {
  let work: string;
  let app: string;

  beforeAll(async () => {
    requireBuild();
    work = await mkdtemp(join(tmpdir(), 'kiosk-packed-app-'));
    app = join(work, 'app');
    await cp(join(ROOT, 'dist'), join(app, 'dist'), { recursive: true });
    for (const file of ['package.json', 'package-lock.json']) {
      await cp(join(ROOT, file), join(app, file));
    }
    // electron-builder's extraMetadata.main: the packed app starts where the builder says.
    const builder = await readFile(join(ROOT, 'build', 'electron-builder.yml'), 'utf8');
    const main = /^\s+main:\s*(\S+)\s*$/m.exec(builder)?.[1];
    if (main === undefined) throw new Error('electron-builder.yml names no extraMetadata.main');
    const manifest = JSON.parse(await readFile(join(app, 'package.json'), 'utf8')) as object;
    await writeFile(join(app, 'package.json'), JSON.stringify({ ...manifest, main }));
    await npm(app, ['ci', '--omit=dev', '--prefer-offline', '--ignore-scripts']);
    await installElectronStandIn(app);
  }, 300_000);

  afterAll(async () => {
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('is a production install: the build and test tools are not there', async () => {
    const tools = ['typescript', 'vite', 'vitest', '@asteasolutions/zod-to-openapi', 'react'];
    const present = await Promise.all(
      tools.map((name) =>
        readFile(join(app, 'node_modules', name, 'package.json')).then(
          () => name,
          () => undefined,
        ),
      ),
    );
    expect(present.filter(Boolean)).toEqual([]);
  });

  it('loads its main module, opens the kiosk on the sandbox, answers IPC and closes', async () => {
    const result = await outcome(
      process.execPath,
      [join(ROOT, 'test', 'package', 'packed-app-driver.ts'), app],
      {
        cwd: app,
        timeout: 90_000,
        env: {
          KIOSK_DATA_DIR: join(work, 'data'),
          KIOSK_LOG: join(work, 'kiosk.log'),
          KIOSK_API_BASE_URL: '',
          KIOSK_API_EMAIL: '',
          KIOSK_API_PASSWORD: '',
          KIOSK_VAULT: '',
        },
      },
    );
    expect(result.stderr).not.toContain('ERR_MODULE_NOT_FOUND');
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      main: 'dist/electron/host/main.js',
      page: 'commerce-kiosk://kiosk/index.html',
      handlers: expect.any(Number),
      shops: expect.any(Number),
      quit: true,
      handlersAfterClose: 0,
    });
    expect(JSON.parse(result.stdout).shops).toBeGreaterThan(0);
  }, 120_000);
});
