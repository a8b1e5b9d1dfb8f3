import { spawn } from 'node:child_process';
import {
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCommand } from '../../electron/cli/command.ts';
import { SettingsStore } from '../../electron/kiosk/settings-store.ts';
import { defaultOfflineLimits } from '../../electron/outbox/limits.ts';
import { kioskSchema } from '../../electron/schema.ts';
import { COMMIT_MARKER_SUFFIX, DATABASE_FILE, openDatabase } from '../../electron/storage/index.ts';

/**
 * Storage that refuses to lose data, attacked from kioskctl as a technician (or a full disk, or
 * a bad restore) would: an emptied database file was re-created and the accepted debits were gone
 * with exit 0; a damaged page, a data directory that is a file and a full disk exited 1 instead of
 * the documented 8; `--data-dir /proc/1/nope` spun at 100% CPU; `kiosk.sqlite` was world-readable.
 */

const kioskctlPath = fileURLToPath(new URL('../../electron/cli/kioskctl.ts', import.meta.url));
const STORAGE = 8;
/** Each test runs kioskctl several times, each a Node start: a budget for a loaded machine. */
const SPAWNS = 60_000;

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * kioskctl as its own process, optionally through `sh -c` (a umask, a file size limit). The kill
 * after a minute is a safety net for the /proc spin, not a timing assertion: a killed run has no
 * exit code and fails the test.
 */
