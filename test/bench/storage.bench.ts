import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { OutboxArchiver } from '../../electron/outbox/archiver.ts';
import type { OutboxDebit } from '../../electron/outbox/debit.ts';
import { Outbox } from '../../electron/outbox/outbox.ts';
import { kioskSchema } from '../../electron/schema.ts';
import { type KioskDatabase, openDatabase } from '../../electron/storage/index.ts';
import type { Benchmark, Measurement } from './benchmark.ts';
import { seedSettledDebits } from './settled-debits.ts';

/**
 * Storage benchmarks (issue 35, part 5), each against a baseline measured in the same run:
 * - durable enqueue latency (p50, p99) with the lost-log marker (`electron/storage/commit-count.ts`:
 *   the count bumped in the transaction, the marker written and flushed after the commit) against
 *   the same `Outbox.enqueue` on the same kind of database without it (`commitMarker: false`).
 *   The ratio is what detecting a lost write-ahead log costs an accepted debit. The two sides
 *   take turns call by call, each call its own turn of the event loop.
 * - the open-debit list (what the screens' "open" view and the sender's status read: pending and
 *   sending rows) with 1,000,000 settled debits past their retention, moved to the archive by
 *   the archiver as a kiosk runs it, against the same list with 300 settled debits. Both
 *   databases hold the same 50 open and 300 recent settled rows; calls alternate between them.
 *   Without the archive this list read every row: 0.56 ms at 300 rows, 6.6 ms at 30,000.
 * - how fast the archiver moves that million (rows a second, batches of its default size, a turn
 *   of the event loop between two): what a kiosk upgraded with years of debits spends once.
 */

const ENQUEUES = 400;
const ENQUEUE_ROUNDS = 4;
const WARM_UP = 100;
const SETTLED = 1_000_000;
const RECENT_SETTLED = 300;
const OPEN = 50;
const LIST_CALLS = 2_000;
const DAY = 24 * 60 * 60 * 1000;
/** The service's clock in the list benchmark: every seeded settled row is past its retention. */
const SERVICE_NOW = Date.UTC(2026, 10, 27, 12);

const noLimits = {
  maxPendingCount: 1_000_000,
  maxPendingAmount: 1e9,
  maxPendingAmountPerCard: 1e9,
};

function tempDir(): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'storage-bench-'));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

