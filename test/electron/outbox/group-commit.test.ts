import { describe, expect, it } from 'vitest';
import { demoGiftCards } from '../../../sandbox/data/demo.ts';
import type { DebitGateway } from '../../../electron/outbox/gateway.ts';
import { GroupCommit } from '../../../electron/outbox/group-commit.ts';
import { isSettled, type DebitState } from '../../../electron/outbox/index.ts';
import { Outbox } from '../../../electron/outbox/outbox.ts';
import { OutboxSender } from '../../../electron/outbox/sender.ts';
import type { KioskDatabase } from '../../../electron/storage/database.ts';
import { useSandboxBed } from './sandbox-support.ts';

/**
 * The sender's writes share commits (`group-commit.ts`): the `sending` marks of several cards,
 * their answers, and a card's next mark in the commit of its previous answer. What must hold
 * whatever shares a commit: a mark is committed before its request leaves, a card's debits go
 * one at a time in order with each answer committed before the next attempt, and a card with a
 * long queue does not keep another card's older debit waiting.
 */

const bed = useSandboxBed();

/** The real database, its top-level transactions counted (every commit goes through one). */
function countingDatabase(): { db: KioskDatabase; readonly commits: number } {
  const db = bed.data.open();
  let commits = 0;
  const counted: KioskDatabase = {
    ...db,
    transaction: (work, options) => {
      if (!db.connection.isTransaction) commits += 1;
      return db.transaction(work, options);
    },
  };
  return {
    db: counted,
    get commits() {
      return commits;
    },
  };
}

const noLimits = { maxPendingCount: 1_000, maxPendingAmount: 1e6, maxPendingAmountPerCard: 1e6 };