function kioskctl(args: readonly string[], options: { shell?: string } = {}): Promise<Run> {
  const command = options.shell === undefined ? process.execPath : '/bin/sh';
  const argv =
    options.shell === undefined
      ? [kioskctlPath, ...args]
      : ['-c', `${options.shell}; exec "$0" "$@"`, process.execPath, kioskctlPath, ...args];
  return new Promise((resolve, reject) => {
    const child = spawn(command, argv, {
      env: { PATH: process.env['PATH'] ?? '' },
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

let root: string;
let dataDir: string;
let database: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'kiosk-security-storage-'));
  dataDir = join(root, 'data');
  database = join(dataDir, DATABASE_FILE);
});

afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

/** Two debits accepted by kioskctl, the way a technician's script would. */
async function acceptTwoDebits(): Promise<void> {
  for (const amount of ['12.50', '3']) {
    const run = await kioskctl([
      'outbox',
      'enqueue',
      '--data-dir',
      dataDir,
      '--card',
      'gift_card_ddf0db2b-c468-4d07-9853-e8ef57c20a81',
      '--amount',
      amount,
    ]);
    expect(run.code).toBe(0);
  }
}

const everyOutboxCommand: readonly (readonly string[])[] = [
  ['outbox', 'list'],
  ['outbox', 'show', '1'],
  ['outbox', 'cancel', '1'],
  ['outbox', 'enqueue', '--card', 'gift_card_x', '--amount', '1'],
  ['outbox', 'drain', '--base-url', 'http://127.0.0.1:9'],
  ['catalog', 'status'],
];

describe(
  'a database file that exists but cannot be the kiosk database is refused, untouched',
  { timeout: SPAWNS },
  () => {
    it('truncate -s 0, then every outbox command: exit 8 naming the file; nothing re-created', async () => {
      await acceptTwoDebits();
      truncateSync(database, 0);
      const before = statSync(database);
      for (const args of everyOutboxCommand) {
        const run = await kioskctl([...args, '--data-dir', dataDir]);
        expect(run.code, args.join(' ')).toBe(STORAGE);
        expect(errorOf(run)).toMatchObject({
          code: 'STORAGE_DATABASE_EMPTY',
          message: expect.stringContaining(database),
        });
        expect(run.stdout).toBe('');
      }
      const after = statSync(database);
      expect([after.size, after.ino, after.mtimeMs]).toEqual([0, before.ino, before.mtimeMs]);
      // Nothing beside it either: the commit marker the two debits left, and no -wal or -shm.
      expect(readdirSync(dataDir).sort()).toEqual([
        DATABASE_FILE,
        `${DATABASE_FILE}${COMMIT_MARKER_SUFFIX}`,
      ]);
    });

    it('a damaged page: exit 8 (not 1), the file byte for byte as it was', async () => {
      await acceptTwoDebits();
      const damaged = readFileSync(database);
      damaged.fill(0xa5, 4096, 8192);
      writeFileSync(database, damaged);
      for (const args of [everyOutboxCommand[0]!, everyOutboxCommand[5]!]) {
        const run = await kioskctl([...args, '--data-dir', dataDir]);
        expect(run.code).toBe(STORAGE);
        expect(errorOf(run)).toMatchObject({
          code: 'STORAGE_DATABASE_DAMAGED',
          message: expect.stringContaining(database),
        });
      }
      expect(readFileSync(database).equals(damaged)).toBe(true);
    });

    it('another file in its place: exit 8, untouched', async () => {
      await acceptTwoDebits();
      writeFileSync(database, 'a spreadsheet someone saved here\n');
      const run = await kioskctl(['outbox', 'list', '--data-dir', dataDir]);
      expect(run.code).toBe(STORAGE);
      expect(errorOf(run).code).toBe('STORAGE_NOT_A_DATABASE');
      expect(readFileSync(database, 'utf8')).toBe('a spreadsheet someone saved here\n');
    });
  },
);

describe(
  'every data directory the CLI takes is checked up front: exit 8 with a clear error',
  { timeout: SPAWNS },
  () => {
    it.each([
      ['a file (/etc/passwd)', () => '/etc/passwd', 'is not a directory'],
      ['a path under a file', () => '/etc/passwd/kiosk', 'ENOTDIR'],
      [
        'a directory the kernel refuses (/proc/1/nope, which spun at 100% CPU)',
        () => '/proc/1/nope',
        'cannot create /proc/1/nope',
      ],
    ])('%s', async (_, dirOf, why) => {
      for (const args of [everyOutboxCommand[0]!, everyOutboxCommand[3]!, everyOutboxCommand[5]!]) {
        const run = await kioskctl([...args, '--data-dir', dirOf()]);
        expect(run.code, args.join(' ')).toBe(STORAGE);
        expect(errorOf(run)).toMatchObject({
          code: 'STORAGE_DATA_DIR_UNUSABLE',
          message: expect.stringContaining(why),
        });
      }
    });

    it('a full disk (a file size limit) exits 8 for the outbox and the catalogue alike', async () => {
      for (const args of [everyOutboxCommand[3]!, everyOutboxCommand[5]!]) {
        const run = await kioskctl([...args, '--data-dir', join(root, args[0]!)], {
          shell: 'ulimit -f 64',
        });
        expect(run.code, args.join(' ')).toBe(STORAGE);
        expect(errorOf(run).code).toMatch(/^STORAGE_/);
      }
    });

    it('a disk that fills in the middle of a command is the storage exit code too', async () => {
      const db = openDatabase({ dataDir, schema: kioskSchema });
      let stderr = '';
      try {
        const code = await runCommand(
          ['outbox', 'list', '--data-dir', dataDir],
          { stdout: () => {}, stderr: (text) => (stderr += text), env: {} },
          () => {
            const pages = db.connection.prepare('PRAGMA page_count').get() as {
              page_count: number;
            };
            db.connection.exec(`PRAGMA max_page_count = ${pages.page_count}`);
            db.connection
              .prepare(
                'INSERT INTO leases (name, owner, acquired_at, expires_at) VALUES (?, ?, 1, 2)',
              )
              .run('x'.repeat(100_000), 'kioskctl');
            return Promise.resolve(0);
          },
        );
        expect(code).toBe(STORAGE);
        expect(JSON.parse(stderr)).toMatchObject({
          error: { code: 'STORAGE_FULL', message: expect.stringContaining(dataDir) },
        });
      } finally {
        db.close();
      }
    });
  },
);

describe('data is created for its owner only, whatever the umask', { timeout: SPAWNS }, () => {
  const modeOf = (path: string) => statSync(path).mode & 0o777;

  it('kioskctl under umask 000: the data directory (and its parents) 0700, kiosk.sqlite 0600', async () => {
    const nested = join(root, 'kiosk', 'data');
    const run = await kioskctl(['outbox', 'list', '--data-dir', nested], { shell: 'umask 000' });
    expect(run.code).toBe(0);
    expect(modeOf(join(root, 'kiosk'))).toBe(0o700);
    expect(modeOf(nested)).toBe(0o700);
    expect(modeOf(join(nested, DATABASE_FILE))).toBe(0o600);
  });

  it('the -wal and -shm files of an open database are 0600', () => {
    const db = openDatabase({ dataDir, schema: kioskSchema });
    try {
      db.transaction(() => db.connection.exec('DELETE FROM leases'));
      expect(modeOf(`${database}-wal`)).toBe(0o600);
      expect(modeOf(`${database}-shm`)).toBe(0o600);
    } finally {
      db.close();
    }
  });

  it('the settings file 0600, in a data directory it creates 0700', async () => {
    const store = SettingsStore.open(dataDir, {
      locale: 'fr',
      shopId: null,
      printer: null,
      paperSize: null,
      apiBaseUrl: null,
      offlineLimits: defaultOfflineLimits,
      profilePath: null,
      idleReturnSeconds: 90,
      scanMaxGapMs: 40,
      onScreenKeyboard: 'auto',
    });
    await store.update({ locale: 'en' });
    expect(modeOf(dataDir)).toBe(0o700);
    expect(modeOf(join(dataDir, 'kiosk-settings.json'))).toBe(0o600);
  });
});