function percentile(samples: readonly number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

function enqueueSide(commitMarker: boolean): { call(i: number): void; close(): void } {
  const { dir, remove } = tempDir();
  const db = openDatabase({ dataDir: dir, schema: kioskSchema, commitMarker });
  const outbox = new Outbox({ db, connectivity: () => 'online', limits: noLimits });
  return {
    call: (i) => outbox.enqueue({ giftCardId: `gift_card_bench_${i % 20}`, amount: 1.5 }),
    close: () => {
      db.close();
      remove();
    },
  };
}

let enqueueFigures: Promise<{ marked: number[]; unmarked: number[] }> | undefined;
function enqueueRuns() {
  enqueueFigures ??= Promise.resolve().then(async () => {
    const marked: number[] = [];
    const unmarked: number[] = [];
    for (let round = 0; round < ENQUEUE_ROUNDS; round++) {
      const sides = [
        { side: enqueueSide(true), samples: marked },
        { side: enqueueSide(false), samples: unmarked },
      ];
      // Which side goes first alternates by round: neither always follows the other's flush.
      if (round % 2 === 1) sides.reverse();
      try {
        for (let i = -WARM_UP; i < ENQUEUES; i++) {
          for (const { side, samples } of sides) {
            const started = performance.now();
            side.call(i + WARM_UP);
            if (i >= 0) samples.push(performance.now() - started);
            await nextTurn();
          }
        }
      } finally {
        for (const { side } of sides) side.close();
      }
    }
    return { marked, unmarked };
  });
  return enqueueFigures;
}

/** The same open rows (pending on 20 cards, a few sending) and recent settled rows in both. */
function seedCommon(db: KioskDatabase, outbox: Outbox): void {
  for (let i = 0; i < OPEN + RECENT_SETTLED; i++) {
    outbox.enqueue({ giftCardId: `gift_card_bench_${i % 20}`, amount: 1 });
  }
  db.connection.exec(`
    UPDATE outbox_debits SET state = 'applied', attempts = 1, settled_at = created_at,
      settled_by = 'service', created_service_at = ${SERVICE_NOW - DAY},
      reply = '{"kind":"receipt","receipt":{"id":"r","balance":10,"amount":1}}', new_balance = 10
    WHERE id > ${OPEN};
    UPDATE outbox_debits SET state = 'sending', attempts = 1 WHERE id <= ${OPEN} AND id % 10 = 0;
  `);
}

/** The screens' open view (`debitsOf(outbox, 'open')`): pending and sending rows, by id. */
function openDebits(outbox: Outbox): OutboxDebit[] {
  return [...outbox.list({ state: 'pending' }), ...outbox.list({ state: 'sending' })].sort(
    (a, b) => a.id - b.id,
  );
}

let listFigures: Promise<{ archived: number[]; small: number[]; archiveRate: number }> | undefined;
function listRuns() {
  listFigures ??= Promise.resolve().then(async () => {
    const smallDir = tempDir();
    const bigDir = tempDir();
    const small = openDatabase({ dataDir: smallDir.dir, schema: kioskSchema });
    const big = openDatabase({ dataDir: bigDir.dir, schema: kioskSchema });
    try {
      const smallOutbox = new Outbox({ db: small, connectivity: () => 'online', limits: noLimits });
      const bigOutbox = new Outbox({ db: big, connectivity: () => 'online', limits: noLimits });
      seedCommon(small, smallOutbox);
      seedCommon(big, bigOutbox);
      seedSettledDebits(big, SETTLED, { from: SERVICE_NOW - 365 * DAY, cards: 500 });
      const archiver = new OutboxArchiver({
        outbox: bigOutbox,
        serviceNow: () => ({
          earliest: SERVICE_NOW,
          latest: SERVICE_NOW + 1_000,
          syncAgeMs: 0,
          confirmed: true,
        }),
      });
      const started = performance.now();
      const run = await archiver.run();
      const archiveRate = run.moved / ((performance.now() - started) / 1000);
      if (run.moved !== SETTLED) throw new Error(`the archiver moved ${run.moved} of ${SETTLED}`);
      const expected = openDebits(smallOutbox).length;
      const archived: number[] = [];
      const smallTimes: number[] = [];
      for (let i = -100; i < LIST_CALLS; i++) {
        for (const [outbox, samples] of [
          [bigOutbox, archived],
          [smallOutbox, smallTimes],
        ] as const) {
          const at = performance.now();
          const rows = openDebits(outbox);
          const elapsed = performance.now() - at;
          if (rows.length !== expected)
            throw new Error(`${rows.length} open rows, not ${expected}`);
          if (i >= 0) samples.push(elapsed);
        }
      }
      return { archived, small: smallTimes, archiveRate };
    } finally {
      small.close();
      big.close();
      smallDir.remove();
      bigDir.remove();
    }
  });
  return listFigures;
}

const benchmarks: Benchmark[] = [
  {
    name: 'storage: durable enqueue p50 with the lost-log marker (vs the same without it)',
    unit: 'ms',
    run: async (): Promise<Measurement> => {
      const { marked, unmarked } = await enqueueRuns();
      return { value: percentile(marked, 50), baseline: percentile(unmarked, 50) };
    },
  },
  {
    name: 'storage: durable enqueue p99 with the lost-log marker (vs the same without it)',
    unit: 'ms',
    run: async (): Promise<Measurement> => {
      const { marked, unmarked } = await enqueueRuns();
      return { value: percentile(marked, 99), baseline: percentile(unmarked, 99) };
    },
  },
  {
    name: 'outbox: open-debit list p50, 1,000,000 settled debits archived (vs 300 settled)',
    unit: 'ms',
    run: async (): Promise<Measurement> => {
      const { archived, small } = await listRuns();
      return { value: percentile(archived, 50), baseline: percentile(small, 50) };
    },
  },
  {
    name: 'outbox: archiving 1,000,000 settled debits',
    unit: 'rows/s',
    run: async (): Promise<Measurement> => ({ value: (await listRuns()).archiveRate }),
  },
];

export default benchmarks;
