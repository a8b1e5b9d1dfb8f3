import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type CommerceApiClient, createApiClient } from '../../../electron/api/client.ts';
import {
  createApiGateway,
  heldReasonOf,
  Outbox,
  outboxClientRetry,
  OutboxSender,
  OverLimitOutcomeUnknown,
  resolveUnknownOutcome,
} from '../../../electron/outbox/index.ts';
import type { DebitGateway } from '../../../electron/outbox/gateway.ts';
import { demoGiftCards } from '../../../sandbox/data/demo.ts';
import { ALL_SCOPES_ACCOUNT, useSandboxBed } from './sandbox-support.ts';
import { recordUsageVerdict } from './support.ts';

/**
 * Issue 35 (0), the sender's side: a debit over the offline per-debit cap, sent while the kiosk
 * still looked online, whose answer does not come within the caller's wait and which may have
 * reached the service. Staff were told it was not taken as an offline debit: it is held as
 * "outcome unknown" (OVER_OFFLINE_LIMIT) for a person and never sent again by itself, whether the
 * wait ended while it was `pending` (waiting for a retry) or still `sending`. A definitive answer
 * to the attempt under way is still recorded as such. The real sandbox over HTTP; the gateway
 * lets the test decide when, and how, each debit request ends.
 */

const bed = useSandboxBed();
const limits = { maxOfflineDebitAmount: 50 };

type Ending = 'answer' | 'lost';

let client: CommerceApiClient;
let outbox: Outbox;
let sender: OutboxSender;
/** Debit requests made, and how the test ends each (one not listed goes through). */
let calls: number;
let endings: Ending[];
let release: ((ending: Ending) => void) | undefined;

function gatedGateway(real: DebitGateway, gated: boolean): DebitGateway {
  return {
    serviceClock: real.serviceClock,
    syncServiceTime: () => real.syncServiceTime(),
    findUsage: (giftCardId, reference) => real.findUsage(giftCardId, reference),
    debit: async (giftCardId, key, body) => {
      calls += 1;
      const ending = gated
        ? await new Promise<Ending>((resolve) => {
            release = resolve;
          })
        : (endings.shift() ?? 'answer');
      // The bytes left and the reply never came (a black-holed connection, a reset).
      if (ending === 'lost') throw new Error('socket hang up after the request was written');
      return real.debit(giftCardId, key, body);
    },
  };
}

async function start(gated: boolean): Promise<void> {
  const account = bed.sb.sandbox.accounts.find((entry) => entry.email === ALL_SCOPES_ACCOUNT)!;
  client = createApiClient({
    baseUrl: bed.sb.baseUrl,
    credentials: async () => ({ email: account.email, password: account.password }),
    retry: outboxClientRetry,
  });
  outbox = new Outbox({ db: bed.data.open(), connectivity: () => 'online', limits });
  sender = bed.stopLater(
    new OutboxSender({
      outbox,
      gateway: gatedGateway(createApiGateway(client), gated),
      idlePollMs: 20,
      retry: { backoff: { baseMs: 300, capMs: 300 } },
    }),
  );
  outbox.recordCard(await client.getGiftCard({ params: { giftCardId: demoGiftCards.active } }));
  sender.start();
}

beforeEach(() => {
  calls = 0;
  endings = [];
  release = undefined;
});
afterEach(() => {
  release?.('lost');
  client.close();
});

const ledger = () => bed.sb.control.ledger(demoGiftCards.active);

async function until(condition: () => boolean, what: string, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('the debit was presented as accepted');
}

/** An 80.00 debit (cap 50.00, card 114.50) accepted online for a caller waiting `waitMs`. */
function enqueueOverCap(waitMs: number) {
  const accepted = outbox.enqueue({
    requestId: randomUUID(),
    giftCardId: demoGiftCards.active,
    amount: 80,
    waitMs,
  });
  expect(accepted.delivery).toBe('send-now');
  sender.wake();
  return accepted.debit.id;
}

