import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const main = fileURLToPath(new URL('../../../electron/host/browser-main.ts', import.meta.url));

let cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups) cleanup();
  cleanups = [];
});

/** Starts the demo browser host and returns its banner (stdout up to the URL line), then stops it. */
async function banner(extraEnv: Record<string, string>): Promise<string> {
  const settingsDir = mkdtempSync(join(tmpdir(), 'kiosk-browser-main-'));
  cleanups.push(() => rmSync(settingsDir, { recursive: true, force: true }));
  const env: NodeJS.ProcessEnv = { ...process.env, KIOSK_DATA_DIR: settingsDir, KIOSK_PORT: '0' };
  for (const name of ['KIOSK_API_BASE_URL', 'KIOSK_ADMIN_PIN', 'KIOSK_LOG']) delete env[name];
  const child: ChildProcess = spawn(process.execPath, [main], {
    env: { ...env, ...extraEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  try {
    while (!/kiosk: open .*\n/.test(stdout)) {
      if (child.exitCode !== null) throw new Error(`exited with ${child.exitCode}: ${stderr}`);
      await new Promise((done) => setTimeout(done, 25));
    }
    return stdout;
  } finally {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
  }
}

describe('npm start without Electron (browser-main)', { timeout: 30_000 }, () => {
  it('prints the demo PIN when it is the one in force', async () => {
    expect(await banner({})).toContain('kiosk: demo administrator PIN: 0000\n');
  });

  it('never prints a PIN set in KIOSK_ADMIN_PIN, nor the demo PIN it replaces', async () => {
    const text = await banner({ KIOSK_ADMIN_PIN: '482913' });
    // (The data path and the port are random: only the PIN lines are compared.)
    expect(text.split('\n').filter((line) => /PIN/.test(line))).toEqual([
      'kiosk: administrator PIN: from KIOSK_ADMIN_PIN',
    ]);
    expect(text).not.toContain('482913');
  });
});
