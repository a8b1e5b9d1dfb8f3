import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { DatabaseSync } from 'node:sqlite';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { createApiClient, type CommerceApiClient } from '../../electron/api/client.ts';
import { createApiGateway, outboxClientRetry } from '../../electron/outbox/api-gateway.ts';
import { Outbox } from '../../electron/outbox/outbox.ts';
import { OutboxSender } from '../../electron/outbox/sender.ts';
import { openDatabase } from '../../electron/storage/database.ts';
import { kioskSchema } from '../../electron/schema.ts';
import { demoGiftCards } from '../../sandbox/data/demo.ts';
import { seedData } from '../../sandbox/data/seed.ts';
import { startSandbox, type RunningSandbox } from '../../sandbox/index.ts';
import type { Benchmark, Measurement } from './benchmark.ts';

/**
 * Outbox benchmarks, each against a baseline measured in the same run:
 * - durable enqueue latency (p50, p99): `Outbox.enqueue` on the product's database (WAL,
 *   synchronous=FULL: an fsync of the log per commit) against a bare single-row insert committed
 *   the same way (WAL, synchronous=FULL, one fsync'd commit) on a table of its own. The fsync is
 *   the price of "accepted only once it survives a power cut" and both sides pay it: the ratio is
 *   what the outbox adds around it (limits, request id, events). The two sides take turns call
 *   by call; the log's checkpoint runs between turns, not in a commit
 *   (`electron/storage/idle-checkpoint.ts`).
 * - drain throughput: debits per second the sender applies against the sandbox over HTTP, against
 *   the same debits on the same cards sent by bare client calls with the same parallelism (one
 *   lane per card, as the sender keeps each card serial; no database, no lease, no state
 *   machine). The ratio is the share of the wire the outbox keeps. Rounds alternate the two
 *   sides, so a burst of load on a shared machine hits both alike.
 * - start-up recovery with 10,000 pending rows: from opening the database to the first attempt
 *   marked `sending` (migrations checked, lease taken, interrupted rows recovered, expiry sweep,
 *   queue heads found), against the same start-up on an empty outbox.
 */

const ENQUEUES = 400;
/** Rounds on fresh databases: a p99 is the 16th slowest of 1,600 samples a side. */
const ENQUEUE_ROUNDS = 4;
/** Calls before timing: the enqueue path's code optimised, as in a kiosk past its first debits. */
const WARM_UP = 100;
const DRAIN = 300;
const DRAIN_ROUNDS = 3;
/**
 * Cards drained at once: one card's debits go one at a time, so the cards are the parallelism;
 * a kiosk back online after an outage has debits on many cards.
 */
const PARALLEL = 8;
const PENDING = 10_000;

function tempDir(): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'outbox-bench-'));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

