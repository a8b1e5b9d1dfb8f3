import { tracingChannel } from 'node:diagnostics_channel';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { demoGiftCardBalances, demoGiftCards } from '../../../sandbox/data/demo.ts';
import type { ExchangeEvent } from '../../../electron/api/invoke.ts';
import type { OutboxEvent } from '../../../electron/outbox/events.ts';
import { startOutboxService } from '../../../electron/outbox/index.ts';
import type { OfflineLimits } from '../../../electron/outbox/limits.ts';
import { Outbox } from '../../../electron/outbox/outbox.ts';
import { OutboxSender, type SenderOptions } from '../../../electron/outbox/sender.ts';
import type { DebitState, OutboxDebit } from '../../../electron/outbox/index.ts';
import { seededRandom } from '../../support/random.ts';
import { recordUsageVerdict, ShiftedClock, tempDataDir } from './support.ts';
import { ALL_SCOPES_ACCOUNT, startTestSandbox, type TestSandbox } from './sandbox-support.ts';
import { scopes } from '../../../shared/api/scopes.ts';

/**
 * The sender against the real sandbox over HTTP: every reply class, crash recovery,
 * reconciliation past the key-retention window, expiry and the lease. Faults come from the
 * sandbox's control surface; the ledger is the service's own record of applied debits.
 */

const DAY = 24 * 60 * 60 * 1000;
let sb: TestSandbox;
let data: ReturnType<typeof tempDataDir>;
let clock: WatchedClock;
const senders: OutboxSender[] = [];

beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(async () => {
  await sb.close();
});
beforeEach(() => {
  sb.control.reset();
  data = tempDataDir();
  clock = new WatchedClock();
});
afterEach(async () => {
  await Promise.all(senders.splice(0).map((sender) => sender.stop()));
  data.cleanup();
});

/**
 * The kiosk's clock, which also tells when the sender's loop next goes to sleep: the loop sleeps
 * right after each pass over the due rows, so that moment proves a pass has run.
 */
class WatchedClock extends ShiftedClock {
  readonly #sleepWatchers: (() => void)[] = [];

