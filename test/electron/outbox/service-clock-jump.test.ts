import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { systemClock } from '../../../electron/foundation/clock.ts';
import { ServiceClock } from '../../../electron/api/service-clock.ts';
import type { DebitGateway } from '../../../electron/outbox/gateway.ts';
import { Outbox } from '../../../electron/outbox/outbox.ts';
import { OutboxSender } from '../../../electron/outbox/sender.ts';
import { defaultProfile, type RecordViewOf, resolveRecord } from '../../../shared/profile/index.ts';
import { tempDataDir } from './support.ts';

/**
 * Expiry never fires from a single reading of the service's clock: one reply dated 73 h ahead
 * (a proxy, a service clock stepped by mistake) leaves a waiting debit alone until a second reply
 * agrees with it; a reply agreeing with the old reading dismisses it. The service's `Date`
 * headers are the test's to write (a gateway of its own over the real `ServiceClock`).
 */

const HOUR = 3_600_000;
const CARD = 'gift_card_1';

let data: ReturnType<typeof tempDataDir>;
let release: (() => void) | undefined;
const senders: OutboxSender[] = [];
beforeEach(() => {
  data = tempDataDir();
});
afterEach(async () => {
  release?.();
  await Promise.all(senders.splice(0).map((sender) => sender.stop()));
  data.cleanup();
});

/** A service whose clock reads `offset` ahead of the kiosk's; its debits wait for `release`. */
function service() {
  const serviceClock = new ServiceClock({ clock: systemClock });
  const state = { offset: 0 };
  const reply = (offset = state.offset) => {
    const sent = serviceClock.instant();
    serviceClock.observe(new Date(Date.now() + offset).toUTCString(), sent, serviceClock.instant());
  };
  /** A reply, then a few passes of the sender (each pass checks the never-attempted rows). */
  const replyAndPass = async (sender: OutboxSender, offset: number) => {
    reply(offset);
    for (let pass = 0; pass < 5; pass += 1) {
      sender.wake();
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  const gateway: DebitGateway = {
    serviceClock,
    syncServiceTime: async () => reply(),
    debit: () =>
      new Promise<RecordViewOf<'debitReceipt'>>((resolve) => {
        release = () =>
          resolve(
            resolveRecord(defaultProfile, 'debitReceipt', {
              id: 'usage_1',
              balance: 10,
            }) as RecordViewOf<'debitReceipt'>,
          );
      }),
    findUsage: async () => ({ status: 'unavailable', reason: 'not in this test' }),
  };
  return { gateway, state, reply, replyAndPass, serviceClock };
}

it('one reply dated 73 h ahead expires nothing; a second one confirming it does', async () => {
  const svc = service();
  const outbox = new Outbox({ db: data.open(), connectivity: () => 'online' });
  // The head's request hangs at the service; the debit behind it waits, never attempted.
  const head = outbox.enqueue({ giftCardId: CARD, amount: 1 }).debit;
  const waiting = outbox.enqueue({ giftCardId: CARD, amount: 2 }).debit;
  const sender = new OutboxSender({ outbox, gateway: svc.gateway, idlePollMs: 10 });
  senders.push(sender);
  sender.start();
  await vi.waitFor(() => {
    expect(outbox.get(head.id).state).toBe('sending');
    expect(outbox.store.serviceTimes(waiting.id)?.createdAt).not.toBeNull();
  });
  expect(svc.serviceClock.now()?.confirmed).toBe(true);

  // One reply 73 h ahead (the maximum age is 72 h): kept aside, nothing expires.
  await svc.replyAndPass(sender, 73 * HOUR);
  expect(svc.serviceClock.now()?.confirmed).toBe(false);
  expect(outbox.get(waiting.id)).toMatchObject({ state: 'pending', attempts: 0 });

  // The next reply agrees with the old reading: the jump was a stray.
  await svc.replyAndPass(sender, 0);
  expect(svc.serviceClock.now()?.confirmed).toBe(true);
  expect(outbox.get(waiting.id).state).toBe('pending');

  // Two replies 73 h ahead: the second confirms the first, and the age is proven.
  await svc.replyAndPass(sender, 73 * HOUR);
  expect(outbox.get(waiting.id).state).toBe('pending');
  await svc.replyAndPass(sender, 73 * HOUR);
  await vi.waitFor(() =>
    expect(outbox.get(waiting.id)).toMatchObject({ state: 'expired', lastErrorCode: 'EXPIRED' }),
  );
});
