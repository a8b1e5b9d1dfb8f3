import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fleetChart } from './chart.ts';
import { runFleet } from './fleet.ts';
import { FleetFlagError, parseFleetFlags } from './flags.ts';
import { summaryLines } from './report.ts';

/**
 * `npm run fleet -- --kiosks 200 --minutes 5`: runs the fleet simulation, prints its summary,
 * writes the JSON report and the SVG chart. Exits 1 when a debit was not applied exactly once,
 * a duplicate was found, or a kiosk never came back in sync; 2 on a bad flag.
 */
async function main(): Promise<number> {
  let flags;
  try {
    flags = parseFleetFlags(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof FleetFlagError)) throw error;
    process.stderr.write(`fleet: ${error.message}\n`);
    return 2;
  }
  const report = await runFleet(flags, { log: (line) => console.log(line) });
  for (const path of [flags.report, flags.chart])
    mkdirSync(dirname(resolve(path)), { recursive: true });
  writeFileSync(flags.report, `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(flags.chart, fleetChart(report));
  for (const line of summaryLines(report)) console.log(line);
  console.log(`fleet: report ${flags.report}, chart ${flags.chart}`);
  const { debits, sync } = report;
  const ok =
    debits.duplicates === 0 &&
    debits.missing === 0 &&
    debits.appliedExactlyOnce === debits.accepted &&
    sync.kiosksBackInSync === report.kiosks;
  return ok ? 0 : 1;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(
      `fleet: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exitCode = 1;
  },
);
