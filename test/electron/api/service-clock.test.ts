import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CommerceApiClient } from '../../../electron/api/client.ts';
import type { Clock } from '../../../electron/foundation/clock.ts';
import { type ClockInstant, ServiceClock } from '../../../electron/api/service-clock.ts';
import type { LogFields, Logger } from '../../../electron/logging/index.ts';
import { type TestSandbox, startTestSandbox } from './support/sandbox.ts';

/**
 * The service's clock from `Date` headers, carried forward by the monotonic clock: bounds that
 * always hold the service's true time, and steps of the kiosk's wall clock told apart from time
 * passing.
 */

const T0 = Date.parse('2026-03-01T10:00:00Z');

/** Both kiosk clocks in the test's hands: `pass` is time passing, `step` moves the wall alone. */
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
  step(ms: number): void {
    this.wall += ms;
  }
}

class Lines implements Logger {
  readonly warnings: { event: string; fields: LogFields }[] = [];
  debug(): void {}
  info(): void {}
  warn(event: string, fields: LogFields = {}): void {
    this.warnings.push({ event, fields });
  }
  error(): void {}
}

/** A reply dated `serviceTime` (its Date header, whole seconds) after a round trip of `tripMs`. */
function reply(
  clock: ServiceClock,
  kiosk: KioskClocks,
  serviceTime: number,
  tripMs = 200,
): ClockInstant {
  const sent = clock.instant();
  kiosk.pass(tripMs);
  const received = clock.instant();
  clock.observe(new Date(serviceTime).toUTCString(), sent, received);
  return received;
}

function setup(): { kiosk: KioskClocks; clock: ServiceClock; log: Lines } {
  const kiosk = new KioskClocks();
  const log = new Lines();
  return { kiosk, clock: new ServiceClock({ clock: kiosk, logger: log }), log };
}

/** The bounds now hold the service's true time. */
function expectHolds(clock: ServiceClock, trueServiceNow: number): void {
  const bounds = clock.now();
  expect(bounds).toBeDefined();
  expect(bounds!.earliest).toBeLessThanOrEqual(trueServiceNow);
  expect(bounds!.latest).toBeGreaterThanOrEqual(trueServiceNow);
}

describe('bounds', () => {
  it('nothing is known before the first dated reply; a reply without a valid Date changes nothing', () => {
    const { kiosk, clock } = setup();
    expect(clock.now()).toBeUndefined();
    const sent = clock.instant();
    kiosk.pass(100);
    clock.observe(undefined, sent, clock.instant());
    clock.observe('not a date', sent, clock.instant());
    expect(clock.now()).toBeUndefined();
    expect(clock.status()).toMatchObject({ offsetMs: null, steps: [] });
  });

  it('one reply: the true time lies within one second plus half the round trip', () => {
    const { kiosk, clock } = setup();
    const ahead = 20 * 60_000 + 437; // the service's clock runs 20 min ahead of the kiosk's
    reply(clock, kiosk, kiosk.wall + 100 + ahead, 200); // written mid-trip
    const bounds = clock.now()!;
    expectHolds(clock, kiosk.wall + ahead);
    expect(bounds.latest - bounds.earliest).toBeLessThanOrEqual(1_000 + 200 + 2);
    expect(bounds.syncAgeMs).toBe(100);
    expect(clock.status().offsetMs).toBeGreaterThan(ahead - 1_100);
    expect(clock.status().offsetMs).toBeLessThan(ahead + 1_100);
  });

  it('time passing moves both bounds; a step of the wall clock either way never leaves the truth outside', () => {
    const { kiosk, clock, log } = setup();
    let service = kiosk.wall + 5_000;
    reply(clock, kiosk, service + 100);
    service += 200;
    kiosk.pass(3_600_000);
    service += 3_600_000;
    expectHolds(clock, service);
    expect(log.warnings).toEqual([]);

    // 73 h ahead: only the upper bound follows it (the lower one keeps to the monotonic clock,
    // less a 0.1 % drift allowance).
    kiosk.step(73 * 3_600_000);
    expectHolds(clock, service);
    expect(clock.now()!.earliest).toBeGreaterThan(service - 6_000);
    expect(clock.now()!.latest).toBeGreaterThan(service + 73 * 3_600_000);

    kiosk.step(-75 * 3_600_000); // then 2 h behind where it should be
    kiosk.pass(60_000);
    service += 60_000;
    expectHolds(clock, service);
    expect(clock.now()!.latest).toBeLessThan(service + 6_000);
  });

  it('a past instant of the process is bounded too (an attempt dated by the reply that followed it)', () => {
    const { kiosk, clock } = setup();
    const started = clock.instant();
    const serviceAtStart = kiosk.wall - 42_000;
    kiosk.pass(500);
    reply(clock, kiosk, serviceAtStart + 600, 200);
    const bounds = clock.boundsAt(started)!;
    expect(bounds.earliest).toBeLessThanOrEqual(serviceAtStart);
    expect(bounds.latest).toBeGreaterThanOrEqual(serviceAtStart);
    expect(bounds.latest - bounds.earliest).toBeLessThan(2_000);
  });
});

describe('steps of the kiosk clock', () => {
  it('are logged with their size and kept for status; time passing and small slews are not steps', () => {
    const { kiosk, clock, log } = setup();
    clock.instant();
    kiosk.pass(10 * 60_000);
    kiosk.step(150); // an NTP correction within the threshold
    clock.instant();
    expect(log.warnings).toEqual([]);

    kiosk.step(-20 * 60_000);
    kiosk.pass(1_000);
    clock.instant();
    kiosk.step(2 * 86_400_000);
    clock.instant();
    expect(log.warnings.map((line) => [line.event, line.fields['stepMs']])).toEqual([
      ['api.clock.step', -20 * 60_000],
      ['api.clock.step', 2 * 86_400_000],
    ]);
    expect(clock.status().steps.map((step) => step.stepMs)).toEqual([-20 * 60_000, 2 * 86_400_000]);
    expect(clock.status().steps[1]?.at).toBe(new Date(kiosk.wall).toISOString());
  });

  it('status keeps the latest ten', () => {
    const { kiosk, clock } = setup();
    clock.instant();
    for (let i = 1; i <= 12; i += 1) {
      kiosk.step(i * 10_000);
      clock.instant();
    }
    expect(clock.status().steps.map((step) => step.stepMs / 10_000)).toEqual([
      3, 4, 5, 6, 7, 8, 9, 10, 11, 12,
    ]);
  });
});

describe('from the sandbox over HTTP', () => {
  let sandbox: TestSandbox;
  beforeAll(async () => {
    sandbox = await startTestSandbox();
  }, 30_000);
  afterAll(async () => {
    await sandbox?.close();
  });

  it("every reply's Date feeds the client's service clock: the sandbox three hours ahead is seen so", async () => {
    await sandbox.control.advanceClock(3 * 3_600_000);
    const client = new CommerceApiClient({
      baseUrl: sandbox.baseUrl,
      credentials: async () => sandbox.full,
    });
    try {
      expect(client.serviceClock.now()).toBeUndefined();
      await client.health();
      const { offsetMs } = client.serviceClock.status();
      expect(offsetMs).toBeGreaterThan(3 * 3_600_000 - 2_000);
      expect(offsetMs).toBeLessThan(3 * 3_600_000 + 2_000);
      const serviceNow = Date.parse(await sandbox.control.now());
      expect(client.serviceClock.now()!.earliest).toBeLessThanOrEqual(serviceNow);
    } finally {
      client.close();
    }
  });
});
