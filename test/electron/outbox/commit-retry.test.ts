import { DatabaseSync } from 'node:sqlite';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it, vi } from 'vitest';
import { demoGiftCards } from '../../../sandbox/data/demo.ts';
import { Outbox } from '../../../electron/outbox/outbox.ts';
import { OutboxSender } from '../../../electron/outbox/sender.ts';
import { kioskSchema } from '../../../electron/schema.ts';
import { openDatabase, type KioskDatabase } from '../../../electron/storage/database.ts';
import { RecordingLogger, tempDataDir } from './support.ts';
import { startTestSandbox, type TestSandbox } from './sandbox-support.ts';

/**
 * The answer to an attempt arrives while another process holds the database's write lock for a
 * while (a kioskctl command, a backup): the commit fails with SQLITE_BUSY. The answer is only in
 * memory; it must be committed once the lock is gone, by the same live sender, never left as a
 * row `sending` (money taken at the service, shown as still sending, the card blocked) until a
 * restart.
 */

let sb: TestSandbox;
let data: ReturnType<typeof tempDataDir>;
let db: KioskDatabase;
let locker: DatabaseSync;
let sender: OutboxSender | undefined;

beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(async () => {
  await sb.close();
});
beforeEach(() => {
  sb.control.reset();
  data = tempDataDir();
  // A short busy timeout: each failed commit gives up after 20 ms instead of blocking 5 s.
  db = openDatabase({ dataDir: data.dir, schema: kioskSchema, busyTimeoutMs: 20 });
  locker = new DatabaseSync(db.path, { timeout: 0 });
});
afterEach(async () => {
  if (locker.isTransaction) locker.exec('ROLLBACK');
  locker.close();
  await sender?.stop();
  db.close();
  data.cleanup();
});

it('the database locked by another connection while the answer arrives: the row ends applied, without a restart', async () => {
  const logger = new RecordingLogger();
  const outbox = new Outbox({ db, connectivity: () => 'online' });
  sender = new OutboxSender({
    outbox,
    gateway: sb.gateway(sb.client()),
    logger,
    idlePollMs: 20,
    leaseTtlMs: 60_000,
  });
  // The moment the row is committed as `sending` (before the request leaves), another
  // connection takes the write lock: the reply finds the database locked.
  const off = outbox.events.on('change', (event) => {
    if (event.type === 'state-changed' && event.to === 'sending') {
      off();
      locker.exec('BEGIN IMMEDIATE');
    }
  });
  const { debit } = outbox.enqueue({ giftCardId: demoGiftCards.active, amount: 4.2 });
  sender.start();

  // The service applied it; the answer could not be committed, and is being retried.
  await vi.waitFor(() => {
    expect(logger.events('outbox.sender.record_retry').length).toBeGreaterThanOrEqual(2);
  });
  expect(sb.control.ledger().map((entry) => entry.idempotencyKey)).toEqual([debit.idempotencyKey]);
  expect(outbox.get(debit.id).state).toBe('sending');

  locker.exec('COMMIT');
  const outcome = await outbox.waitForOutcome(debit.id, 10_000);
  expect(outcome).toMatchObject({
    settled: true,
    debit: { state: 'applied', attempts: 1, settledBy: 'service', newBalance: expect.any(Number) },
  });
  expect(logger.events('outbox.sender.recorded')).toHaveLength(1);
  expect(logger.events('outbox.sender.attempt_crashed')).toEqual([]);
  expect(sb.control.ledger()).toHaveLength(1);
  // Retries are logged at the 1st, 2nd, 4th, 8th... failure only.
  const failures = logger
    .events('outbox.sender.record_retry')
    .map((line) => line.fields['failures']);
  expect(failures.every((n) => typeof n === 'number' && (n & (n - 1)) === 0)).toBe(true);
});
