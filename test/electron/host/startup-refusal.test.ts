import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { preloadBanner, RENDERER_VERSION_META } from '../../../electron/host/asset-version.ts';
import { Outbox } from '../../../electron/outbox/outbox.ts';
import { packageVersion } from '../../../electron/package-version.ts';
import { kioskSchema } from '../../../electron/schema.ts';
import {
  COMMIT_MARKER_SUFFIX,
  DATABASE_FILE,
  openDatabase,
} from '../../../electron/storage/index.ts';
import { runBrowserMainToExit } from './browser-main-process.ts';

/**
 * Both hosts on a database whose write-ahead log was lost: the same one-paragraph refusal and
 * kioskctl's exit code 8, never a stack trace. The Electron host is its own source
 * (`electron/host/main.ts`) on the test's Electron fake (`electron-main-hooks.ts`).
 */

const hooks = fileURLToPath(new URL('./electron-main-hooks.ts', import.meta.url));
const electronMain = fileURLToPath(new URL('../../../electron/host/main.ts', import.meta.url));

let root: string;
let dataDir: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'kiosk-host-refusal-'));
  dataDir = join(root, 'data');
  // Three debits acknowledged by a kiosk still running, then the data directory copied without
  // its -wal (a backup tool, a move to a new PC): the copy holds none of them.
  const running = join(root, 'running');
  const db = openDatabase({ dataDir: running, schema: kioskSchema });
  const outbox = new Outbox({ db, connectivity: () => 'online' });
  for (let i = 0; i < 3; i++) outbox.enqueue({ giftCardId: 'gift_card_1', amount: 1 });
  mkdirSync(dataDir);
  for (const name of [DATABASE_FILE, `${DATABASE_FILE}${COMMIT_MARKER_SUFFIX}`]) {
    copyFileSync(join(running, name), join(dataDir, name));
  }
  db.close();
  // The built renderer and preload the Electron host checks before anything else, stamped.
  mkdirSync(join(root, 'assets', 'renderer'), { recursive: true });
  writeFileSync(
    join(root, 'assets', 'renderer', 'index.html'),
    `<meta name="${RENDERER_VERSION_META}" content="${packageVersion()}">`,
  );
  writeFileSync(join(root, 'assets', 'preload.cjs'), `${preloadBanner(packageVersion())}\n`);
});

afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

/** A real service is configured: the kiosk's data directory is the one given, as in a store. */
const env = () => ({
  KIOSK_DATA_DIR: dataDir,
  KIOSK_API_BASE_URL: 'http://127.0.0.1:9',
  KIOSK_API_EMAIL: 'kiosk@fleet.example',
  KIOSK_API_PASSWORD: 'p',
});

async function runElectronMain(): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['--import', hooks, electronMain], {
    env: {
      PATH: process.env['PATH'] ?? '',
      HOME: root,
      KIOSK_TEST_ASSETS: join(root, 'assets'),
      ...env(),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, stdout, stderr };
}

describe('a kiosk host on data it refuses', { timeout: 60_000 }, () => {
  it('the browser host and the Electron host give the same clear refusal, exit 8, no stack trace', async () => {
    const database = join(dataDir, DATABASE_FILE);
    const browser = await runBrowserMainToExit(env());
    const electron = await runElectronMain();

    for (const run of [browser, electron]) {
      expect(run.code).toBe(8);
      expect(run.stderr).not.toMatch(/^\s+at /m);
    }
    const line = `kiosk: cannot start: STORAGE_LOG_LOST: ${database} holds 0 commits but ${database}${COMMIT_MARKER_SUFFIX} says 3 were acknowledged`;
    const paragraph = browser.stderr.split('\n').find((text) => text.startsWith('kiosk: '));
    expect(paragraph?.startsWith(line)).toBe(true);
    expect(browser.stdout).not.toContain('kiosk: open');
    // Word for word the same paragraph, and on the kiosk's screen too.
    expect(electron.stderr.split('\n')).toContain(paragraph);
    expect(JSON.parse(electron.stdout.trim().split('\n').at(-1)!)).toEqual({
      dialog: { title: 'Kiosk', content: paragraph!.slice('kiosk: '.length) },
    });
  });
});
