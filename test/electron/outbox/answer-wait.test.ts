import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type CommerceApiClient, createApiClient } from '../../../electron/api/client.ts';
import {
  connectivityOf,
  createApiGateway,
  OfflineLimitExceeded,
  Outbox,
  outboxClientRetry,
  OutboxError,
  OutboxSender,
  OverLimitOutcomeUnknown,
  resolveUnknownOutcome,
} from '../../../electron/outbox/index.ts';
import { demoGiftCards } from '../../../sandbox/data/demo.ts';
import { type CuttableLink, startCuttableLink } from './cuttable-link.ts';
import { ALL_SCOPES_ACCOUNT, useSandboxBed } from './sandbox-support.ts';

/**
 * The link drops seconds before a debit and the kiosk still believes it is online: the debit is
 * committed and sent at once, and its answer does not come. When the wait ends (or an attempt
 * ends without an answer) the outbox decides the offline limits for it: over them, it is withdrawn
 * while nothing of it reached the service, kept for the service's answer (never presented as
 * accepted) when something may have; within them, it is stored offline. The real sandbox over
 * HTTP through a link the test cuts, the outbox on a real SQLite file.
 */

const bed = useSandboxBed();
/** A per-debit offline cap below the active card's 114.50, so a debit can be over it and not over the card. */
const limits = { maxOfflineDebitAmount: 50 };

let link: CuttableLink;
let client: CommerceApiClient;
let outbox: Outbox;
let sender: OutboxSender;

beforeEach(async () => {
  link = await startCuttableLink(bed.sb.baseUrl);
  const account = bed.sb.sandbox.accounts.find((entry) => entry.email === ALL_SCOPES_ACCOUNT)!;
  client = createApiClient({
    baseUrl: link.baseUrl,
    credentials: async () => ({ email: account.email, password: account.password }),
    retry: outboxClientRetry,
    timeouts: { connectMs: 1_000, responseMs: 3_000 },
  });
  outbox = new Outbox({ db: bed.data.open(), connectivity: connectivityOf(client), limits });
  sender = bed.stopLater(
    new OutboxSender({
      outbox,
      gateway: createApiGateway(client),
      idlePollMs: 20,
      // A failed attempt rests a while before its retry: the decision meets it at rest.
      retry: { backoff: { baseMs: 2_000, capMs: 2_000 } },
    }),
  );
  sender.start();
  // Staff looked the card up a moment ago: the kiosk knows its balance, and it is online.
  outbox.recordCard(await client.getGiftCard({ params: { giftCardId: demoGiftCards.active } }));
  expect(client.connectivity.state).toBe('online');
});
afterEach(async () => {
  await sender.stop();
  client.close();
  await link.close();
});

const ledger = () => bed.sb.control.ledger(demoGiftCards.active);

/**
 * The link drops, and the client has seen its kept-alive connection close (a request written on
 * a connection closing under it may have reached the service: that is the other case).
 */
async function linkDown(): Promise<void> {
  await link.cut();
  await new Promise((resolve) => setTimeout(resolve, 100));
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('the debit was presented as accepted');
}