describe('GroupCommit', () => {
  it('commits the writes queued in one turn in one transaction, each caller answered once it is in', async () => {
    const counted = countingDatabase();
    const observer = bed.data.open();
    counted.db.connection.exec('CREATE TABLE marks (name TEXT NOT NULL) STRICT');
    const group = new GroupCommit(counted.db);
    const insert = (name: string) => () =>
      Number(
        counted.db.connection.prepare('INSERT INTO marks (name) VALUES (?)').run(name)
          .lastInsertRowid,
      );
    const seen = () =>
      (observer.connection.prepare('SELECT count(*) AS n FROM marks').get() as { n: number }).n;
    const before = counted.commits;
    const written = Promise.all([
      group.run(insert('a'), 'deferred'),
      group.run(insert('b'), 'full'),
      group.run(insert('c'), 'deferred'),
    ]);
    // Nothing is written before the turn ends: a caller never sends on a write still queued.
    expect(seen()).toBe(0);
    expect(await written).toEqual([1, 2, 3]);
    expect(counted.commits - before).toBe(1);
    // Seen from another connection: committed, not merely written.
    expect(seen()).toBe(3);
  });

  it('while a reply is due, waits a few turns of the event loop for the writes it may bring', async () => {
    const counted = countingDatabase();
    counted.db.connection.exec('CREATE TABLE marks (name TEXT NOT NULL) STRICT');
    let replyDue = true;
    const group = new GroupCommit(counted.db, { replyDue: () => replyDue, maxWaitTurns: 2 });
    const insert = (name: string) => () => {
      counted.db.connection.prepare('INSERT INTO marks (name) VALUES (?)').run(name);
      return name;
    };
    const before = counted.commits;
    const first = group.run(insert('a'), 'full');
    // The reply comes a turn later, and its answer is queued then.
    const second = new Promise<string>((resolve) =>
      setImmediate(() => {
        replyDue = false;
        resolve(group.run(insert('b'), 'deferred'));
      }),
    );
    expect(await Promise.all([first, second])).toEqual(['a', 'b']);
    expect(counted.commits - before).toBe(1);

    // No reply due: nothing waits.
    const alone = group.run(insert('c'), 'full');
    await new Promise((resolve) => setImmediate(resolve));
    expect(counted.commits - before).toBe(2);
    expect(await alone).toBe('c');
  });

  it('a write that throws fails alone: the others of its turn are committed', async () => {
    const { db } = countingDatabase();
    db.connection.exec('CREATE TABLE marks (name TEXT NOT NULL UNIQUE) STRICT');
    const group = new GroupCommit(db);
    const insert = (name: string) => () => {
      db.connection.prepare('INSERT INTO marks (name) VALUES (?)').run(name);
      return name;
    };
    const results = await Promise.allSettled([
      group.run(insert('a'), 'full'),
      group.run(insert('a'), 'full'),
      group.run(insert('b'), 'deferred'),
    ]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    const names = db.connection.prepare('SELECT name FROM marks ORDER BY name').all();
    expect(names).toEqual([{ name: 'a' }, { name: 'b' }]);
  });
});

describe('the store', () => {
  it('marks a row `sending` only when it is its card head: an earlier open row of the card blocks it', () => {
    const outbox = new Outbox({ db: bed.data.open(), limits: noLimits });
    const first = outbox.enqueue({ giftCardId: demoGiftCards.active, amount: 1 }).debit;
    const second = outbox.enqueue({ giftCardId: demoGiftCards.active, amount: 2 }).debit;
    const other = outbox.enqueue({ giftCardId: demoGiftCards.lowBalance, amount: 1 }).debit;
    expect(outbox.store.markSending(second.id, 0, Date.now())).toBeUndefined();
    expect(outbox.get(second.id).state).toBe('pending');
    // Another card's queue is its own.
    expect(outbox.store.markSending(other.id, 0, Date.now())?.debit.state).toBe('sending');
    const marked = outbox.store.markSending(first.id, 0, Date.now())!.debit;
    expect(marked.state).toBe('sending');
    expect(outbox.store.markSending(second.id, 0, Date.now())).toBeUndefined();
    outbox.store.settleAttempt(
      marked,
      { state: 'failed', error: { code: 'X', message: 'x' } },
      Date.now(),
    );
    expect(outbox.store.markSending(second.id, 0, Date.now())?.debit.state).toBe('sending');
  });
});

describe('the sender over the sandbox', () => {
  /**
   * The real gateway, which looks at the database from a connection of its own as each request
   * leaves: what it sees there is committed.
   */
  function watchedGateway(): { gateway: DebitGateway; violations: string[]; sent: string[] } {
    const real = bed.sb.gateway(bed.sb.client());
    const observer = bed.data.open();
    const violations: string[] = [];
    const sent: string[] = [];
    const gateway: DebitGateway = {
      ...real,
      debit: (giftCardId, idempotencyKey, requestBody) => {
        const rows = observer.connection
          .prepare(
            'SELECT id, state, idempotency_key FROM outbox_debits WHERE gift_card_id = ? ORDER BY id',
          )
          .all(giftCardId) as { id: number; state: DebitState; idempotency_key: string }[];
        const index = rows.findIndex((row) => row.idempotency_key === idempotencyKey);
        const row = rows[index];
        if (row?.state !== 'sending') violations.push(`${idempotencyKey} sent while ${row?.state}`);
        for (const earlier of rows.slice(0, Math.max(0, index))) {
          if (!isSettled(earlier.state)) {
            violations.push(`${row?.id} sent while ${earlier.id} is ${earlier.state}`);
          }
        }
        sent.push(idempotencyKey);
        return real.debit(giftCardId, idempotencyKey, requestBody);
      },
    };
    return { gateway, violations, sent };
  }

  it('each request leaves after its committed `sending`, its card earlier debits committed settled; one commit a debit', async () => {
    const counted = countingDatabase();
    const outbox = new Outbox({ db: counted.db, connectivity: () => 'online', limits: noLimits });
    const cards = [demoGiftCards.active, demoGiftCards.lowBalance];
    const debits = Array.from(
      { length: 30 },
      (_, i) => outbox.enqueue({ giftCardId: cards[i % 2]!, amount: 0.05 }).debit,
    );
    const { gateway, violations, sent } = watchedGateway();
    const sender = new OutboxSender({ outbox, gateway, concurrency: 2, idlePollMs: 20 });
    bed.stopLater(sender);
    const before = counted.commits;
    const report = await sender.drain({ untilEmpty: true, timeoutMs: 30_000 });

    expect(report).toMatchObject({ result: 'empty', applied: 30 });
    expect(violations).toEqual([]);
    expect(sent).toHaveLength(30);
    // Each card's debits reached the service in the order they were accepted, once each.
    const ledger = bed.sb.control.ledger();
    for (const card of cards) {
      expect(
        ledger.filter((entry) => entry.giftCardId === card).map((entry) => entry.idempotencyKey),
      ).toEqual(
        debits.filter((debit) => debit.giftCardId === card).map((debit) => debit.idempotencyKey),
      );
    }
    // A mark and an answer in commits of their own would be 60 or more: a card's next mark
    // shares its previous answer's commit, and the two cards' writes share theirs.
    expect(counted.commits - before).toBeLessThan(45);
  });

  it('a card with a long queue does not keep an older debit of another card waiting', async () => {
    const outbox = new Outbox({
      db: bed.data.open(),
      connectivity: () => 'online',
      limits: noLimits,
    });
    const a = demoGiftCards.active;
    const b = demoGiftCards.lowBalance;
    const order = [a, b, a, a, b, a].map(
      (giftCardId) => outbox.enqueue({ giftCardId, amount: 0.05 }).debit,
    );
    const { gateway, violations } = watchedGateway();
    // One slot: whenever a card's answer comes, the other card's older head is due too.
    const sender = new OutboxSender({ outbox, gateway, concurrency: 1, idlePollMs: 20 });
    bed.stopLater(sender);
    const report = await sender.drain({ untilEmpty: true, timeoutMs: 30_000 });

    expect(report).toMatchObject({ result: 'empty', applied: 6 });
    expect(violations).toEqual([]);
    expect(bed.sb.control.ledger().map((entry) => entry.idempotencyKey)).toEqual(
      order.map((debit) => debit.idempotencyKey),
    );
  });
});
