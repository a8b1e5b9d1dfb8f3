import { describe, expect, it, vi } from 'vitest';
import type { ConnectivityChange } from '../../../electron/api/index.ts';
import { TypedEmitter } from '../../../electron/foundation/index.ts';
import { demoGiftCards } from '../../../sandbox/data/demo.ts';
import { liftBackoffWhenBackOnline, startOutboxService } from '../../../electron/outbox/index.ts';
import { RecordingLogger } from './support.ts';
import { useSandboxBed } from './sandbox-support.ts';

/**
 * Back online, sent at once: a debit that failed while the service was unreachable waits out a
 * backoff of minutes; when a probe sees the service again, the backoff gate is lifted and the
 * waiting debit goes out without waiting for it.
 */

const MINUTE = 60_000;
const bed = useSandboxBed();

it('a probe that succeeds after an outage lifts the backoff: the waiting debit is applied', async () => {
  const logger = new RecordingLogger();
  const client = bed.sb.client({ logger });
  const service = bed.stopLater(
    startOutboxService({
      db: bed.data.open(),
      client,
      logger,
      sender: {
        random: () => 0.99,
        idlePollMs: 20,
        retry: { backoff: { baseMs: 10 * MINUTE, capMs: 10 * MINUTE } },
      },
    }),
  );
  const { outbox, sender } = service;

  // The service cannot be reached: the attempt fails and the next one waits ten minutes.
  bed.sb.control.addFault({ kind: 'reset', route: 'debitGiftCard', count: 1 });
  const { debit } = outbox.enqueue({ giftCardId: demoGiftCards.active, amount: 2.5 });
  await vi.waitFor(() =>
    expect(outbox.get(debit.id)).toMatchObject({ state: 'pending', attempts: 1 }),
  );
  expect(client.connectivity.state).not.toBe('online');
  const now = outbox.clock.now();
  expect(outbox.get(debit.id).nextAttemptAt).toBeGreaterThan(now + 5 * MINUTE);
  expect(sender.status.gateUntil).toBeGreaterThan(now + 5 * MINUTE);

  // The connectivity monitor's probe sees the service again.
  // Each kiosk goes at its own moment of a 4 s window (random 0.99: near its end), within 5 s.
  expect(await client.connectivity.check()).toBe('online');
  await vi.waitFor(() => expect(logger.events('outbox.sender.backoff_lifted')).toHaveLength(1), {
    timeout: 5_000,
  });
  expect(logger.events('outbox.sender.backoff_lifted')[0]?.fields).toEqual({ waiting: 1 });

  const outcome = await outbox.waitForOutcome(debit.id, 10_000);
  expect(outcome).toMatchObject({ settled: true, debit: { state: 'applied', attempts: 2 } });
  expect(bed.sb.control.ledger().map((entry) => entry.idempotencyKey)).toEqual([
    debit.idempotencyKey,
  ]);
  expect(sender.status.gateUntil).toBeNull();
});

describe('the moment a kiosk lifts its backoff', () => {
  type Change = Pick<ConnectivityChange, 'from' | 'to' | 'detail'>;
  function monitor() {
    const emitter = new TypedEmitter<{ change: ConnectivityChange }>();
    return {
      on: emitter.on.bind(emitter),
      emit: (change: Change) =>
        emitter.emit('change', { ...change, source: 'test', at: new Date().toISOString() }),
    };
  }

  it('after an outage: at a random moment of the window, once', async () => {
    const connectivity = monitor();
    const lifted: number[] = [];
    const started = performance.now();
    const off = liftBackoffWhenBackOnline(
      connectivity,
      { liftBackoff: () => lifted.push(performance.now() - started) },
      { random: () => 0.5, windowMs: 400 },
    );
    connectivity.emit({ from: 'online', to: 'degraded', detail: 'NETWORK_ERROR' });
    connectivity.emit({ from: 'degraded', to: 'offline', detail: 'NETWORK_ERROR' });
    connectivity.emit({ from: 'offline', to: 'online', detail: 'OK' });
    expect(lifted).toEqual([]);
    await vi.waitFor(() => expect(lifted).toHaveLength(1));
    expect(lifted[0]).toBeGreaterThanOrEqual(195);
    off();
  });

  it('after a 429: not lifted, the Retry-After stands; unless an outage came between', async () => {
    const connectivity = monitor();
    let lifted = 0;
    const off = liftBackoffWhenBackOnline(
      connectivity,
      { liftBackoff: () => (lifted += 1) },
      { random: () => 0, windowMs: 1 },
    );
    connectivity.emit({ from: 'online', to: 'degraded', detail: 'RATE_LIMITED' });
    connectivity.emit({ from: 'degraded', to: 'online', detail: 'OK' });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(lifted).toBe(0);

    connectivity.emit({ from: 'online', to: 'offline', detail: 'NETWORK_ERROR' });
    connectivity.emit({ from: 'offline', to: 'degraded', detail: 'RATE_LIMITED' });
    connectivity.emit({ from: 'degraded', to: 'online', detail: 'OK' });
    await vi.waitFor(() => expect(lifted).toBe(1));
    off();
  });
});