describe('a debit over the offline cap whose answer does not come', () => {
  it('nothing of it reached the service (connection refused): withdrawn, refused, never sent later', async () => {
    await linkDown();
    const request = { requestId: randomUUID(), giftCardId: demoGiftCards.active, amount: 80 };
    const accepted = outbox.enqueue({ ...request, waitMs: 10_000 });
    // The kiosk does not know yet: sent at once, the cap left to the wait's end.
    expect(accepted).toMatchObject({ connectivity: 'online', delivery: 'send-now' });
    sender.wake();
    const error = await rejection(outbox.awaitAnswer(accepted.debit.id, 10_000));
    expect(error).toBeInstanceOf(OfflineLimitExceeded);
    expect(error).toMatchObject({
      code: 'OUTBOX_LIMIT_EXCEEDED',
      withdrawnDebitId: accepted.debit.id,
      breach: { limit: 'maxOfflineDebitAmount', allowed: 50, wouldBe: 80 },
    });
    const withdrawn = outbox.get(accepted.debit.id);
    expect(withdrawn).toMatchObject({
      state: 'cancelled',
      lastErrorCode: 'OUTBOX_LIMIT_EXCEEDED',
      mayHaveReachedAt: null,
      acceptedOffline: false,
    });
    expect(withdrawn.attempts).toBeGreaterThan(0);

    // The link comes back: nothing is sent, and the same request again is the same refusal.
    await link.restore();
    await sender.drain({ untilEmpty: true, timeoutMs: 5_000 });
    expect(ledger()).toEqual([]);
    const again = outbox.enqueue({ ...request, waitMs: 10_000 });
    expect(again).toMatchObject({ replayed: true, debit: { id: accepted.debit.id } });
    expect(await rejection(outbox.awaitAnswer(again.debit.id, 10_000))).toMatchObject({
      code: 'OUTBOX_LIMIT_EXCEEDED',
    });
  });

  it('it may have reached the service (reply lost after the commit): not accepted, held for a person, never sent again by itself', async () => {
    bed.sb.control.addFault({ kind: 'commit-then-reset', route: 'debitGiftCard' });
    const request = { requestId: randomUUID(), giftCardId: demoGiftCards.active, amount: 80 };
    const accepted = outbox.enqueue({ ...request, waitMs: 1_500 });
    sender.wake();

    const error = await rejection(outbox.awaitAnswer(accepted.debit.id, 1_500));
    expect(error).toBeInstanceOf(OverLimitOutcomeUnknown);
    expect(error).toMatchObject({ code: 'OUTBOX_OVER_LIMIT_OUTCOME_UNKNOWN' });
    const kept = outbox.get(accepted.debit.id);
    // Never withdrawn: the service did take it. Never sent again by itself either: staff were
    // told it was not taken as an offline debit; a person records what became of it.
    expect(['pending', 'sending']).toContain(kept.state);
    expect(kept).toMatchObject({
      acceptedOffline: false,
      outcomeUnknown: { reason: 'OVER_OFFLINE_LIMIT' },
    });
    expect(ledger().map((entry) => entry.amount)).toEqual([80]);

    bed.sb.control.clearFaults();
    const report = await sender.drain({ untilEmpty: true, timeoutMs: 5_000 });
    expect(report.result).toBe('held');
    expect(outbox.get(accepted.debit.id)).toMatchObject({
      state: 'pending',
      outcomeUnknown: { reason: 'OVER_OFFLINE_LIMIT' },
    });
    // Asked again (the screen re-asks with the same request id): the same answer.
    expect(await rejection(outbox.awaitAnswer(accepted.debit.id, 0))).toBeInstanceOf(
      OverLimitOutcomeUnknown,
    );
    // A person saw the card's balance and records it applied: nothing is sent.
    resolveUnknownOutcome(outbox, accepted.debit.id, { outcome: 'applied', by: 'manager' });
    expect(outbox.get(accepted.debit.id).state).toBe('applied');
    expect(ledger().map((entry) => entry.idempotencyKey)).toEqual([kept.idempotencyKey]);
  });
});

describe('a debit within the offline limits whose answer does not come', () => {
  it('is stored offline when the wait ends, and applied once the link is back', async () => {
    await linkDown();
    const accepted = outbox.enqueue({
      requestId: randomUUID(),
      giftCardId: demoGiftCards.active,
      amount: 30,
      waitMs: 1_000,
    });
    sender.wake();
    const outcome = await outbox.awaitAnswer(accepted.debit.id, 1_000);
    expect(outcome.settled).toBe(false);
    expect(outcome.debit).toMatchObject({ state: 'pending', acceptedOffline: true });

    // Decided once: a lower cap later does not withdraw a debit already stored offline.
    outbox.setLimits({ maxOfflineDebitAmount: 10 });
    expect((await outbox.awaitAnswer(accepted.debit.id, 0)).settled).toBe(false);

    await link.restore();
    await sender.drain({ untilEmpty: true, timeoutMs: 10_000 });
    expect(outbox.get(accepted.debit.id).state).toBe('applied');
    expect(ledger().map((entry) => entry.amount)).toEqual([30]);
  });
});

it('over the card read seconds ago, online: refused before anything is stored or sent', async () => {
  let error: unknown;
  try {
    outbox.enqueue({ giftCardId: demoGiftCards.active, amount: 120, waitMs: 10_000 });
  } catch (caught) {
    error = caught;
  }
  expect(error).toBeInstanceOf(OutboxError);
  expect(error).toMatchObject({
    code: 'OUTBOX_OVER_KNOWN_BALANCE',
    refusal: { knownBalance: 114.5, amount: 120 },
  });
  expect(outbox.list()).toEqual([]);
  await sender.drain({ untilEmpty: true, timeoutMs: 2_000 });
  expect(ledger()).toEqual([]);
});
