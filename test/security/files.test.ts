import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import {
  closeSync,
  constants,
  mkdirSync,
  mkdtempSync,
  openSync,
  rmSync,
  symlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  SAFE_STORAGE_FILE,
  SafeStorageVault,
} from '../../electron/credentials/safe-storage-vault.ts';
import { PinLockoutFile } from '../../electron/kiosk/admin-pin-lockout.ts';
import { savedSettings } from '../../electron/kiosk/settings-store.ts';
import { createRedactingLogger } from '../../electron/logging/index.ts';
import {
  ProfileError,
  ProfileInForce,
  loadProfileFile,
  readBoundedFileSync,
} from '../../electron/profile/index.ts';
import { kioskSchema } from '../../electron/schema.ts';
import { openDatabase } from '../../electron/storage/index.ts';
import { FakeSafeStorage } from '../electron/credentials/fixtures/fake-safe-storage.ts';
import {
  ADMIN_PIN,
  type KioskFixture,
  send,
  startKioskFixture,
} from '../electron/kiosk/support.ts';

/**
 * Every file the kiosk is pointed at, at every door: the integration profile (setup, the settings
 * file, KIOSK_API_PROFILE, `kioskctl --profile` and `kioskctl status`), the settings file itself,
 * a `--credentials` file, an `api --body @file`, and the kiosk's own files in its data directory
 * (the PIN lockout record, the safeStorage credentials). Before: /dev/zero as the profile took the host to 9.7 GB in 24 s and
 * kioskctl status to 11.6 GB (read whole before the 1 MiB check); a FIFO froze the main process
 * until a writer appeared (and in the settings file, the host never finished starting); the
 * refusal quoted the first bytes of any readable file (/etc/shadow: "root:*:202",
 * /proc/self/environ). Now each is refused from what fstat says of the opened file, or after at
 * most 1 MiB + 1 byte, and no refusal holds a byte of the file.
 *
 * A FIFO is given a writer that waits to open it: the code before the fix, blocked on the open,
 * is released by it (and then reads "{}", a refusal of another kind) instead of hanging the test.
 */

const kioskctlPath = fileURLToPath(new URL('../../electron/cli/kioskctl.ts', import.meta.url));
const SHADOW_LINE = 'root:*:20222:0:99999:7:::';
const ENV_MARKER = 'environ-marker-5f0e7c9a2b';

let root: string;
let shadow: string;
let directory: string;
const writers: ChildProcess[] = [];

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'kiosk-security-files-'));
  shadow = join(root, 'shadow');
  writeFileSync(shadow, `${SHADOW_LINE}\ndaemon:*:20222:0:99999:7:::\n`, { mode: 0o600 });
  directory = join(root, 'a-directory');
  mkdirSync(directory);
});

