import { afterEach, beforeEach, expect, it } from 'vitest';
import { SenderLease } from '../../../electron/outbox/sender-lease.ts';
import { Lease } from '../../../electron/storage/index.ts';
import { tempDataDir } from './support.ts';

let data: ReturnType<typeof tempDataDir>;
beforeEach(() => {
  data = tempDataDir();
});
afterEach(() => data.cleanup());

/** Two processes' senders on one data directory, on a clock the test moves. */
function senders() {
  let now = 1_000;
  const changes: string[] = [];
  const db = data.open();
  const of = (owner: string) =>
    new SenderLease(
      new Lease(db, { name: 'outbox-sender', owner, ttlMs: 30_000, now: () => now }),
      (held) => changes.push(`${owner} ${held ? 'holds' : 'lost'}`),
    );
  return {
    kiosk: of('kiosk'),
    kioskctl: of('kioskctl'),
    changes,
    advance: (ms: number) => (now += ms),
    now: () => now,
  };
}

it('one holder at a time; the one that finds it lost says so once, and its writes stop', () => {
  const { kiosk, kioskctl, changes, advance, now } = senders();
  expect(kiosk.take(now())).toBe(true);
  expect(kioskctl.take(now())).toBe(false);
  expect([kiosk.held, kioskctl.held, kioskctl.checked]).toEqual([true, false, true]);

  // The kiosk stalls past the lease's life; kioskctl takes it over.
  advance(31_000);
  expect(kioskctl.take(now())).toBe(true);
  expect(kiosk.keep()).toBe(false);
  expect(kiosk.keep()).toBe(false);
  expect(kiosk.renewIfDue(now())).toBe(false);
  expect(kiosk.held).toBe(false);
  expect(changes).toEqual(['kiosk holds', 'kioskctl holds', 'kiosk lost']);

  kioskctl.release();
  expect(kioskctl.held).toBe(false);
  expect(kiosk.take(now())).toBe(true);
});

it('renewed when a third of its life went by, or at once when the clock went back', () => {
  const { kiosk, kioskctl, advance, now } = senders();
  kiosk.take(now());
  advance(9_000);
  expect(kiosk.renewIfDue(now())).toBe(true);
  // Not renewed yet: 9 s after the take, 21 s are left, and 21 s later it has lapsed.
  advance(21_000);
  expect(kioskctl.take(now())).toBe(true);
  kioskctl.release();

  kiosk.take(now());
  advance(10_000);
  expect(kiosk.renewIfDue(now())).toBe(true);
  advance(21_000);
  // Renewed at 10 s: it still holds at 31 s.
  expect(kioskctl.take(now())).toBe(false);
  advance(-60_000);
  expect(kiosk.renewIfDue(now())).toBe(true);
});
