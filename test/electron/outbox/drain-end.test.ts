import { expect, it } from 'vitest';
import { type Clock, systemClock } from '../../../electron/foundation/index.ts';
import { demoGiftCards } from '../../../sandbox/data/demo.ts';
import { Outbox } from '../../../electron/outbox/outbox.ts';
import { OutboxSender } from '../../../electron/outbox/sender.ts';
import { useSandboxBed } from './sandbox-support.ts';

/**
 * A drain ends when its last attempt's slot does, not at its next poll: the last answer's event
 * comes before the slot is let go, so a drain woken only by events would see the end one poll
 * (50 ms) late, a tenth of a 300-debit drain.
 */

const bed = useSandboxBed();

/** The system clock, telling whether each sleep ended at its time or was woken. */
function watchedClock(): { clock: Clock; timedOut: number } {
  const watched = {
    timedOut: 0,
    clock: {
      ...systemClock,
      sleep: async (ms: number, signal?: AbortSignal) => {
        await systemClock.sleep(ms, signal);
        watched.timedOut += 1;
      },
    },
  };
  return watched;
}

it('a drain returns when the last slot ends, woken by it: no sleep of its own runs out after the last answer', async () => {
  const watched = watchedClock();
  const outbox = new Outbox({
    db: bed.data.open(),
    connectivity: () => 'online',
    clock: watched.clock,
  });
  const cards = [demoGiftCards.active, demoGiftCards.lowBalance];
  for (let i = 0; i < 6; i++) outbox.enqueue({ giftCardId: cards[i % 2]!, amount: 0.05 });
  let timedOutAtLastAnswer = -1;
  outbox.events.on('change', (event) => {
    if (event.type === 'state-changed' && event.to === 'applied') {
      timedOutAtLastAnswer = watched.timedOut;
    }
  });
  // The sender's own sleeps outlast the test: only a drain's poll could run out.
  const sender = bed.stopLater(
    new OutboxSender({
      outbox,
      gateway: bed.sb.gateway(bed.sb.client()),
      concurrency: 2,
      idlePollMs: 600_000,
    }),
  );
  const report = await sender.drain({ untilEmpty: true, timeoutMs: 30_000 });

  expect(report).toMatchObject({ result: 'empty', applied: 6 });
  expect(timedOutAtLastAnswer).toBeGreaterThanOrEqual(0);
  expect(watched.timedOut).toBe(timedOutAtLastAnswer);
});
