import { runFleet } from '../fleet/fleet.ts';
import type { FleetReport } from '../fleet/report.ts';
import type { Benchmark } from './benchmark.ts';

/**
 * The long fleet run of issue #18 (`npm run bench -- fleet`): 200 kiosks for 5 minutes against
 * one sandbox with a service-wide limit, through a network outage of all of them. One run gives
 * every figure; a run that loses or duplicates a debit, or leaves a kiosk out of sync, fails
 * instead of reporting. The peak request rate after the outage is measured against the limit
 * (ratio <= 1: the herd stayed under it).
 */

const KIOSKS = 200;
const MINUTES = 5;

let fleet: Promise<FleetReport> | undefined;
function fleetRun(): Promise<FleetReport> {
  fleet ??= runFleet({
    kiosks: KIOSKS,
    minutes: MINUTES,
    workers: 4,
    debitsPerKiosk: 5,
    seed: 1,
  }).then((report) => {
    const { debits, sync } = report;
    if (debits.duplicates > 0 || debits.appliedExactlyOnce !== debits.accepted)
      throw new Error(
        `${debits.accepted} debits accepted, ${debits.appliedExactlyOnce} applied exactly once, ${debits.duplicates} duplicates`,
      );
    if (sync.secondsUntilAllInSync === null)
      throw new Error(`${sync.kiosksBackInSync} of ${KIOSKS} kiosks came back in sync`);
    return report;
  });
  return fleet;
}

const benchmarks: Benchmark[] = [
  {
    name: `fleet: ${KIOSKS} kiosks, ${MINUTES} min: outage's end to every kiosk back in sync`,
    unit: 's',
    run: async () => ({ value: (await fleetRun()).sync.secondsUntilAllInSync! }),
  },
  {
    name: `fleet: ${KIOSKS} kiosks: peak requests per second after the outage (vs the limit)`,
    unit: 'req/s',
    run: async () => {
      const report = await fleetRun();
      return { value: report.requestRate.peakAfterOutage, baseline: report.limitPerSecond };
    },
  },
  {
    name: `fleet: ${KIOSKS} kiosks: 429s after the outage`,
    unit: 'responses',
    run: async () => ({ value: (await fleetRun()).requestRate.after429 }),
  },
  {
    name: `fleet: ${KIOSKS} kiosks: debits applied exactly once`,
    unit: 'debits',
    run: async () => {
      const { debits } = await fleetRun();
      return { value: debits.appliedExactlyOnce, baseline: debits.accepted };
    },
  },
];

export default benchmarks;
