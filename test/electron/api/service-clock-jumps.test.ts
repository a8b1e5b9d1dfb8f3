import { describe, expect, it } from 'vitest';
import type { Clock } from '../../../electron/foundation/clock.ts';
import { ServiceClock } from '../../../electron/api/service-clock.ts';
import type { LogFields, Logger } from '../../../electron/logging/index.ts';

/**
 * A plausible service clock: a reply whose `Date` moved by more than a bound against the kiosk's
 * own monotonic clock since the reading in force is not trusted (`confirmed: false`) until a
 * second reply agrees with it; the first reply of a process is not confirmed either.
 */

const T0 = Date.parse('2026-03-01T10:00:00Z');
const HOUR = 3_600_000;

class KioskClocks implements Clock {
  wall = T0;
  mono = 1_000;
  now(): number {
    return this.wall;
  }
  monotonic(): number {
    return this.mono;
  }
  async sleep(): Promise<void> {}
  pass(ms: number): void {
    this.wall += ms;
    this.mono += ms;
  }
}

class Lines implements Logger {
  readonly lines: { event: string; fields: LogFields }[] = [];
  debug(): void {}
  info(event: string, fields: LogFields = {}): void {
    this.lines.push({ event, fields });
  }
  warn(event: string, fields: LogFields = {}): void {
    this.lines.push({ event, fields });
  }
  error(): void {}
  events(event: string) {
    return this.lines.filter((line) => line.event === event);
  }
}

function setup() {
  const kiosk = new KioskClocks();
  const log = new Lines();
  const clock = new ServiceClock({ clock: kiosk, logger: log });
  /** The service's true time follows the kiosk's monotonic clock, `offset` ahead. */
  let offset = 0;
  const reply = (dateOffset = offset) => {
    const sent = clock.instant();
    kiosk.pass(100);
    clock.observe(new Date(kiosk.wall - 50 + dateOffset).toUTCString(), sent, clock.instant());
  };
  return {
    kiosk,
    log,
    clock,
    reply,
    setOffset: (ms: number) => {
      offset = ms;
    },
  };
}

describe('confirmation by a second reply', () => {
  it('the first reply of a process is a reading, not yet a confirmed one; the second agreeing confirms it', () => {
    const { clock, reply } = setup();
    reply();
    expect(clock.now()).toMatchObject({ confirmed: false });
    reply();
    expect(clock.now()).toMatchObject({ confirmed: true });
    expect(clock.status()).toMatchObject({ confirmed: true, pendingJump: null });
  });

  it('one reply 73 h ahead: kept aside, the bounds stay on the reading in force, unconfirmed; a second one confirms the jump', () => {
    const { clock, reply, kiosk, log, setOffset } = setup();
    reply();
    reply();
    const before = clock.now()!;
    setOffset(73 * HOUR);
    reply();
    const during = clock.now()!;
    expect(during.confirmed).toBe(false);
    // Still the old line: no expiry, no key window can be decided on the jump.
    expect(during.latest).toBeLessThan(before.latest + 10_000);
    expect(clock.status().pendingJump).toMatchObject({ jumpMs: expect.any(Number) });
    expect(clock.status().pendingJump!.jumpMs).toBeGreaterThan(72 * HOUR);
    expect(log.events('api.service_clock.jump')).toHaveLength(1);

    reply();
    const after = clock.now()!;
    expect(after.confirmed).toBe(true);
    expect(after.earliest).toBeGreaterThan(kiosk.wall + 73 * HOUR - 2_000);
    expect(log.events('api.service_clock.jump_confirmed')).toHaveLength(1);
  });

  it("a stray reply (a proxy's stale Date) is dismissed when the next one agrees with the reading in force", () => {
    const { clock, reply, log } = setup();
    reply();
    reply();
    reply(-49 * HOUR);
    expect(clock.now()!.confirmed).toBe(false);
    reply();
    expect(clock.now()!.confirmed).toBe(true);
    expect(clock.status().pendingJump).toBeNull();
    expect(log.events('api.service_clock.jump_dismissed')).toHaveLength(1);
  });

  it('time passing on both clocks is no jump; a move within the bound (5 min) is absorbed', () => {
    const { clock, reply, kiosk, setOffset } = setup();
    reply();
    reply();
    kiosk.pass(10 * HOUR);
    reply();
    expect(clock.now()!.confirmed).toBe(true);
    setOffset(4 * 60_000);
    reply();
    expect(clock.now()!.confirmed).toBe(true);
    setOffset(4 * 60_000 + 6 * 60_000);
    reply();
    expect(clock.now()!.confirmed).toBe(false);
  });
});
