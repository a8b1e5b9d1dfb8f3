import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { SETTINGS_FILE, savedSettings } from '../../../electron/kiosk/settings-store.ts';

let dataDir: string;
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'kiosk-settings-crash-'));
});
afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

// Issue 34's acceptance: `settings-store` writes are fsynced. A SIGKILL does not drop the page
// cache, so this proves the saved value survives the process; the fsync of the file and of the
// directory (electron/foundation/durable-file.ts) is what carries it through a power cut.
it('a process SIGKILLed the moment a save resolves: the saved value is there when the file is read again', async () => {
  const child = spawn(
    process.execPath,
    [fileURLToPath(new URL('./saving-kiosk.ts', import.meta.url)), dataDir, 'shop-1', 'shop-2'],
    { stdio: ['ignore', 'inherit', 'inherit'] },
  );
  const [code, signal] = (await once(child, 'exit')) as [number | null, string | null];
  expect({ code, signal }).toEqual({ code: null, signal: 'SIGKILL' });

  expect(savedSettings(dataDir)).toEqual({ shopId: 'shop-2', locale: 'en' });
  // Whole, with its mode, and no temp file beside it.
  expect((await stat(join(dataDir, SETTINGS_FILE))).mode & 0o777).toBe(0o600);
  expect((await readdir(dataDir)).filter((name) => name.includes(SETTINGS_FILE))).toEqual([
    SETTINGS_FILE,
  ]);
});