describe('the wait ends while the attempt is still under way (sending)', () => {
  it('no answer comes: the attempt ends held for a person, no retry, nothing at the service', async () => {
    await start(true);
    const id = enqueueOverCap(300);
    await until(() => release !== undefined, 'the request to go out');
    const error = await rejection(outbox.awaitAnswer(id, 300));
    expect(error).toBeInstanceOf(OverLimitOutcomeUnknown);
    expect(error).toMatchObject({
      code: 'OUTBOX_OVER_LIMIT_OUTCOME_UNKNOWN',
      breach: { limit: 'maxOfflineDebitAmount', allowed: 50, wouldBe: 80 },
    });
    // The decision is recorded on the row mid-send; the attempt itself goes on.
    expect(outbox.get(id)).toMatchObject({
      state: 'sending',
      acceptedOffline: false,
      outcomeUnknown: { reason: 'OVER_OFFLINE_LIMIT' },
    });

    release!('lost');
    release = undefined;
    await until(() => outbox.get(id).state === 'pending', 'the attempt to end');
    const held = outbox.get(id);
    expect(heldReasonOf(held)?.code).toBe('DEBIT_OUTCOME_UNKNOWN');
    expect(held).toMatchObject({ attempts: 1, outcomeUnknown: { reason: 'OVER_OFFLINE_LIMIT' } });
    expect(held.mayHaveReachedAt).not.toBeNull();

    // Longer than the backoff: a row left to retry would go out again.
    const report = await sender.drain({ untilEmpty: true, timeoutMs: 1_500 });
    expect(report.result).toBe('held');
    expect(calls).toBe(1);
    expect(outbox.get(id)).toMatchObject({ state: 'pending', attempts: 1 });
    expect(ledger()).toEqual([]);
    expect(outbox.summary().outcomeUnknown).toBe(1);
    // Asked again with the same request id: the same answer at once, no wait.
    const started = Date.now();
    expect(await rejection(outbox.awaitAnswer(id, 5_000))).toBeInstanceOf(OverLimitOutcomeUnknown);
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('a definitive answer still comes (2xx): recorded applied, the hold cleared', async () => {
    await start(true);
    const id = enqueueOverCap(300);
    await until(() => release !== undefined, 'the request to go out');
    expect(await rejection(outbox.awaitAnswer(id, 300))).toBeInstanceOf(OverLimitOutcomeUnknown);
    release!('answer');
    release = undefined;
    await until(() => outbox.get(id).state === 'applied', 'the answer to be recorded');
    expect(outbox.get(id)).toMatchObject({ state: 'applied', outcomeUnknown: null });
    expect(ledger().map((entry) => entry.amount)).toEqual([80]);
    expect(outbox.summary()).toMatchObject({ openCount: 0, outcomeUnknown: 0 });
  });

  it('the sender crashes mid-attempt: the row comes back held, not due for a resend', async () => {
    await start(true);
    const id = enqueueOverCap(300);
    await until(() => release !== undefined, 'the request to go out');
    await rejection(outbox.awaitAnswer(id, 300));
    // What the next sender finds of a row a dead one left `sending`.
    const [recovered] = outbox.db.transaction(() => outbox.store.recoverInterrupted(Date.now()));
    expect(recovered?.debit).toMatchObject({
      state: 'pending',
      outcomeUnknown: { reason: 'OVER_OFFLINE_LIMIT' },
    });
    expect(heldReasonOf(recovered!.debit)?.code).toBe('DEBIT_OUTCOME_UNKNOWN');
  });
});

describe('the wait ends while the debit waits for a retry (pending)', () => {
  it('held at once; even the usages proving it absent do not send it again; a person may', async () => {
    await start(false);
    // The service fills its usages (verified): "absent" is evidence, and still not enough here.
    recordUsageVerdict(outbox, true);
    // Every attempt within the wait loses its reply (retries may come at once: no backoff yet).
    endings = Array.from({ length: 100 }, () => 'lost' as const);
    const id = enqueueOverCap(300);
    const error = await rejection(outbox.awaitAnswer(id, 300));
    const sentBeforeHold = calls;
    expect(error).toBeInstanceOf(OverLimitOutcomeUnknown);
    const held = outbox.get(id);
    expect(held).toMatchObject({
      state: 'pending',
      outcomeUnknown: { reason: 'OVER_OFFLINE_LIMIT' },
    });
    expect(heldReasonOf(held)?.code).toBe('DEBIT_OUTCOME_UNKNOWN');

    // Due at once for a read of its usages (found: applied), never for a send.
    await until(() => outbox.get(id).balanceNow !== null, 'its usages to be read');
    await new Promise((resolve) => setTimeout(resolve, 600));
    const report = await sender.drain({ untilEmpty: true, timeoutMs: 1_500 });
    expect(report.result).toBe('held');
    expect(calls).toBe(sentBeforeHold);
    expect(ledger()).toEqual([]);
    const after = outbox.get(id);
    // Its usages were read (the balance is evidence), and the hold stands.
    expect(after.balanceNow?.cents).toBe(11_450);
    expect(after).toMatchObject({
      state: 'pending',
      notApplied: null,
      outcomeUnknown: { reason: 'OVER_OFFLINE_LIMIT' },
    });

    // A person records "not applied, send again": that is theirs to decide.
    endings = [];
    resolveUnknownOutcome(outbox, id, { outcome: 'not_applied', by: 'manager' });
    await sender.drain({ untilEmpty: true, timeoutMs: 5_000 });
    expect(outbox.get(id).state).toBe('applied');
    expect(ledger().map((entry) => entry.amount)).toEqual([80]);
  });
});
