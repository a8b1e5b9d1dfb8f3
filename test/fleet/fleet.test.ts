import { describe, expect, test } from 'vitest';
import { runFleet } from './fleet.ts';
import type { FleetReport } from './report.ts';

/**
 * The short fleet run of issue #18: 20 kiosks for a minute against one sandbox with a
 * service-wide limit, through a network outage of all of them (`npm run fleet` runs the long one,
 * and `npm run bench -- fleet` measures it). Real kiosk parts in two child processes, the
 * sandbox over HTTP, SQLite files.
 */

describe('a fleet of 20 kiosks through a network outage', () => {
  let report: FleetReport;

  test(
    'every accepted debit is applied exactly once, with no duplicate',
    { timeout: 150_000 },
    async () => {
      report = await runFleet({ kiosks: 20, minutes: 1, workers: 2, debitsPerKiosk: 4, seed: 7 });
      const { debits } = report;
      // One debit per kiosk falls inside the outage: some were accepted without the service.
      expect(debits.accepted).toBe(80);
      expect(debits.acceptedOffline).toBeGreaterThan(0);
      expect(debits.refusedLocally).toBe(0);
      expect(debits.duplicates).toBe(0);
      expect(debits.missing).toBe(0);
      expect(debits.appliedExactlyOnce).toBe(debits.accepted);
      expect(debits.notAppliedLocally).toBe(0);
    },
  );

  test('every kiosk comes back in sync (outbox empty, mirror past the outage)', () => {
    expect(report.sync.kiosksBackInSync).toBe(20);
    expect(report.sync.secondsUntilAllInSync).not.toBeNull();
  });

  test('after the outage the herd goes above the limit for a few seconds at most', () => {
    const afterOutage = report.series.filter((entry) => entry.t >= report.outage.toS);
    // The service was used after the outage (the kiosks came back), and measured.
    expect(afterOutage.reduce((sum, entry) => sum + entry.admitted, 0)).toBeGreaterThan(20);
    // Retry-After honoured defers the excess instead of multiplying it: the seconds above the
    // limit are few (a probe period's worth at most) and never reach three times it. (Never above it at all
    // is not met yet: the kiosks release what they held the moment they see the service; see
    // the README's fleet section.)
    const probeS = 60 / 8;
    expect(report.requestRate.secondsAboveLimitAfterOutage).toBeLessThanOrEqual(probeS + 2);
    expect(report.requestRate.peakAfterOutage).toBeLessThan(3 * report.limitPerSecond);
    // 429s are counted, each in its second.
    expect(report.requestRate.after429).toBe(
      afterOutage.reduce((sum, entry) => sum + entry.limited, 0),
    );
  });
});