function percentile(samples: readonly number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** `Outbox.enqueue` on a fresh product database (WAL, synchronous=FULL). */
function productEnqueue(): { call(i: number): void; close(): void } {
  const { dir, remove } = tempDir();
  const db = openDatabase({ dataDir: dir, schema: kioskSchema });
  // Limits out of the way: this measures the commit, not a refusal.
  const outbox = new Outbox({
    db,
    connectivity: () => 'online',
    limits: { maxPendingCount: 1_000_000, maxPendingAmount: 1e9, maxPendingAmountPerCard: 1e9 },
  });
  return {
    call: (i) => outbox.enqueue({ giftCardId: `gift_card_bench_${i % 20}`, amount: 1.5 }),
    close: () => {
      db.close();
      remove();
    },
  };
}

/** A bare fsync'd single-row insert: WAL, synchronous=FULL, one commit each, SQLite's defaults. */
function bareInsert(): { call(i: number): void; close(): void } {
  const { dir, remove } = tempDir();
  const db = new DatabaseSync(join(dir, 'bare.sqlite'));
  db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL');
  db.exec(
    'CREATE TABLE debits (id INTEGER PRIMARY KEY, card TEXT NOT NULL, body TEXT NOT NULL) STRICT',
  );
  const insert = db.prepare('INSERT INTO debits (card, body) VALUES (?, ?)');
  const body = JSON.stringify({ amount: 1.5, currency: 'EUR', reference: 'kiosk/bench' });
  return {
    call: (i) => insert.run(`gift_card_bench_${i % 20}`, body),
    close: () => {
      db.close();
      remove();
    },
  };
}

let enqueueFigures: Promise<{ full: number[]; bare: number[] }> | undefined;
/**
 * Latencies (ms) of both sides, call by call in turn on fresh databases, so a burst of load or of
 * disk write-back on a shared machine hits both alike. Each call has its own turn of the event
 * loop, as each debit is its own IPC message in the kiosk.
 */
function enqueueRuns() {
  enqueueFigures ??= Promise.resolve().then(async () => {
    const full: number[] = [];
    const bare: number[] = [];
    for (let round = 0; round < ENQUEUE_ROUNDS; round++) {
      const sides = [
        { side: productEnqueue(), samples: full },
        { side: bareInsert(), samples: bare },
      ];
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
    return { full, bare };
  });
  return enqueueFigures;
}

async function withSandbox<T>(
  run: (sandbox: RunningSandbox, client: () => CommerceApiClient) => Promise<T>,
): Promise<T> {
  const sandbox = await startSandbox({ port: 0, products: SANDBOX_PRODUCTS, control: true });
  const clients: CommerceApiClient[] = [];
  const account = sandbox.accounts.find((entry) => entry.email === 'kiosk-all@sandbox.test')!;
  const client = () => {
    const made = createApiClient({
      baseUrl: sandbox.baseUrl,
      credentials: async () => ({ email: account.email, password: account.password }),
      retry: outboxClientRetry,
    });
    clients.push(made);
    return made;
  };
  try {
    return await run(sandbox, client);
  } finally {
    for (const made of clients) made.close();
    await sandbox.close();
  }
}

const SANDBOX_PRODUCTS = 10;

/**
 * One cent each on `PARALLEL` active cards of the sandbox's seed with a balance: the two demo
 * cards, then the seed's other cards (read from the same seed the sandbox starts from), so every
 * debit is applied.
 */
function drainCards(): string[] {
  const now = new Date();
  const today = now.toISOString().slice(0, 10);
  const needed = Math.ceil(DRAIN / PARALLEL) * 0.01 + 1;
  const seeded = [...seedData({ seed: 1, now, products: SANDBOX_PRODUCTS }).giftCards.values()]
    .filter(
      (card) =>
        card.status === 'active' &&
        (card.expiresOn === null || card.expiresOn >= today) &&
        card.balance >= needed,
    )
    .map((card) => card.id);
  const demo: string[] = [demoGiftCards.active, demoGiftCards.lowBalance];
  const cards = [...demo, ...seeded.filter((id) => !demo.includes(id))].slice(0, PARALLEL);
  if (cards.length < PARALLEL) throw new Error(`the seed has ${cards.length} usable gift cards`);
  return cards;
}

const noLimits = {
  maxPendingCount: 1_000_000,
  maxPendingAmount: 1e9,
  maxPendingAmountPerCard: 1e9,
};

async function drainThroughput(): Promise<Measurement> {
  const cards = drainCards();
  return withSandbox(async (sandbox, client) => {
    const bare = client();
    await bare.authenticate();
    const gatewayClient = client();
    await gatewayClient.authenticate();
    let bareSeconds = 0;
    let outboxSeconds = 0;
    for (let round = 0; round < DRAIN_ROUNDS; round++) {
      sandbox.control!.reset();
      bareSeconds += await bareDrainSeconds(bare, cards);
      sandbox.control!.reset();
      outboxSeconds += await outboxDrainSeconds(gatewayClient, cards);
    }
    const debits = DRAIN * DRAIN_ROUNDS;
    return { value: debits / outboxSeconds, baseline: debits / bareSeconds };
  });
}

/** The baseline: the same debits as bare client calls, one lane per card like the sender. */
async function bareDrainSeconds(bare: CommerceApiClient, cards: readonly string[]) {
  const started = performance.now();
  await Promise.all(
    cards.map(async (giftCardId, lane) => {
      for (let i = lane; i < DRAIN; i += cards.length) {
        await bare.debitGiftCard({
          params: { giftCardId },
          headers: { 'Idempotency-Key': crypto.randomUUID() },
          body: { amount: 0.01, currency: 'EUR', reference: `bench/${i}` },
        });
      }
    }),
  );
  return (performance.now() - started) / 1000;
}

async function outboxDrainSeconds(gatewayClient: CommerceApiClient, cards: readonly string[]) {
  const { dir, remove } = tempDir();
  const db = openDatabase({ dataDir: dir, schema: kioskSchema });
  try {
    const outbox = new Outbox({ db, connectivity: () => 'online', limits: noLimits });
    for (let i = 0; i < DRAIN; i++)
      outbox.enqueue({ giftCardId: cards[i % cards.length]!, amount: 0.01 });
    const sender = new OutboxSender({
      outbox,
      gateway: createApiGateway(gatewayClient),
      concurrency: PARALLEL,
      idlePollMs: 5,
    });
    const started = performance.now();
    const report = await sender.drain({ untilEmpty: true, timeoutMs: 120_000 });
    const seconds = (performance.now() - started) / 1000;
    if (report.result !== 'empty' || report.applied !== DRAIN) {
      throw new Error(`drain ended ${report.result} with ${report.applied} of ${DRAIN} applied`);
    }
    return seconds;
  } finally {
    db.close();
    remove();
  }
}

async function recoveryTime(): Promise<Measurement> {
  return withSandbox(async (_sandbox, client) => {
    const measure = async (pending: number): Promise<number> => {
      const { dir, remove } = tempDir();
      try {
        const seed = openDatabase({ dataDir: dir, schema: kioskSchema });
        const store = new Outbox({ db: seed }).store;
        seed.transaction(() => {
          // Straight inserts: 10,000 enqueues would re-check the limits 10,000 times.
          for (let i = 0; i < pending; i++) {
            const key = crypto.randomUUID();
            store.insert({
              idempotencyKey: key,
              giftCardId: i === 0 ? demoGiftCards.active : `gift_card_bench_${i % 500}`,
              requestBody: JSON.stringify({
                amount: 1,
                currency: 'EUR',
                reference: `kiosk/${key.slice(0, 8)}`,
              }),
              amountCents: 100,
              reference: `kiosk/${key.slice(0, 8)}`,
              policy: 'prefer_online',
              acceptedOffline: true,
              createdAt: Date.now(),
            });
          }
          // As a crash leaves them: a few rows caught mid-attempt.
          seed.connection.exec(
            `UPDATE outbox_debits SET state = 'sending', attempts = 1 WHERE id % 1000 = 1`,
          );
        });
        seed.close();

        const gateway = createApiGateway(client());
        const started = performance.now();
        const db = openDatabase({ dataDir: dir, schema: kioskSchema });
        const restarted = new Outbox({ db, limits: noLimits });
        restarted.summary();
        const firstAttempt = new Promise<void>((resolve) =>
          restarted.events.on('change', (event) => {
            if (event.type === 'state-changed' && event.to === 'sending') resolve();
          }),
        );
        const sender = new OutboxSender({ outbox: restarted, gateway });
        sender.start();
        if (pending > 0) await firstAttempt;
        const elapsed = performance.now() - started;
        await sender.stop();
        db.close();
        return elapsed;
      } finally {
        remove();
      }
    };
    // The empty start-up has no row to send: it is timed to the end of the first pass.
    const baseline = await measure(0);
    const value = await measure(PENDING);
    return { value, baseline };
  });
}

const benchmarks: Benchmark[] = [
  {
    name: "outbox: durable enqueue p50 (vs a bare fsync'd single-row insert)",
    unit: 'ms',
    run: async () => {
      const { full, bare } = await enqueueRuns();
      return { value: percentile(full, 50), baseline: percentile(bare, 50) };
    },
  },
  {
    name: "outbox: durable enqueue p99 (vs a bare fsync'd single-row insert)",
    unit: 'ms',
    run: async () => {
      const { full, bare } = await enqueueRuns();
      return { value: percentile(full, 99), baseline: percentile(bare, 99) };
    },
  },
  {
    name: `outbox: drain throughput, ${PARALLEL} cards in parallel (vs bare client calls)`,
    unit: 'debits/s',
    run: drainThroughput,
  },
  {
    name: `outbox: start-up recovery, ${PENDING} pending (vs empty outbox)`,
    unit: 'ms',
    run: recoveryTime,
  },
];

export default benchmarks;
