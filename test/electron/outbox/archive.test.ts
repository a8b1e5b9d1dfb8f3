import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ServiceTimeBounds } from '../../../electron/api/index.ts';
import { localDateOf } from '../../../electron/outbox/day-bounds.ts';
import { archiveBatch } from '../../../electron/outbox/archive.ts';
import { OutboxArchiver } from '../../../electron/outbox/archiver.ts';
import type { OutboxDebit } from '../../../electron/outbox/debit.ts';
import { DEFAULT_SETTLED_RETENTION_MS } from '../../../electron/outbox/limits.ts';
import { Outbox } from '../../../electron/outbox/outbox.ts';
import { kioskSchema } from '../../../electron/schema.ts';
import { openDatabase, type KioskDatabase } from '../../../electron/storage/index.ts';
import { kioskctl } from '../cli/support.ts';
import { tempDataDir } from './support.ts';

const DAY = 24 * 60 * 60 * 1000;
/** The service's time in these tests: its clock, not the kiosk's, decides a row's age. */
const SERVICE_NOW = Date.UTC(2026, 10, 27, 12);
const serviceAt = (at: number) => (): ServiceTimeBounds => ({
  earliest: at,
  latest: at + 1_000,
  syncAgeMs: 0,
  confirmed: true,
});

let data: ReturnType<typeof tempDataDir>;
let db: KioskDatabase;
let outbox: Outbox;

beforeEach(() => {
  data = tempDataDir('kiosk-archive-');
  db = data.open();
  outbox = new Outbox({
    db,
    connectivity: () => 'online',
    limits: { maxPendingCount: 100_000, maxPendingAmount: 1e6, maxPendingAmountPerCard: 1e6 },
  });
});

afterEach(() => {
  data.cleanup();
});

type Kind =
  | 'applied'
  | 'cancelled'
  | 'refused-resolved'
  | 'failed-acknowledged'
  | 'expired-resolved'
  | 'refused-needs-attention'
  | 'failed-needs-attention'
  | 'expired-needs-attention'
  | 'pending'
  | 'sending';

/**
 * A debit as the outbox leaves it in each state, accepted `ageDays` ago on the service's clock
 * (and on the kiosk's: the report's day), with a retired key on every tenth row.
 */
function debitOf(kind: Kind, ageDays: number, serviceAge = ageDays): OutboxDebit {
  const { debit } = outbox.enqueue({
    giftCardId: `gift_card_${kind}`,
    amount: 2.5,
    reference: `till-${kind}`,
  });
  const state = kind.split('-')[0]!;
  const acceptedAt = Date.now() - ageDays * DAY;
  db.connection
    .prepare(
      `UPDATE outbox_debits SET state = ?, created_at = ?, updated_at = ?,
         created_service_at = ?, attempts = CASE WHEN ? = 'pending' THEN 0 ELSE 1 END,
         reply = CASE WHEN ? = 'applied' THEN ? END, new_balance = CASE WHEN ? = 'applied' THEN 47.5 END,
         settled_at = CASE WHEN ? NOT IN ('pending', 'sending') THEN ? END
       WHERE id = ?`,
    )
    .run(
      state,
      acceptedAt,
      acceptedAt,
      SERVICE_NOW - serviceAge * DAY,
      state,
      state,
      JSON.stringify({ kind: 'receipt', receipt: { id: `r${debit.id}`, balance: 47.5 } }),
      state,
      state,
      acceptedAt + 1_000,
      debit.id,
    );
  if (kind.endsWith('-resolved')) {
    outbox.resolve(debit.id, { kind: 'collected_other_way', method: 'cash' });
  }
  if (kind.endsWith('-acknowledged')) outbox.acknowledge(debit.id);
  if (debit.id % 10 === 0) {
    db.connection
      .prepare(
        `INSERT INTO outbox_debit_keys
           (debit_id, idempotency_key, request_body, first_used_at, replaced_at, may_have_reached)
         VALUES (?, ?, '{"amount":2.5}', 1, 2, 1)`,
      )
      .run(debit.id, randomUUID());
  }
  return outbox.get(debit.id);
}

