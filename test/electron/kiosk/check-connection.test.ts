import { afterEach, expect, it, vi } from 'vitest';
import { demoGiftCards } from '../../../sandbox/data/demo.ts';
import { RecordingLogger } from '../outbox/support.ts';
import { type KioskFixture, replyTo, startKioskFixture } from './support.ts';

/**
 * Back online, two ways: a probe's own finding lifts the sender's backoff at this kiosk's moment
 * of the back-online window (a fleet must not come back in one second), while staff pressing
 * "Check connection" at the counter get what waited sent at once.
 */
let fixture: KioskFixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

async function kioskWithADebitWaiting(logger: RecordingLogger) {
  fixture = await startKioskFixture({
    logger,
    services: {
      // Longer than any test: only staff's own check can lift the backoff here.
      backOnlineWindowMs: 3_600_000,
      // The default first backoff is full jitter up to 1 s, so the resend could come before
      // the first attempt is seen: here the debit truly waits.
      outboxRetry: { backoff: { baseMs: 3_600_000, capMs: 3_600_000 } },
    },
  });
  const { sender, outbox } = fixture.services.parts;
  fixture.sandbox.control!.addFault({ kind: 'reset', route: 'debitGiftCard', count: 1 });
  sender.start();
  const reply = await replyTo(fixture, 'debitGiftCard', {
    requestId: crypto.randomUUID(),
    giftCardId: demoGiftCards.active,
    amount: 4,
    policy: 'prefer_online',
    waitMs: 0,
  });
  await vi.waitFor(() => expect(outbox.get(reply.debit.id).attempts).toBe(1), { timeout: 5_000 });
  await vi.waitFor(() => expect(outbox.get(reply.debit.id).state).toBe('pending'));
  return reply.debit.id;
}

it('staff check the connection: the waiting debit goes at once', async () => {
  const logger = new RecordingLogger();
  const id = await kioskWithADebitWaiting(logger);
  expect(await replyTo(fixture!, 'checkConnectivity', {})).toEqual({ connectivity: 'online' });
  await vi.waitFor(() => expect(logger.events('outbox.sender.backoff_lifted')).toHaveLength(1), {
    timeout: 5_000,
  });
  const outcome = await fixture!.services.parts.outbox.waitForOutcome(id, 10_000);
  expect(outcome).toMatchObject({ settled: true, debit: { state: 'applied', attempts: 2 } });
}, 20_000);

it("a probe's own finding waits for the kiosk's moment of the window", async () => {
  const logger = new RecordingLogger();
  await kioskWithADebitWaiting(logger);
  expect(await fixture!.services.parts.client.connectivity.check()).toBe('online');
  // The same wait as above, and nothing lifted: the window is an hour here.
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  expect(logger.events('outbox.sender.backoff_lifted')).toHaveLength(0);
  // A kiosk and a sandbox started on a busy CI machine take seconds of their own.
}, 20_000);
