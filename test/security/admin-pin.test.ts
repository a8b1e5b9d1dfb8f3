import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createIpcRouter } from '../../electron/ipc/index.ts';
import { AdminPin } from '../../electron/kiosk/admin-pin.ts';
import {
  createKioskServices,
  fixedCredentials,
  type WiredKioskServices,
} from '../../electron/kiosk/index.ts';
import { type RunningSandbox, startSandbox } from '../../sandbox/index.ts';
import { AdminPinRefusal, ipcErrorCodes, type IpcResult } from '../../shared/ipc/errors.ts';

/**
 * The administrator PIN's lockout, attacked as someone at the kiosk would: five wrong PINs lock
 * setup out, and pulling the plug (or any restart) used to clear the lockout, since it lived in
 * memory only; so did starting again with the clock set back. Each restart handed out five more
 * guesses, and a 4-digit PIN falls to 2,000 restarts.
 */

const PIN = '582047';
const WRONG = ['0000', '1111', '2222', '3333', '4444'];
const browserMain = fileURLToPath(new URL('../../electron/host/browser-main.ts', import.meta.url));

let sandbox: RunningSandbox;
let dirs: string[] = [];
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
}, 30_000);
afterAll(async () => {
  await sandbox?.close();
});
afterEach(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  dirs = [];
});

function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

function refusalOf(result: IpcResult<unknown>): { code: string; details: AdminPinRefusal } {
  if (result.ok) throw new Error('the PIN was accepted');
  return { code: result.error.code, details: AdminPinRefusal.parse(result.error.details) };
}

/** `npm start`'s browser host as its own process, on the test's sandbox, reached over HTTP. */
class KioskProcess {
  readonly #child: ChildProcess;
  #origin = '';
  #token = '';

  private constructor(child: ChildProcess) {
    this.#child = child;
  }

  static async start(dataDir: string, rendererDir: string): Promise<KioskProcess> {
    const account = sandbox.accounts[0]!;
    const env: NodeJS.ProcessEnv = { ...process.env };
    for (const name of Object.keys(env)) if (name.startsWith('KIOSK_')) delete env[name];
    const child = spawn(process.execPath, [browserMain], {
      env: {
        ...env,
        KIOSK_DATA_DIR: dataDir,
        KIOSK_RENDERER_DIR: rendererDir,
        KIOSK_PORT: '0',
        KIOSK_API_BASE_URL: sandbox.baseUrl,
        KIOSK_API_EMAIL: account.email,
        KIOSK_API_PASSWORD: account.password,
        KIOSK_ADMIN_PIN: PIN,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const kiosk = new KioskProcess(child);
    const url = await kiosk.#banner();
    kiosk.#origin = url.origin;
    kiosk.#token = new URLSearchParams(url.hash.slice(1)).get('token') ?? '';
    return kiosk;
  }

  /** Waits for the line with the URL to open, or the process's end. */
  #banner(): Promise<URL> {
    const child = this.#child;
    return new Promise((resolve, reject) => {
      let stdout = '';
      let stderr = '';
      child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.stdout!.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        const match = /kiosk: open (\S+)\n/.exec(stdout);
        if (match) resolve(new URL(match[1]!));
      });
      child.once('exit', (code) => reject(new Error(`the kiosk exited (${code}): ${stderr}`)));
    });
  }

  async call(name: string, payload: unknown): Promise<IpcResult<unknown>> {
    const response = await fetch(`${this.#origin}/ipc/${name}`, {
      method: 'POST',
      headers: {
        origin: this.#origin,
        'x-kiosk-token': this.#token,
        'content-type': 'application/json',
      },
      body: JSON.stringify(payload),
    });
    return (await response.json()) as IpcResult<unknown>;
  }

