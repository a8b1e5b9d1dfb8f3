import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import {
  copyFileSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { COMMITS_PER_CHECKPOINT } from '../../../electron/storage/idle-checkpoint.ts';
import { COMMIT_MARKER_SUFFIX, DATABASE_FILE } from '../../../electron/storage/index.ts';
import { kioskctl, type Run } from '../cli/support.ts';

/**
 * Issue 35, part 5: 150 debits acknowledged, the `-wal` deleted, and `kioskctl outbox list` read
 * the 100 the last checkpoint had copied into the file, exit 0. A real database written by a real
 * process (killed, as a power cut leaves it), and kioskctl as the technician runs it.
 */

const kioskScript = fileURLToPath(new URL('./accepting-kiosk.ts', import.meta.url));
const STORAGE = 8;
const ACKNOWLEDGED = 150;
/** Each test starts a kiosk process and several kioskctl ones on a shared machine. */
const SPAWNS = 120_000;

interface Acknowledged {
  readonly id: number;
  readonly key: string;
}

let dataDir: string;
let database: string;
let kiosk: ChildProcess | undefined;

beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'kiosk-lost-log-'));
  database = join(dataDir, DATABASE_FILE);
});

afterEach(async () => {
  if (kiosk && kiosk.exitCode === null && kiosk.signalCode === null) {
    kiosk.kill('SIGKILL');
    await once(kiosk, 'exit');
  }
  kiosk = undefined;
  rmSync(dataDir, { recursive: true, force: true });
});

/** The kiosk app accepting `count` debits; resolves with their acknowledgements once all are. */
async function acceptDebits(count: number): Promise<Acknowledged[]> {
  const child = spawn(process.execPath, [kioskScript, dataDir, String(count)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  kiosk = child;
  let stdout = '';
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  await new Promise<void>((resolve, reject) => {
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      if (stdout.includes('ready\n')) resolve();
    });
    child.on('exit', (code) => reject(new Error(`the kiosk exited ${code}: ${stderr}`)));
  });
  return stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Acknowledged);
}

async function killKiosk(): Promise<void> {
  kiosk!.kill('SIGKILL');
  await once(kiosk!, 'exit');
}

function errorOf(run: Run): { code: string; message: string } {
  return (JSON.parse(run.stderr.trim().split('\n').at(-1)!) as { error: never }).error;
}

describe('a write-ahead log lost after acknowledged commits', { timeout: SPAWNS }, () => {
  it('WAL deleted after 150 acknowledged debits: exit 8 with a clear message, nothing silently dropped', async () => {
    const acknowledged = await acceptDebits(ACKNOWLEDGED);
    expect(acknowledged).toHaveLength(ACKNOWLEDGED);
    await killKiosk();
    // The last hundred-commit checkpoint left 50 acknowledged debits in the log alone.
    expect(ACKNOWLEDGED % COMMITS_PER_CHECKPOINT).toBe(50);
    expect(statSync(`${database}-wal`).size).toBeGreaterThan(0);
    const log = join(dataDir, 'kept.wal');
    copyFileSync(`${database}-wal`, log);
    rmSync(`${database}-wal`);
    const file = readFileSync(database);
    const marker = readFileSync(`${database}${COMMIT_MARKER_SUFFIX}`);

    // Every door a technician has: the same refusal, naming the file and what is missing.
    for (const args of [
      ['outbox', 'list'],
      ['outbox', 'show', '150'],
      ['outbox', 'report', '--date', new Date().toISOString().slice(0, 10)],
      ['outbox', 'enqueue', '--card', 'gift_card_x', '--amount', '1'],
      ['catalog', 'status'],
    ]) {
      const run = await kioskctl([...args, '--data-dir', dataDir]);
      expect(run.code, args.join(' ')).toBe(STORAGE);
      expect(run.stdout).toBe('');
      const error = errorOf(run);
      expect(error.code).toBe('STORAGE_LOG_LOST');
      expect(error.message).toContain(database);
      expect(error.message).toContain(
        `holds 100 commits but ${database}${COMMIT_MARKER_SUFFIX} says 150 were acknowledged`,
      );
      expect(error.message).toContain(`${database}-wal`);
    }
    // Refused, not repaired: the file and the marker as they were, nothing created over them.
    expect(readFileSync(database).equals(file)).toBe(true);
    expect(readFileSync(`${database}${COMMIT_MARKER_SUFFIX}`).equals(marker)).toBe(true);

    // Nothing was dropped: with its log back, every acknowledged debit is there.
    rmSync(`${database}-wal`, { force: true });
    rmSync(`${database}-shm`, { force: true });
    renameSync(log, `${database}-wal`);
    const list = await kioskctl(['outbox', 'list', '--data-dir', dataDir]);
    expect(list.stderr).toBe('');
    expect(list.code).toBe(0);
    const debits = (JSON.parse(list.stdout) as { debits: { id: number; idempotencyKey: string }[] })
      .debits;
    expect(debits.map((debit) => ({ id: debit.id, key: debit.idempotencyKey }))).toEqual(
      acknowledged,
    );
  });

  it('the log deleted while the kiosk app still has the database open: exit 8, the same code', async () => {
    await acceptDebits(ACKNOWLEDGED);
    rmSync(`${database}-wal`);
    const run = await kioskctl(['outbox', 'list', '--data-dir', dataDir]);
    expect(run.code).toBe(STORAGE);
    expect(run.stdout).toBe('');
    expect(errorOf(run)).toMatchObject({
      code: 'STORAGE_LOG_LOST',
      message: expect.stringContaining(`${database}-wal`),
    });
  });

  it('a database that lost nothing opens, whoever copied the log into it', async () => {
    await acceptDebits(ACKNOWLEDGED);
    await killKiosk();
    // kioskctl's own open checkpoints, and its close (the last connection) empties the log.
    for (let i = 0; i < 2; i++) {
      const run = await kioskctl(['outbox', 'list', '--data-dir', dataDir]);
      expect(run.code).toBe(0);
      expect((JSON.parse(run.stdout) as { debits: unknown[] }).debits).toHaveLength(ACKNOWLEDGED);
    }
    expect(existsSync(`${database}-wal`)).toBe(false);
  });

  it('the database file moved away while its marker stays: refused, nothing created', async () => {
    await acceptDebits(10);
    await killKiosk();
    rmSync(`${database}-wal`);
    renameSync(database, join(dataDir, 'elsewhere.sqlite'));
    const run = await kioskctl(['outbox', 'list', '--data-dir', dataDir]);
    expect(run.code).toBe(STORAGE);
    expect(errorOf(run)).toMatchObject({
      code: 'STORAGE_LOG_LOST',
      message: expect.stringContaining(`${database} is missing`),
    });
    expect(existsSync(database)).toBe(false);
  });
});
