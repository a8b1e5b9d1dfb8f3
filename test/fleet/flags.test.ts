import { describe, expect, test } from 'vitest';
import { FleetFlagError, parseFleetFlags } from './flags.ts';
import { planFleet } from './plan.ts';

describe('npm run fleet flags', () => {
  test('defaults: 200 kiosks, 5 minutes, 4 workers', () => {
    expect(parseFleetFlags([])).toMatchObject({
      kiosks: 200,
      minutes: 5,
      workers: 4,
      debitsPerKiosk: 5,
      chart: 'docs/fleet/request-rate.svg',
    });
    expect(parseFleetFlags(['--kiosks', '20', '--minutes', '1'])).toMatchObject({
      kiosks: 20,
      minutes: 1,
    });
  });

  test.each([
    [['--kiosks', 'many'], 'kiosks', 'not a number'],
    [['--kiosks', '2.5'], 'kiosks', 'not a whole number'],
    [['--kiosks', '0'], 'kiosks', 'outside 1 to 2000'],
    [['--minutes', ''], 'minutes', 'not a number'],
    [['--kiosks', '2', '--workers', '3'], 'workers', 'at most one each'],
    [['--chart', ' '], 'chart', 'an empty path'],
    [['--kiosk', '2'], 'kiosk', 'Unknown option'],
    [['200'], 'arguments', 'positional'],
  ])('%j is refused with a typed error', (args, flag, message) => {
    let error: unknown;
    try {
      parseFleetFlags(args);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(FleetFlagError);
    expect(error).toMatchObject({ code: 'FLEET_BAD_FLAG', flag });
    expect((error as Error).message).toContain(message);
  });
});

describe('the fleet plan', () => {
  test('each kiosk has one debit inside the outage, all inside the run; the same seed, the same plan', () => {
    const settings = { kiosks: 30, minutes: 2, workers: 2, debitsPerKiosk: 4, seed: 3 };
    const plan = planFleet(settings);
    expect(plan.kiosks).toHaveLength(30);
    for (const kiosk of plan.kiosks) {
      expect(kiosk.debits).toHaveLength(4);
      expect(
        kiosk.debits.filter((d) => d.atMs >= plan.outage.fromMs && d.atMs <= plan.outage.toMs)
          .length,
      ).toBeGreaterThanOrEqual(1);
      for (const debit of kiosk.debits) expect(debit.atMs).toBeLessThan(plan.durationMs);
    }
    expect(planFleet(settings)).toEqual(plan);
  });
});