  /** As a power cut: no shutdown, nothing flushed on the way out. */
  async kill(): Promise<void> {
    if (this.#child.exitCode !== null || this.#child.signalCode !== null) return;
    const exited = once(this.#child, 'exit');
    this.#child.kill('SIGKILL');
    await exited;
  }
}

describe('the administrator PIN lockout', () => {
  let running: KioskProcess | undefined;
  afterEach(async () => {
    await running?.kill();
    running = undefined;
  });

  it(
    'holds when the kiosk process is killed and started again during the lockout',
    { timeout: 90_000 },
    async () => {
      const dataDir = tempDir('kiosk-security-pin-');
      const rendererDir = tempDir('kiosk-security-pin-renderer-');
      running = await KioskProcess.start(dataDir, rendererDir);
      const first = running;
      const tries = [];
      for (const pin of WRONG) tries.push(refusalOf(await first.call('checkAdminPin', { pin })));
      expect(tries.map((t) => t.details.triesLeft)).toEqual([4, 3, 2, 1, 0]);
      const lockout = tries.at(-1)!.details;
      expect(lockout.retryAfterMs).toBe(30_000);
      await first.kill();

      // The restart takes a few seconds; the lockout, 30.
      running = await KioskProcess.start(dataDir, rendererDir);
      const again = refusalOf(await running.call('checkAdminPin', { pin: PIN }));
      expect(again.code).toBe(ipcErrorCodes.adminPinLocked);
      expect(again.details.retryAfterMs).toBeGreaterThan(0);
      expect(Date.parse(again.details.nextTryAt)).toBeGreaterThanOrEqual(
        Date.parse(lockout.nextTryAt) - 1_000,
      );
      // The protected messages are refused the same way: nothing changes.
      const update = await running.call('updateSettings', {
        adminPin: PIN,
        changes: { locale: 'en' },
      });
      expect(refusalOf(update).code).toBe(ipcErrorCodes.adminPinLocked);
    },
  );

  it('holds when the kiosk services are built again on the same data directory', async () => {
    const dataDir = tempDir('kiosk-security-pin-services-');
    const account = sandbox.accounts[0]!;
    const build = () =>
      createKioskServices({
        dataDir,
        api: { baseUrl: sandbox.baseUrl, demo: false },
        credentials: fixedCredentials(account, 'environment'),
        host: 'browser',
        adminPin: PIN,
        connectivityProbeMs: 0,
      });
    const check = (services: WiredKioskServices, pin: string) =>
      createIpcRouter({
        handlers: services.handlers,
        allowedOrigins: ['app://kiosk'],
        adminGuard: services.adminGuard,
      }).handle(
        'kiosk:checkAdminPin',
        { pin },
        {
          frameUrl: 'app://kiosk/index.html',
          isMainFrame: true,
        },
      );

    const first = await build();
    for (const pin of WRONG.slice(0, 3)) await check(first, pin);
    await first.close();
    // Two tries left, not five.
    const second = await build();
    expect(refusalOf(await check(second, WRONG[3]!)).details.triesLeft).toBe(1);
    expect(refusalOf(await check(second, WRONG[4]!)).details.retryAfterMs).toBe(30_000);
    await second.close();

    const third = await build();
    try {
      expect(refusalOf(await check(third, PIN)).code).toBe(ipcErrorCodes.adminPinLocked);
    } finally {
      await third.close();
    }
  });

  it('holds when the kiosk starts again with its clock set back', () => {
    const lockoutDir = tempDir('kiosk-security-pin-clock-');
    const clock = { wall: Date.parse('2026-05-04T10:00:00Z'), mono: 0 };
    const start = () =>
      new AdminPin({
        pin: PIN,
        lockoutDir,
        clock: { now: () => clock.wall, monotonic: () => clock.mono },
      });
    const first = start();
    for (const pin of WRONG) expect(() => first.check(pin)).toThrow();
    // Set back a day, a minute, a second: each start still refuses the right PIN.
    for (const back of [86_400_000, 60_000, 1_000]) {
      clock.wall -= back;
      let code: string | undefined;
      try {
        start().check(PIN);
      } catch (error) {
        code = (error as { code?: string }).code;
      }
      expect(code).toBe(ipcErrorCodes.adminPinLocked);
    }
  });
});