function archivedIds(): number[] {
  return (
    db.connection.prepare('SELECT id FROM outbox_debits_archive ORDER BY id').all() as {
      id: number;
    }[]
  ).map((row) => row.id);
}

function liveIds(): number[] {
  return (
    db.connection.prepare('SELECT id FROM outbox_debits ORDER BY id').all() as { id: number }[]
  ).map((row) => row.id);
}

function archiver(options: Partial<ConstructorParameters<typeof OutboxArchiver>[0]> = {}) {
  return new OutboxArchiver({ outbox, serviceNow: serviceAt(SERVICE_NOW), ...options });
}

const settledForGood: readonly Kind[] = [
  'applied',
  'cancelled',
  'refused-resolved',
  'failed-acknowledged',
  'expired-resolved',
];
const neverMoved: readonly Kind[] = [
  'pending',
  'sending',
  'refused-needs-attention',
  'failed-needs-attention',
  'expired-needs-attention',
];

describe('archiving settled debits past their retention', () => {
  it('moves settled rows older than the retention, and only those; open rows and those that need attention never', async () => {
    const old = [...settledForGood, ...neverMoved].map((kind) => debitOf(kind, 400));
    const young = settledForGood.map((kind) => debitOf(kind, 89));
    const run = await archiver().run();
    const moved = old.filter((debit) =>
      settledForGood.some((kind) => debit.reference.startsWith(`till-${kind}/`)),
    );
    expect(run).toMatchObject({ moved: moved.length, dated: 0 });
    expect(archivedIds()).toEqual(moved.map((debit) => debit.id));
    expect(liveIds()).toEqual(
      [...old.filter((debit) => !moved.includes(debit)), ...young].map((debit) => debit.id),
    );
    // Nothing else is due: a second run moves nothing.
    expect(await archiver().run()).toMatchObject({ moved: 0 });
  });

  it('reads every archived row back exactly as it was: list, show, keys, request id, day report', async () => {
    const before = settledForGood.flatMap((kind) =>
      Array.from({ length: 4 }, () => debitOf(kind, 120)),
    );
    const open = debitOf('pending', 120);
    const keys = new Map(before.map((debit) => [debit.id, outbox.keyHistory(debit.id)]));
    const report = outbox.acceptedOn(localDateOf(before[0]!.createdAt));
    expect(report.length).toBeGreaterThan(0);

    await archiver({ batchSize: 3 }).run();
    expect(archivedIds()).toEqual(before.map((debit) => debit.id));

    expect(outbox.list()).toEqual([...before, outbox.get(open.id)].sort((a, b) => a.id - b.id));
    expect(outbox.list({ state: 'applied' })).toEqual(
      before.filter((debit) => debit.state === 'applied'),
    );
    expect(outbox.list({ afterId: before[5]!.id, limit: 3 })).toEqual(before.slice(6, 9));
    for (const debit of before) {
      expect(outbox.get(debit.id)).toEqual(debit);
      expect(outbox.keyHistory(debit.id)).toEqual(keys.get(debit.id));
      expect(outbox.findByRequestId(debit.requestId!)).toEqual(debit);
    }
    expect(outbox.acceptedOn(localDateOf(before[0]!.createdAt))).toEqual(report);
    // The open-debit views read no archive.
    expect(outbox.list({ state: 'pending' })).toEqual([outbox.get(open.id)]);
  });

  it('a request id stays one debit once archived: the retry gets it back, nothing new is stored', async () => {
    const debit = debitOf('applied', 200);
    await archiver().run();
    expect(liveIds()).toEqual([]);
    const again = outbox.enqueue({
      giftCardId: debit.giftCardId,
      amount: debit.amount,
      reference: 'till-applied',
      requestId: debit.requestId!,
    });
    expect(again).toMatchObject({ replayed: true, debit });
    expect(liveIds()).toEqual([]);
    // Even past the outbox's own look-up (another process's insert): the database keeps it one.
    const inserted = db.connection
      .prepare(
        `INSERT INTO outbox_debits (idempotency_key, gift_card_id, request_body, amount_cents,
           reference, policy, accepted_offline, state, created_at, updated_at, next_attempt_at,
           request_id)
         VALUES (?, 'gift_card_x', '{}', 100, 'r', 'prefer_online', 0, 'pending', 1, 1, 1, ?)
         ON CONFLICT (request_id) WHERE request_id IS NOT NULL DO NOTHING RETURNING id`,
      )
      .get(randomUUID(), debit.requestId);
    expect(inserted).toBeUndefined();
  });

  it("ages are the service's: the kiosk's clock ahead moves nothing, no service time moves nothing", async () => {
    // Accepted 400 days ago by the kiosk's clock, 10 days ago by the service's.
    debitOf('applied', 400, 10);
    expect(await archiver().run()).toMatchObject({ moved: 0 });
    expect(await archiver({ serviceNow: () => undefined, batchSize: 1 }).run()).toMatchObject({
      moved: 0,
      batches: 0,
      skipped: 'no-service-time',
    });
    // One reply whose clock jumped 81 days is not trusted alone.
    const jumped = () => ({ ...serviceAt(SERVICE_NOW + 81 * DAY)(), confirmed: false });
    expect(await archiver({ serviceNow: jumped }).run()).toMatchObject({ moved: 0 });
    expect(await archiver({ serviceNow: serviceAt(SERVICE_NOW + 81 * DAY) }).run()).toMatchObject({
      moved: 1,
    });
  });

  it('a settled row with no service time is dated now, and moves a retention later, never earlier', async () => {
    const debit = debitOf('applied', 400);
    db.connection
      .prepare('UPDATE outbox_debits SET created_service_at = NULL WHERE id = ?')
      .run(debit.id);
    expect(await archiver().run()).toMatchObject({ moved: 0, dated: 1 });
    const later = SERVICE_NOW + DEFAULT_SETTLED_RETENTION_MS;
    expect(await archiver({ serviceNow: serviceAt(later - DAY) }).run()).toMatchObject({
      moved: 0,
    });
    expect(await archiver({ serviceNow: serviceAt(later + 2_000) }).run()).toMatchObject({
      moved: 1,
    });
  });

  it('the retention is configurable with the other outbox limits', async () => {
    debitOf('applied', 3);
    expect(await archiver().run()).toMatchObject({ moved: 0 });
    outbox.setLimits({ settledRetentionMs: 2 * DAY });
    expect(await archiver().run()).toMatchObject({ moved: 1 });
  });

  it('runs in bounded batches with a turn between them: a debit accepted meanwhile goes through', async () => {
    for (let i = 0; i < 25; i++) debitOf('applied', 100);
    const order: string[] = [];
    const running = archiver({
      batchSize: 10,
      afterCopy: () => order.push('batch'),
    }).run();
    await nextTurn();
    outbox.enqueue({ giftCardId: 'gift_card_meanwhile', amount: 1 });
    order.push('debit');
    expect(await running).toMatchObject({ moved: 25, batches: 3 });
    // Between two batches, not after the whole run.
    expect(order.filter((step) => step === 'batch')).toHaveLength(3);
    expect(order.indexOf('debit')).toBeGreaterThan(0);
    expect(order.indexOf('debit')).toBeLessThan(order.length - 1);
  });

  it('a batch that fails is rolled back whole', () => {
    const rows = Array.from({ length: 5 }, () => debitOf('applied', 100));
    expect(() =>
      archiveBatch(
        db,
        { cutoff: SERVICE_NOW, serviceLatest: SERVICE_NOW, now: Date.now(), limit: 10 },
        () => {
          throw new Error('the disk filled up');
        },
      ),
    ).toThrow('the disk filled up');
    expect(archivedIds()).toEqual([]);
    expect(outbox.list()).toEqual(rows);
  });

  it('crash in the middle of a batch (SIGKILL between copy and delete): nothing lost, nothing twice', async () => {
    const rows = [
      ...Array.from({ length: 95 }, (_, i) => debitOf(settledForGood[i % 5]!, 100)),
      ...neverMoved.map((kind) => debitOf(kind, 100)),
    ];
    const before = outbox.list();
    expect(before).toEqual(rows);
    db.close();

    const child = spawn(
      process.execPath,
      [fileURLToPath(new URL('./archiving-kiosk.ts', import.meta.url)), data.dir, '20', '3'],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const [code, signal] = (await once(child, 'exit')) as [number | null, string | null];
    expect({ code, signal }).toEqual({ code: null, signal: 'SIGKILL' });

    db = data.open();
    outbox = new Outbox({ db });
    // Two batches committed, the third rolled back with the process.
    expect(archivedIds()).toHaveLength(40);
    expect(archivedIds().filter((id) => liveIds().includes(id))).toEqual([]);
    expect(outbox.list()).toEqual(before);
    // The next run carries on from there.
    expect(await archiver().run()).toMatchObject({ moved: 55 });
    expect(outbox.list()).toEqual(before);
  });
});

describe('migration 013', () => {
  it('adds the archive to a database at version 12, its rows untouched', () => {
    data.cleanup();
    data = tempDataDir('kiosk-archive-migration-');
    const previous = openDatabase({
      dataDir: data.dir,
      schema: { ...kioskSchema, migrations: kioskSchema.migrations.slice(0, 12) },
    });
    const older = new Outbox({ db: previous, connectivity: () => 'online' });
    const { debit } = older.enqueue({ giftCardId: 'gift_card_1', amount: 3 });
    previous.close();

    db = data.open();
    expect(db.migration).toMatchObject({ from: 12, to: kioskSchema.migrations.at(-1)!.version });
    outbox = new Outbox({ db });
    // What the row held at version 12, as it was (later migrations add columns of their own).
    const { id, idempotencyKey, giftCardId, amountCents, requestBody, state, createdAt } = debit;
    expect(outbox.list()).toEqual([
      expect.objectContaining({
        id,
        idempotencyKey,
        giftCardId,
        amountCents,
        requestBody,
        state,
        createdAt,
      }),
    ]);
    const objects = db.connection
      .prepare(
        `SELECT type, name FROM sqlite_master WHERE name LIKE 'outbox_debits_%' ORDER BY name`,
      )
      .all();
    expect(objects).toEqual(
      expect.arrayContaining([
        { type: 'table', name: 'outbox_debits_archive' },
        { type: 'index', name: 'outbox_debits_settled' },
        { type: 'trigger', name: 'outbox_debits_archived_request_id' },
      ]),
    );
  });
});

describe('kioskctl reads archived debits', { timeout: 60_000 }, () => {
  it('outbox list, show and report, as a technician runs them', async () => {
    const applied = debitOf('applied', 150);
    const cancelled = debitOf('cancelled', 150);
    await archiver().run();
    expect(archivedIds()).toEqual([applied.id, cancelled.id]);
    const list = await kioskctl(['outbox', 'list', '--data-dir', data.dir]);
    expect(list.code).toBe(0);
    expect(
      (JSON.parse(list.stdout) as { debits: { id: number; state: string }[] }).debits.map(
        ({ id, state }) => ({ id, state }),
      ),
    ).toEqual([
      { id: applied.id, state: 'applied' },
      { id: cancelled.id, state: 'cancelled' },
    ]);
    const show = await kioskctl(['outbox', 'show', String(applied.id), '--data-dir', data.dir]);
    expect(show.code).toBe(0);
    expect(JSON.parse(show.stdout)).toMatchObject({
      id: applied.id,
      idempotencyKey: applied.idempotencyKey,
      state: 'applied',
    });
    const report = await kioskctl([
      'outbox',
      'report',
      '--date',
      localDateOf(applied.createdAt),
      '--data-dir',
      data.dir,
    ]);
    expect(report.code).toBe(0);
    expect(
      (JSON.parse(report.stdout) as { debits: { id: number }[] }).debits.map(({ id }) => id),
    ).toEqual([applied.id, cancelled.id]);
  });
});
