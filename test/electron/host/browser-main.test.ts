import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ipcErrorCodes } from '../../../shared/ipc/errors.ts';
import {
  type BrowserMainRun,
  runBrowserMainToExit,
  startBrowserMain,
} from './browser-main-process.ts';

let dataDir: string;
let running: BrowserMainRun | undefined;
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'kiosk-browser-main-'));
});
afterEach(async () => {
  await running?.stop();
  running = undefined;
  await rm(dataDir, { recursive: true, force: true });
});

/** The PIN lines of a banner (the data path and the port are random). */
const pinLines = (banner: string) => banner.split('\n').filter((line) => /PIN/.test(line));

async function provisionedFile(content: object = { email: 'kiosk@fleet.example', password: 'p' }) {
  const path = join(dataDir, 'provisioned.json');
  await writeFile(path, JSON.stringify(content));
  await chmod(path, 0o600);
  return path;
}

describe('npm start without Electron (browser-main)', { timeout: 30_000 }, () => {
  it('prints the demo PIN when it is the one in force', async () => {
    running = await startBrowserMain({ KIOSK_DATA_DIR: dataDir });
    expect(running.banner).toContain('kiosk: demo on the embedded sandbox');
    expect(pinLines(running.banner)).toEqual(['kiosk: demo administrator PIN: 0000']);
    expect(await running.kiosk.getStatus({})).toMatchObject({ ok: true, value: { demo: true } });
  });

  it('never prints a PIN set in KIOSK_ADMIN_PIN, nor the demo PIN it replaces', async () => {
    running = await startBrowserMain({ KIOSK_DATA_DIR: dataDir, KIOSK_ADMIN_PIN: '482913' });
    expect(pinLines(running.banner)).toEqual(['kiosk: administrator PIN: from KIOSK_ADMIN_PIN']);
    expect(running.banner).not.toContain('482913');
  });
});

describe('credentials configured, no base URL: no demo', { timeout: 30_000 }, () => {
  it('a provisioned file: locked on setup, saying why, and the demo PIN is not in force', async () => {
    const file = await provisionedFile();
    running = await startBrowserMain({
      KIOSK_DATA_DIR: dataDir,
      KIOSK_PROVISIONED_CREDENTIALS: file,
    });
    expect(running.banner).toContain('kiosk: no demo: locked on setup');
    expect(running.banner).toContain(file);
    expect(running.banner).toMatch(/KIOSK_API_BASE_URL/);
    expect(pinLines(running.banner)).toEqual([]);

    const status = await running.kiosk.getStatus({});
    expect(status).toMatchObject({
      ok: true,
      value: {
        demo: false,
        credentials: {
          configured: true,
          backend: 'file',
          problem: { code: 'API_BASE_URL_REQUIRED' },
        },
      },
    });
    expect(JSON.stringify(status)).not.toContain('kiosk@fleet.example');
    expect(await running.kiosk.getSettings({})).toMatchObject({
      ok: true,
      value: { adminPinConfigured: false, sandboxAvailable: false },
    });
    // The public demo PIN opens nothing: without KIOSK_ADMIN_PIN, setup stays closed.
    expect(await running.kiosk.checkAdminPin({ pin: '0000' })).toMatchObject({
      ok: false,
      error: { code: ipcErrorCodes.adminPinNotConfigured },
    });
  });

  it('with KIOSK_ADMIN_PIN, that PIN and not the demo one', async () => {
    running = await startBrowserMain({
      KIOSK_DATA_DIR: dataDir,
      KIOSK_PROVISIONED_CREDENTIALS: await provisionedFile(),
      KIOSK_ADMIN_PIN: '482913',
    });
    expect(pinLines(running.banner)).toEqual(['kiosk: administrator PIN: from KIOSK_ADMIN_PIN']);
    // A wrong PIN, whatever form the refusal takes (a counted try).
    expect(await running.kiosk.checkAdminPin({ pin: '0000' })).not.toMatchObject({
      ok: true,
      value: { valid: true },
    });
    expect(await running.kiosk.checkAdminPin({ pin: '482913' })).toMatchObject({
      ok: true,
      value: { valid: true },
    });
  });

  it('the environment, or setup having chosen the sandbox: locked too', async () => {
    running = await startBrowserMain({
      KIOSK_DATA_DIR: dataDir,
      KIOSK_API_EMAIL: 'kiosk@fleet.example',
    });
    expect(running.banner).toContain('kiosk: no demo: locked on setup');
    expect(running.banner).toContain('KIOSK_API_EMAIL');
    await running.stop();

    await writeFile(join(dataDir, 'kiosk-settings.json'), JSON.stringify({ apiBaseUrl: null }));
    running = await startBrowserMain({
      KIOSK_DATA_DIR: dataDir,
      KIOSK_PROVISIONED_CREDENTIALS: await provisionedFile(),
      KIOSK_API_BASE_URL: 'https://commerce.example.com',
    });
    expect(running.banner).toContain('kiosk: no demo: locked on setup');
    expect(running.banner).toContain('setup chose the demo sandbox');
  });

  it('a provisioned path with nothing there holds no credentials: the demo starts', async () => {
    running = await startBrowserMain({
      KIOSK_DATA_DIR: dataDir,
      KIOSK_PROVISIONED_CREDENTIALS: join(dataDir, 'not-provisioned.json'),
    });
    expect(running.banner).toContain('kiosk: demo on the embedded sandbox');
  });
});

describe('KIOSK_API_BASE_URL follows the one base-URL rule', { timeout: 30_000 }, () => {
  it('plain http to another machine is refused at start, naming the variable', async () => {
    const run = await runBrowserMainToExit({
      KIOSK_DATA_DIR: dataDir,
      KIOSK_API_BASE_URL: 'http://commerce.example.com',
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/KIOSK_API_BASE_URL: the base URL must be https:\/\//);
    expect(run.stdout).not.toContain('kiosk: open');
  });
});