afterEach(() => {
  for (const writer of writers.splice(0)) writer.kill('SIGKILL');
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A FIFO with a writer waiting to open it (see above). */
function fifo(name: string): string {
  const path = join(root, name);
  rmSync(path, { force: true });
  execFileSync('mkfifo', [path]);
  const writer = spawn('/bin/sh', ['-c', 'printf "{}" > "$0"', path], { stdio: 'ignore' });
  writer.on('error', () => undefined);
  writers.push(writer);
  return path;
}

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** kioskctl as its own process; the kill after a minute is a safety net, not a timing check. */
function kioskctl(args: readonly string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [kioskctlPath, ...args], {
      env: { PATH: process.env['PATH'] ?? '', KIOSK_TEST_MARKER: ENV_MARKER, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 60_000,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

function errorOf(run: Run): { code: string; message: string } {
  return (JSON.parse(run.stderr.trim().split('\n').at(-1)!) as { error: never }).error;
}

/** What no refusal may hold: a byte of the files pointed at. */
function expectNoContent(text: string): void {
  expect(text).not.toContain('root:');
  expect(text).not.toContain('20222');
  expect(text).not.toContain(ENV_MARKER);
  expect(text).not.toContain('\u0000');
}

interface Hostile {
  readonly what: string;
  /** A fresh path each time: a FIFO serves one open. */
  readonly path: () => string;
  /** What its refusal must say: the rule, not the content. */
  readonly rule: RegExp;
}

let fifos = 0;
const hostile: readonly Hostile[] = [
  { what: '/dev/zero', path: () => '/dev/zero', rule: /a character device, not a regular file/ },
  {
    what: 'a FIFO',
    path: () => fifo(`hostile-${++fifos}.fifo`),
    rule: /a FIFO \(named pipe\), not a regular file/,
  },
  { what: 'a directory', path: () => directory, rule: /a directory, not a regular file/ },
  { what: 'a copy of /etc/shadow', path: () => shadow, rule: /not JSON \(a syntax error\)/ },
];

describe('the profile file, read bounded at every door', { timeout: 120_000 }, () => {
  it('loadProfileFile: refused from fstat or the JSON rule, memory untouched, nothing quoted', () => {
    for (const { path, rule } of hostile) {
      const before = process.memoryUsage().rss;
      let refusal: unknown;
      try {
        loadProfileFile(path());
      } catch (error) {
        refusal = error;
      }
      expect(refusal).toBeInstanceOf(ProfileError);
      expect((refusal as ProfileError).code).toBe('PROFILE_INVALID');
      expect((refusal as ProfileError).message).toMatch(rule);
      expectNoContent((refusal as ProfileError).message);
      expect(process.memoryUsage().rss - before).toBeLessThan(100 * 1024 * 1024);
    }
  });

  it('a regular file that never ends is read to 1 MiB + 1 byte, then refused', () => {
    const big = join(root, 'big.json');
    writeFileSync(big, `{"name": "${'x'.repeat(2 * 1024 * 1024)}"}`);
    expect(() => loadProfileFile(big)).toThrow(/larger than 1 MiB: not a profile/);
    // The reader itself stops at the cap plus one byte: /proc's files say size 0.
    expect(() => readBoundedFileSync('/proc/self/maps', 16)).toThrow(/larger than 16 bytes/);
  });

  it('kioskctl --profile and KIOSK_API_PROFILE: refused, exit 2, nothing quoted', async () => {
    const environ: Hostile = {
      what: '/proc/self/environ',
      path: () => '/proc/self/environ',
      rule: /not JSON/,
    };
    for (const { what, path, rule } of [...hostile, environ]) {
      for (const run of [
        await kioskctl(['--profile', path(), 'contract', 'import', join(root, 'none.json')]),
        await kioskctl(['contract', 'import', join(root, 'none.json')], {
          KIOSK_API_PROFILE: path(),
        }),
      ]) {
        expect(run.code, `${what}: ${run.stderr}`).toBe(2);
        expect(errorOf(run)).toMatchObject({ code: 'PROFILE_INVALID' });
        expect(errorOf(run).message).toMatch(rule);
        expectNoContent(run.stdout + run.stderr);
      }
    }
  });

  it('kioskctl status, with the profile in the environment or saved in setup', async () => {
    const dataDir = join(root, 'status-data');
    openDatabase({ dataDir, schema: kioskSchema }).close();
    for (const { what, path, rule } of hostile) {
      writeFileSync(join(dataDir, 'kiosk-settings.json'), JSON.stringify({ profilePath: path() }));
      const saved = await kioskctl(['status', '--data-dir', dataDir, '--json']);
      const environment = await kioskctl(['status', '--data-dir', dataDir, '--json'], {
        KIOSK_API_PROFILE: path(),
      });
      for (const run of [saved, environment]) {
        expect(run.code, `${what}: ${run.stderr}`).toBe(2);
        expect(errorOf(run)).toMatchObject({ code: 'PROFILE_INVALID' });
        expect(errorOf(run).message).toMatch(rule);
        expectNoContent(run.stdout + run.stderr);
      }
    }
  });

  it('kioskctl status with KIOSK_LOG a FIFO nobody writes: answers, its log read as empty', async () => {
    const dataDir = join(root, 'status-log-data');
    openDatabase({ dataDir, schema: kioskSchema }).close();
    const log = join(root, 'kiosk-log.fifo');
    execFileSync('mkfifo', [log]);
    const run = await kioskctl(['status', '--data-dir', dataDir, '--json'], { KIOSK_LOG: log });
    // Before, the open waited for a writer: the safety net's kill left no exit code.
    expect(run.code, run.stderr).not.toBeNull();
    expect(JSON.parse(run.stdout)).toMatchObject({ lastErrors: [] });
  });

  it('the host starting with it (environment or settings file): starts, the default in force, setup says why', () => {
    const lines: string[] = [];
    const logger = createRedactingLogger({ sink: (line) => lines.push(line), level: 'debug' });
    for (const { path, rule } of hostile) {
      for (const profiles of [
        new ProfileInForce({ settingsPath: path(), logger }),
        new ProfileInForce({ environmentPath: path(), settingsPath: null, logger }),
      ]) {
        expect(profiles.description).toMatchObject({
          source: 'default',
          error: { code: 'PROFILE_INVALID', message: expect.stringMatching(rule) },
        });
        expectNoContent(JSON.stringify(profiles.description));
      }
    }
    expectNoContent(lines.join('\n'));
  });

  describe('setup', () => {
    let fixture: KioskFixture;
    beforeAll(async () => {
      fixture = await startKioskFixture();
    }, 60_000);
    afterAll(() => fixture?.close());

    it('an administrator saving it: refused, naming the rule, nothing quoted, nothing saved', async () => {
      for (const { what, path, rule } of hostile) {
        const result = await send(fixture, 'updateSettings', {
          adminPin: ADMIN_PIN,
          changes: { profilePath: path() },
        });
        expect(result.ok, what).toBe(false);
        expect(JSON.stringify(result)).toMatch(rule);
        expectNoContent(JSON.stringify(result));
      }
      expect(fixture.services.parts.settings.overrides.profilePath).toBeUndefined();
    });
  });
});

describe(
  'the settings file itself, and the other files the kiosk reads',
  { timeout: 120_000 },
  () => {
    it('a settings file that is a FIFO, /dev/zero or huge: the defaults, without blocking', () => {
      const lines: string[] = [];
      const logger = createRedactingLogger({ sink: (line) => lines.push(line), level: 'debug' });
      const dataDir = join(root, 'settings-data');
      mkdirSync(dataDir);
      const file = join(dataDir, 'kiosk-settings.json');
      execFileSync('mkfifo', [file]);
      // The pipe held open with data waiting, by this process: a blocking read would get it. (A
      // writer process could open the path only after it was replaced below, and create a file.)
      const pipe = openSync(file, constants.O_RDWR | constants.O_NONBLOCK);
      writeSync(pipe, '{"shopId":"from-the-fifo"}');
      expect(savedSettings(dataDir, logger)).toEqual({});
      closeSync(pipe);
      rmSync(file);
      symlinkSync('/dev/zero', file);
      expect(savedSettings(dataDir, logger)).toEqual({});
      rmSync(file);
      writeFileSync(file, `{"shopId": "${'x'.repeat(300 * 1024)}"}`);
      expect(savedSettings(dataDir, logger)).toEqual({});
      expect(lines.map((line) => JSON.parse(line) as { reason?: string })).toEqual([
        expect.objectContaining({ reason: 'a FIFO (named pipe), not a regular file' }),
        expect.objectContaining({ reason: 'a character device, not a regular file' }),
        expect.objectContaining({ reason: 'larger than 256 KiB' }),
      ]);
    });

    it('kioskctl --credentials /dev/zero, a FIFO, a directory: refused, nothing quoted', async () => {
      for (const { what, path, rule } of hostile.filter(
        ({ what }) => what !== 'a copy of /etc/shadow',
      )) {
        const run = await kioskctl([
          'api',
          'ping',
          '--base-url',
          'http://127.0.0.1:9',
          '--credentials',
          path(),
        ]);
        expect(run.code, `${what}: ${run.stderr}`).toBe(2);
        expect(errorOf(run).message).toMatch(rule);
        expectNoContent(run.stdout + run.stderr);
      }
    });

    it('the other files it reads: an api --body @file, the PIN lockout record, the safeStorage file', async () => {
      for (const { what, path, rule } of hostile.filter(
        ({ what }) => what !== 'a copy of /etc/shadow',
      )) {
        const run = await kioskctl([
          'api',
          'debitGiftCard',
          '--param',
          'giftCardId=gift_card_x',
          '--body',
          `@${path()}`,
          '--base-url',
          'http://127.0.0.1:9',
        ]);
        expect(run.code, `${what}: ${run.stderr}`).toBe(2);
        expect(errorOf(run).message).toMatch(rule);

        // Both in the kiosk's data directory, where another local account might put something.
        const dataDir = mkdtempSync(join(root, 'own-files-'));
        const lockout = new PinLockoutFile(dataDir);
        symlinkSync(path(), lockout.path);
        expect(() => lockout.read(), what).toThrow(rule);
        symlinkSync(path(), join(dataDir, SAFE_STORAGE_FILE));
        const vault = new SafeStorageVault({ safeStorage: new FakeSafeStorage(), dataDir });
        await expect(vault.read(), what).rejects.toThrow(rule);
      }
    });
  },
);