  override sleep(ms: number, signal?: AbortSignal): Promise<void> {
    for (const notify of this.#sleepWatchers.splice(0)) notify();
    return super.sleep(ms, signal);
  }

  nextSleep(): Promise<void> {
    return new Promise((resolve) => this.#sleepWatchers.push(resolve));
  }
}

/**
 * The debit requests the sandbox (in this process) is still handling, seen through Fastify's
 * diagnostics channel. A request the client gave up on is handled on until its handler ends: a
 * latency fault holds it there. Fastify never reports a hijacked reply (an injected reset) as
 * finished, so this is for tests without reset faults.
 */
function debitHandlers(): { readonly inFlight: number; readonly finished: number; close(): void } {
  interface Store {
    readonly route?: { readonly method: string; readonly url: string };
    readonly async?: boolean;
  }
  const channel = tracingChannel<string, Store>('fastify.request.handler');
  const isDebit = (store: Store) =>
    store.route?.method === 'PUT' && store.route.url.startsWith('/v1/gift-cards/');
  let started = 0;
  let finished = 0;
  const handlers = {
    start: (store: Store) => {
      if (isDebit(store)) started += 1;
    },
    // A synchronous handler ends at `end`, an async one (every sandbox route) at `asyncEnd`.
    end: (store: Store) => {
      if (isDebit(store) && !store.async) finished += 1;
    },
    asyncStart: () => {},
    asyncEnd: (store: Store) => {
      if (isDebit(store)) finished += 1;
    },
    error: () => {},
  };
  channel.subscribe(handlers);
  return {
    get inFlight() {
      return started - finished;
    },
    get finished() {
      return finished;
    },
    close: () => channel.unsubscribe(handlers),
  };
}

interface Rig {
  outbox: Outbox;
  sender: OutboxSender;
  events: OutboxEvent[];
}

function rig(
  options: {
    email?: string;
    responseMs?: number;
    onExchange?: (event: ExchangeEvent) => void;
    limits?: Partial<OfflineLimits>;
    sender?: Partial<Omit<SenderOptions, 'outbox' | 'gateway'>>;
    /** The contract check verified the card's usages for the profile (default: never checked). */
    usagesVerified?: boolean;
  } = {},
): Rig {
  const outbox = new Outbox({
    db: data.open(),
    clock,
    limits: options.limits ?? {},
    connectivity: () => 'online',
  });
  if (options.usagesVerified) recordUsageVerdict(outbox);
  const events: OutboxEvent[] = [];
  outbox.events.on('change', (event) => events.push(event));
  const client = sb.client({
    clock,
    ...(options.email ? { email: options.email } : {}),
    ...(options.responseMs ? { responseMs: options.responseMs } : {}),
    ...(options.onExchange ? { onExchange: options.onExchange } : {}),
  });
  const sender = new OutboxSender({
    outbox,
    gateway: sb.gateway(client),
    // The jitter does not matter here, only that it is injected.
    random: seededRandom(7),
    leaseTtlMs: 3_000,
    idlePollMs: 50,
    retry: {
      backoff: { baseMs: 5, capMs: 40 },
      retryAfter: { capMs: 200, jitterMs: 10 },
      budget: { capacity: 100, refillPerSecond: 100 },
    },
    ...options.sender,
  });
  senders.push(sender);
  return { outbox, sender, events };
}

function transitions(events: readonly OutboxEvent[], id: number): string[] {
  return events.flatMap((event) =>
    event.type === 'state-changed' && event.debit.id === id ? [`${event.from}->${event.to}`] : [],
  );
}

async function settle(r: Rig, debit: OutboxDebit, timeoutMs = 10_000): Promise<OutboxDebit> {
  r.sender.start();
  const outcome = await r.outbox.waitForOutcome(debit.id, timeoutMs);
  expect(
    outcome.settled,
    `debit ${debit.id} still ${outcome.debit.state}: ${outcome.debit.lastErrorCode}`,
  ).toBe(true);
  return outcome.debit;
}

function ledgerKeys(): string[] {
  return sb.control.ledger().map((entry) => entry.idempotencyKey);
}

describe('reply classes', () => {
  it('2xx: applied, with the receipt and the new balance; the ledger has it once, with our key and reference', async () => {
    const r = rig();
    const { debit } = r.outbox.enqueue({
      giftCardId: demoGiftCards.active,
      amount: 10.5,
      reference: 'sale-1',
    });
    const done = await settle(r, debit);
    expect(done).toMatchObject({
      state: 'applied',
      attempts: 1,
      settledBy: 'service',
      newBalance: demoGiftCardBalances.active - 10.5,
    });
    // The receipt as read through the default profile: its balance, and every other value the
    // service returned kept beside it.
    expect(done.reply).toMatchObject({
      kind: 'receipt',
      receipt: { balance: demoGiftCardBalances.active - 10.5 },
    });
    expect(done.reply?.kind === 'receipt' && done.reply.receipt.otherFields).toEqual(
      expect.arrayContaining([
        { name: 'amount', value: 10.5 },
        { name: 'reference', value: debit.reference },
      ]),
    );
    const ledger = sb.control.ledger();
    expect(ledger).toHaveLength(1);
    expect(ledger[0]).toMatchObject({
      idempotencyKey: debit.idempotencyKey,
      reference: debit.reference,
      amount: 10.5,
    });
    expect(transitions(r.events, debit.id)).toEqual(['pending->sending', 'sending->applied']);
    expect(r.events[0]).toMatchObject({ type: 'accepted' });
  });

  it.each([
    ['lowBalance', 10, 'INSUFFICIENT_BALANCE'],
    ['inactive', 1, 'GIFT_CARD_INACTIVE'],
    ['expired', 1, 'GIFT_CARD_EXPIRED'],
  ] as const)(
    '409 on the %s card: refused, terminal, the service code kept, nothing applied',
    async (card, amount, code) => {
      const r = rig();
      const { debit } = r.outbox.enqueue({ giftCardId: demoGiftCards[card], amount });
      const done = await settle(r, debit);
      expect(done).toMatchObject({
        state: 'refused',
        attempts: 1,
        lastErrorCode: code,
        settledBy: 'service',
      });
      expect(done.lastErrorMessage).toMatch(new RegExp(`^${code}: `));
      expect(ledgerKeys()).toEqual([]);
      expect(r.outbox.summary().attention.refused).toBe(1);
    },
  );

  it('404 unknown card: failed, terminal, never retried', async () => {
    const r = rig();
    const unknown = r.outbox.enqueue({
      giftCardId: 'gift_card_00000000-0000-4000-8000-000000000000',
      amount: 1,
    }).debit;
    expect(await settle(r, unknown)).toMatchObject({
      state: 'failed',
      attempts: 1,
      lastErrorCode: 'RESOURCE_NOT_FOUND',
    });
    expect(ledgerKeys()).toEqual([]);
  });

  it.each([
    [
      '400, the request refused for its shape',
      'invalid-request',
      'request-refused',
      'DEBIT_REQUEST_REFUSED',
    ],
    ['403, the account without gift-cards:write', 'scope', 'scope-missing', 'DEBIT_SCOPE_MISSING'],
  ] as const)(
    '%s: held pending for an administrator, never failed; once fixed and resumed, applied exactly once',
    async (_, cause, reason, code) => {
      const r = rig();
      if (cause === 'invalid-request') {
        sb.control.addFault({ kind: 'invalid-request', route: 'debitGiftCard', count: 1 });
      } else {
        sb.control.setScopes(
          ALL_SCOPES_ACCOUNT,
          scopes.filter((scope) => scope !== 'gift-cards:write'),
        );
      }
      const { debit } = r.outbox.enqueue({ giftCardId: demoGiftCards.active, amount: 6 });
      const paused = new Promise<OutboxEvent>((resolve) =>
        r.outbox.events.on('change', (event) => {
          if (event.type === 'sender-paused') resolve(event);
        }),
      );
      r.sender.start();
      const event = await paused;
      expect(event).toMatchObject({
        type: 'sender-paused',
        reason,
        needsAdministrator: true,
        code,
      });
      expect(event.type === 'sender-paused' && event.message).toMatch(/administrator must/);
      await vi.waitFor(() => expect(r.sender.status.inFlight).toBe(0));
      expect(r.outbox.get(debit.id)).toMatchObject({
        state: 'pending',
        attempts: 1,
        lastErrorCode: code,
      });
      expect(r.sender.status.paused).toMatchObject({ code });
      expect(ledgerKeys()).toEqual([]);

      // Nothing is sent while paused.
      const pass = clock.nextSleep();
      r.sender.wake();
      await pass;
      expect(r.outbox.get(debit.id).attempts).toBe(1);

      if (cause === 'scope') sb.control.setScopes(ALL_SCOPES_ACCOUNT, scopes);
      r.sender.resume();
      expect(await settle(r, debit)).toMatchObject({ state: 'applied', attempts: 2 });
      expect(ledgerKeys()).toEqual([debit.idempotencyKey]);
    },
  );

  it.each([
    ['internal-error', 'INTERNAL_SERVER_ERROR'],
    ['unavailable', 'SERVICE_UNAVAILABLE'],
    ['reset', 'NETWORK_ERROR'],
    ['commit-then-reset', 'NETWORK_ERROR'],
  ] as const)(
    '%s twice, then success: retried with the same key, applied exactly once',
    async (kind, code) => {
      sb.control.addFault({ kind, route: 'debitGiftCard', count: 2 });
      const r = rig();
      const { debit } = r.outbox.enqueue({ giftCardId: demoGiftCards.active, amount: 7 });
      const done = await settle(r, debit);
      expect(done).toMatchObject({ state: 'applied', attempts: 3 });
      expect(ledgerKeys()).toEqual([debit.idempotencyKey]);
      const retries = r.events.filter(
        (event) =>
          event.type === 'state-changed' && event.debit.id === debit.id && event.to === 'pending',
      );
      expect(retries).toHaveLength(2);
      expect(retries[0]).toMatchObject({ reason: `RETRY_SCHEDULED:${code}` });
      expect(transitions(r.events, debit.id)).toEqual([
        'pending->sending',
        'sending->pending',
        'pending->sending',
        'sending->pending',
        'pending->sending',
        'sending->applied',
      ]);
    },
  );

  it('429: waits Retry-After, capped, plus jitter, then sends again', async () => {
    sb.control.addFault({
      kind: 'rate-limit',
      route: 'debitGiftCard',
      count: 1,
      retryAfterSeconds: 30,
    });
    const r = rig({ sender: { retry: { retryAfter: { capMs: 300, jitterMs: 50 } } } });
    const { debit } = r.outbox.enqueue({ giftCardId: demoGiftCards.active, amount: 2 });
    const pending = new Promise<OutboxDebit>((resolve) =>
      r.outbox.events.on('change', (event) => {
        if (event.type === 'state-changed' && event.to === 'pending') resolve(event.debit);
      }),
    );
    r.sender.start();
    const rescheduled = await pending;
    expect(rescheduled.lastErrorCode).toBe('RATE_LIMITED');
    const wait = rescheduled.nextAttemptAt - rescheduled.updatedAt;
    expect(wait).toBeGreaterThanOrEqual(295);
    expect(wait).toBeLessThan(300 + 50 + 5);
    const done = await settle(r, debit);
    expect(done).toMatchObject({ state: 'applied', attempts: 2 });
    expect(done.lastAttemptAt! - done.firstAttemptAt!).toBeGreaterThanOrEqual(300);
    expect(ledgerKeys()).toEqual([debit.idempotencyKey]);
  });

  it('a reply slower than the client timeout: retried with the same key, applied once', async () => {
    sb.control.addFault({ kind: 'latency', route: 'debitGiftCard', count: 1, latencyMs: 600 });
    const handlers = debitHandlers();
    try {
      const r = rig({ responseMs: 200 });
      const { debit } = r.outbox.enqueue({ giftCardId: demoGiftCards.active, amount: 3 });
      const done = await settle(r, debit);
      expect(done.state).toBe('applied');
      expect(done.attempts).toBeGreaterThanOrEqual(2);
      // The first request is still processed by the sandbox after the client gave up on it:
      // wait until the sandbox has handled every attempt.
      await vi.waitFor(
        () => {
          expect(handlers.finished).toBeGreaterThanOrEqual(done.attempts);
          expect(handlers.inFlight).toBe(0);
        },
        { timeout: 5_000, interval: 20 },
      );
      expect(ledgerKeys()).toEqual([debit.idempotencyKey]);
    } finally {
      handlers.close();
    }
  });

  it('a 401 is renewed inside the client: one outbox attempt, applied', async () => {
    const exchanges: ExchangeEvent[] = [];
    const r = rig({ onExchange: (event) => exchanges.push(event) });
    const warm = r.outbox.enqueue({ giftCardId: demoGiftCards.active, amount: 1 }).debit;
    await settle(r, warm);
    // The service's clock passes the token's expiry while the kiosk's does not: the next debit
    // meets a 401, the client renews the token once and resends, all inside one outbox attempt.
    sb.control.advanceClock(16 * 60_000);
    const { debit } = r.outbox.enqueue({ giftCardId: demoGiftCards.active, amount: 1 });
    expect(await settle(r, debit)).toMatchObject({ state: 'applied', attempts: 1 });
    const statuses = exchanges.map((event) => `${event.operationId}:${event.status}`);
    expect(statuses.slice(-3)).toEqual([
      'debitGiftCard:401',
      'authenticate:200',
      'debitGiftCard:200',
    ]);
  });

  it('CredentialsRejected pauses the sender and asks for an administrator; nothing is dropped; resume sends it', async () => {
    const r = rig();
    sb.control.revokeAccount(ALL_SCOPES_ACCOUNT);
    const { debit } = r.outbox.enqueue({ giftCardId: demoGiftCards.active, amount: 4 });
    const paused = new Promise<OutboxEvent>((resolve) =>
      r.outbox.events.on('change', (event) => {
        if (event.type === 'sender-paused') resolve(event);
      }),
    );
    r.sender.start();
    expect(await paused).toMatchObject({
      type: 'sender-paused',
      reason: 'credentials-rejected',
      needsAdministrator: true,
    });
    expect(r.sender.status.paused).not.toBeNull();
    const held = r.outbox.get(debit.id);
    expect(held).toMatchObject({ state: 'pending', attempts: 1 });
    // Once the attempt is over, a wake makes the sender pass over the row (due at once) and go
    // back to sleep: had it not been paused, that pass would have sent it.
    await vi.waitFor(() => expect(r.sender.status.inFlight).toBe(0));
    const pass = clock.nextSleep();
    r.sender.wake();
    await pass;
    expect(r.outbox.get(debit.id).attempts).toBe(1); // nothing sent while paused

    sb.control.restoreAccount(ALL_SCOPES_ACCOUNT);
    r.sender.resume();
    expect(await settle(r, debit)).toMatchObject({ state: 'applied', attempts: 2 });
    expect(r.events.some((event) => event.type === 'sender-resumed')).toBe(true);
    expect(ledgerKeys()).toEqual([debit.idempotencyKey]);
  });
});

describe('order, crash recovery, lease', () => {
  it('sends FIFO per card, several cards in parallel', async () => {
    const r = rig({ sender: { concurrency: 3 } });
    const amounts = [1, 2, 3, 4, 5];
    const a = amounts.map(
      (amount) => r.outbox.enqueue({ giftCardId: demoGiftCards.active, amount }).debit,
    );
    const b = r.outbox.enqueue({ giftCardId: demoGiftCards.lowBalance, amount: 1 }).debit;
    r.sender.start();
    for (const debit of [...a, b]) await r.outbox.waitForOutcome(debit.id, 10_000);
    const activeLedger = sb.control
      .ledger(demoGiftCards.active)
      .map((entry) => entry.idempotencyKey);
    expect(activeLedger).toEqual(a.map((debit) => debit.idempotencyKey));
    expect(r.outbox.get(b.id).state).toBe('applied');
  });

  it('FIFO holds through refusals: a refused head does not block the rows behind it', async () => {
    const r = rig();
    const big = r.outbox.enqueue({ giftCardId: demoGiftCards.lowBalance, amount: 4 }).debit;
    const tooMuch = r.outbox.enqueue({ giftCardId: demoGiftCards.lowBalance, amount: 1 }).debit;
    const fits = r.outbox.enqueue({ giftCardId: demoGiftCards.lowBalance, amount: 0.5 }).debit;
    r.sender.start();
    for (const debit of [big, tooMuch, fits]) await r.outbox.waitForOutcome(debit.id, 10_000);
    expect([big, tooMuch, fits].map((debit) => r.outbox.get(debit.id).state)).toEqual([
      'applied',
      'refused',
      'applied',
    ]);
    expect(r.outbox.get(fits.id).newBalance).toBe(0);
  });

  it.each([
    ['reached the service', true],
    ['never arrived', false],
  ])(
    'after a crash, a row left in sending (the request %s) is sent again with the same key: one debit',
    async (_label, reached) => {
      const crashed = rig();
      const { debit } = crashed.outbox.enqueue({ giftCardId: demoGiftCards.active, amount: 6 });
      // What a killed sender leaves behind: the row committed as `sending`, attempt 1, dated on
      // the service's clock (as markSending dates it once the process has had a reply), and
      // maybe the request applied by the service (sent here with the row's own key and bytes).
      const serviceNow = sb.control.now().getTime();
      crashed.outbox.db.connection
        .prepare(
          `UPDATE outbox_debits SET state = 'sending', attempts = 1, first_attempt_at = ?, last_attempt_at = ?,
             attempt_service_earliest = ?, attempt_service_latest = ? WHERE id = ?`,
        )
        .run(clock.now(), clock.now(), serviceNow - 1_000, serviceNow + 1_000, debit.id);
      if (reached) {
        const client = sb.client();
        await sb.gateway(client).debit(debit.giftCardId, debit.idempotencyKey, debit.requestBody);
      }
      expect(ledgerKeys()).toHaveLength(reached ? 1 : 0);

      const restarted = rig();
      const done = await settle(restarted, debit);
      expect(done).toMatchObject({
        state: 'applied',
        attempts: 2,
        idempotencyKey: debit.idempotencyKey,
        requestBody: debit.requestBody,
      });
      expect(transitions(restarted.events, debit.id)).toEqual([
        'sending->pending',
        'pending->sending',
        'sending->applied',
      ]);
      expect(ledgerKeys()).toEqual([debit.idempotencyKey]);
    },
  );

  it.each([
    ['applied by the service: found in the usages, applied without a resend', true, true],
    [
      'never arrived: absent from usages verified filled, then resent with the same key',
      false,
      true,
    ],
    ['never arrived, usages never verified: held as outcome unknown, not resent', false, false],
  ])(
    'after a crash, a row left in sending without a service time (no dated reply before it) is reconciled first: %s',
    async (_label, reached, verified) => {
      const crashed = rig();
      const { debit } = crashed.outbox.enqueue({ giftCardId: demoGiftCards.active, amount: 7 });
      crashed.outbox.db.connection
        .prepare(
          `UPDATE outbox_debits SET state = 'sending', attempts = 1, first_attempt_at = ?, last_attempt_at = ? WHERE id = ?`,
        )
        .run(clock.now(), clock.now(), debit.id);
      if (reached) {
        await sb
          .gateway(sb.client())
          .debit(debit.giftCardId, debit.idempotencyKey, debit.requestBody);
      }

      const restarted = rig({ usagesVerified: verified });
      if (!verified) {
        restarted.sender.start();
        await vi.waitFor(() =>
          expect(restarted.outbox.get(debit.id).outcomeUnknown).not.toBeNull(),
        );
        expect(restarted.outbox.get(debit.id)).toMatchObject({
          state: 'pending',
          attempts: 1,
          outcomeUnknown: { reason: 'USAGES_UNVERIFIED' },
        });
        expect(ledgerKeys()).toEqual([]);
        return;
      }
      const done = await settle(restarted, debit);
      expect(done).toMatchObject(
        reached
          ? { state: 'applied', settledBy: 'reconciliation', attempts: 1 }
          : { state: 'applied', settledBy: 'service', attempts: 2 },
      );
      expect(ledgerKeys()).toEqual([debit.idempotencyKey]);
    },
  );

  it('two senders on one data directory: only the lease holder sends; the other takes over when it stops', async () => {
    const a = rig({ sender: { leaseTtlMs: 400, owner: 'test:a' } });
    const b = rig({ sender: { leaseTtlMs: 400, owner: 'test:b' } });
    a.sender.start();
    b.sender.start();
    const first = Array.from(
      { length: 6 },
      (_, i) => a.outbox.enqueue({ giftCardId: demoGiftCards.active, amount: i + 1 }).debit,
    );
    for (const debit of first) await a.outbox.waitForOutcome(debit.id, 10_000);
    const sendsBy = (r: Rig) =>
      r.events.filter((event) => event.type === 'state-changed' && event.to === 'sending').length;
    expect([sendsBy(a), sendsBy(b)].sort()).toEqual([0, 6]);
    const [holder, other] = sendsBy(a) === 6 ? [a, b] : [b, a];
    expect(holder.sender.status.holdsLease).toBe(true);
    expect(other.sender.status.holdsLease).toBe(false);

    await holder.sender.stop();
    const later = other.outbox.enqueue({ giftCardId: demoGiftCards.active, amount: 0.5 }).debit;
    expect((await other.outbox.waitForOutcome(later.id, 5_000)).debit.state).toBe('applied');
    expect(sendsBy(other)).toBe(1);
    expect(new Set(ledgerKeys()).size).toBe(7);
  });

  it('drain reports what it did; a second process finds the lease held', async () => {
    const r = rig();
    r.outbox.enqueue({ giftCardId: demoGiftCards.active, amount: 1 });
    r.outbox.enqueue({ giftCardId: demoGiftCards.lowBalance, amount: 50 });
    const report = await r.sender.drain({ untilEmpty: true, timeoutMs: 10_000 });
    expect(report).toMatchObject({
      result: 'empty',
      attempts: 2,
      applied: 1,
      refused: 1,
      failed: 0,
    });
    expect(report.summary.openCount).toBe(0);
    expect(r.sender.status.running).toBe(false);

    const holder = rig({ sender: { owner: 'test:holder' } });
    holder.sender.start();
    const other = rig({ sender: { owner: 'test:other' } });
    other.outbox.enqueue({ giftCardId: demoGiftCards.active, amount: 1 });
    const blocked = await other.sender.drain({ timeoutMs: 2_000 });
    expect(blocked).toMatchObject({ result: 'lease-held', leaseOwner: 'test:holder' });
  });
});

describe('startOutboxService', () => {
  it('runs the sender in the background: an accepted debit is applied without any call', async () => {
    const service = startOutboxService({
      db: data.open(),
      client: sb.client(),
      clock,
      // Never polls within the test: the enqueue's own event is what wakes it.
      sender: { idlePollMs: 3_600_000 },
    });
    try {
      const { debit, connectivity } = service.outbox.enqueue({
        giftCardId: demoGiftCards.active,
        amount: 1.25,
      });
      expect(connectivity).toBe('online');
      const outcome = await service.outbox.waitForOutcome(debit.id, 10_000);
      expect(outcome).toMatchObject({ settled: true, debit: { state: 'applied' } });
    } finally {
      await service.stop();
    }
    expect(ledgerKeys()).toHaveLength(1);
  });
});

describe('reconciliation and expiry', () => {
  /** One attempt that fails without an answer, then the sender stops (a long backoff holds the row). */
  async function oneUnansweredAttempt(
    kind: 'commit-then-reset' | 'reset',
    amount: number,
    card: keyof typeof demoGiftCards = 'active',
  ): Promise<OutboxDebit> {
    sb.control.addFault({ kind, route: 'debitGiftCard', count: 1 });
    const r = rig({ sender: { retry: { backoff: { baseMs: 60_000, capMs: 60_000 } } } });
    const { debit } = r.outbox.enqueue({ giftCardId: demoGiftCards[card], amount });
    const rescheduled = new Promise<void>((resolve) =>
      r.outbox.events.on('change', (event) => {
        if (event.type === 'state-changed' && event.to === 'pending') resolve();
      }),
    );
    r.sender.start();
    await rescheduled;
    await r.sender.stop();
    const row = r.outbox.get(debit.id);
    expect(row).toMatchObject({ state: 'pending', attempts: 1 });
    expect(row.mayHaveReachedAt).not.toBeNull();
    return row;
  }

  function pastRetention(): void {
    sb.control.advanceClock(DAY + 60_000);
    clock.advance(DAY + 60_000);
  }

  it('past the key retention, a debit the service applied is found in the usages: applied (reconciled), not resent', async () => {
    const row = await oneUnansweredAttempt('commit-then-reset', 8);
    expect(ledgerKeys()).toEqual([row.idempotencyKey]);
    pastRetention();
    const r = rig({ limits: { maxAgeMs: 3 * DAY } });
    const done = await settle(r, row);
    expect(done).toMatchObject({
      state: 'applied',
      settledBy: 'reconciliation',
      attempts: 1,
      newBalance: null,
    });
    expect(done.reply).toMatchObject({
      kind: 'usage',
      usage: { reference: row.reference, amount: 8 },
    });
    expect(transitions(r.events, row.id)).toEqual(['pending->applied']);
    expect(ledgerKeys()).toEqual([row.idempotencyKey]);
  });

  it('past the key retention, a debit the service never applied is absent from usages verified filled: resent with the same key, applied once', async () => {
    const row = await oneUnansweredAttempt('reset', 9);
    expect(ledgerKeys()).toEqual([]);
    pastRetention();
    const r = rig({ limits: { maxAgeMs: 3 * DAY }, usagesVerified: true });
    const done = await settle(r, row);
    expect(done).toMatchObject({ state: 'applied', settledBy: 'service', attempts: 2 });
    expect(ledgerKeys()).toEqual([row.idempotencyKey]);
  });

  it('a row never attempted (behind the blocked head of its card) expires after the maximum age on the service clock, without any request', async () => {
    sb.control.addFault({ kind: 'reset', route: 'debitGiftCard', count: 1 });
    const r = rig({
      limits: { maxAgeMs: 60_000 },
      sender: { random: () => 0.99, retry: { backoff: { baseMs: 60_000, capMs: 60_000 } } },
      usagesVerified: true,
    });
    const head = r.outbox.enqueue({ giftCardId: demoGiftCards.active, amount: 4 }).debit;
    const debit = r.outbox.enqueue({ giftCardId: demoGiftCards.active, amount: 5 }).debit;
    r.sender.start();
    // The head's attempt failed and waits a minute; the row behind it is dated on the service.
    await vi.waitFor(() => {
      expect(r.outbox.get(head.id)).toMatchObject({ state: 'pending', attempts: 1 });
      expect(r.outbox.store.serviceTimes(debit.id)?.createdAt).not.toBeNull();
    });
    sb.control.advanceClock(2 * 60_000);
    clock.advance(2 * 60_000);
    const done = await settle(r, debit);
    expect(done).toMatchObject({
      state: 'expired',
      attempts: 0,
      settledBy: 'expiry',
      lastErrorCode: 'EXPIRED',
    });
    // The head, attempted once, expires too, but only after the usages show it absent.
    expect((await r.outbox.waitForOutcome(head.id, 10_000)).debit).toMatchObject({
      state: 'expired',
      attempts: 1,
    });
    expect(r.outbox.summary().attention.expired).toBe(2);
    expect(ledgerKeys()).toEqual([]);
    expect(() => r.outbox.cancel(debit.id)).toThrow(
      expect.objectContaining({ code: 'OUTBOX_NOT_CANCELLABLE' }),
    );
  });

  it('an attempted row past the maximum age expires only once the usages show the service does not have it', async () => {
    const absent = await oneUnansweredAttempt('reset', 2, 'lowBalance');
    const applied = await oneUnansweredAttempt('commit-then-reset', 3);
    sb.control.advanceClock(2 * 60 * 60_000);
    clock.advance(2 * 60 * 60_000);
    const r = rig({ limits: { maxAgeMs: 60 * 60_000 }, usagesVerified: true });
    r.sender.start();
    const [a, b] = await Promise.all([
      r.outbox.waitForOutcome(absent.id, 10_000),
      r.outbox.waitForOutcome(applied.id, 10_000),
    ]);
    expect(a.debit).toMatchObject({ state: 'expired', attempts: 1 });
    expect(b.debit).toMatchObject({ state: 'applied', settledBy: 'reconciliation', attempts: 1 });
    expect(ledgerKeys()).toEqual([applied.idempotencyKey]);
  });

  it('cancel is refused once an attempt started, allowed before', async () => {
    const row = await oneUnansweredAttempt('reset', 1);
    const r = rig();
    expect(() => r.outbox.cancel(row.id)).toThrow(
      expect.objectContaining({ code: 'OUTBOX_NOT_CANCELLABLE' }),
    );
    const fresh = r.outbox.enqueue({ giftCardId: demoGiftCards.active, amount: 1 }).debit;
    expect(r.outbox.cancel(fresh.id).state).toBe('cancelled' satisfies DebitState);
    clock.advance(61_000); // past the long backoff the first sender left on the row
    r.sender.start();
    await r.outbox.waitForOutcome(row.id, 10_000);
    expect(ledgerKeys()).toEqual([row.idempotencyKey]);
  });
});
