import { parseArgs } from 'node:util';
import type { FleetSettings } from './plan.ts';

/** A command-line flag of `npm run fleet` that cannot be used; nothing was started. */
export class FleetFlagError extends Error {
  override readonly name = 'FleetFlagError';
  readonly code = 'FLEET_BAD_FLAG';
  readonly flag: string;

  constructor(flag: string, message: string) {
    super(`--${flag}: ${message}`);
    this.flag = flag;
  }
}

export interface FleetFlags extends FleetSettings {
  /** The SVG chart of request rate against the limit. */
  readonly chart: string;
  /** The JSON report. */
  readonly report: string;
}

export const fleetUsage =
  'usage: npm run fleet -- [--kiosks 200] [--minutes 5] [--workers 4] [--debits 5] [--seed 1]' +
  ' [--chart docs/fleet/request-rate.svg] [--report out/fleet/report.json]';

const bounds = {
  kiosks: { min: 1, max: 2_000, integer: true },
  minutes: { min: 0.5, max: 120, integer: false },
  workers: { min: 1, max: 64, integer: true },
  debits: { min: 1, max: 100, integer: true },
  seed: { min: 0, max: 2 ** 32 - 1, integer: true },
} as const;

function numberFlag(name: keyof typeof bounds, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  const { min, max, integer } = bounds[name];
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value))
    throw new FleetFlagError(name, `"${text}" is not a number`);
  if (integer && !Number.isInteger(value))
    throw new FleetFlagError(name, `"${text}" is not a whole number`);
  if (value < min || value > max)
    throw new FleetFlagError(name, `${value} is outside ${min} to ${max}`);
  return value;
}

export function parseFleetFlags(args: readonly string[]): FleetFlags {
  let values: Record<string, string | undefined>;
  try {
    ({ values } = parseArgs({
      args: [...args],
      strict: true,
      allowPositionals: false,
      options: {
        kiosks: { type: 'string' },
        minutes: { type: 'string' },
        workers: { type: 'string' },
        debits: { type: 'string' },
        seed: { type: 'string' },
        chart: { type: 'string' },
        report: { type: 'string' },
      },
    }) as { values: Record<string, string | undefined> });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const flag = /'(--?[\w-]+)/.exec(message)?.[1]?.replace(/^-+/, '') ?? 'arguments';
    throw new FleetFlagError(flag, `${message}\n${fleetUsage}`);
  }
  const kiosks = numberFlag('kiosks', values.kiosks, 200);
  const workers = numberFlag('workers', values.workers, Math.min(4, kiosks));
  if (workers > kiosks)
    throw new FleetFlagError(
      'workers',
      `${workers} workers for ${kiosks} kiosks: at most one each`,
    );
  for (const path of ['chart', 'report'] as const) {
    if (values[path] !== undefined && values[path].trim() === '')
      throw new FleetFlagError(path, 'an empty path');
  }
  return {
    kiosks,
    minutes: numberFlag('minutes', values.minutes, 5),
    workers,
    debitsPerKiosk: numberFlag('debits', values.debits, 5),
    seed: numberFlag('seed', values.seed, 1),
    chart: values.chart ?? 'docs/fleet/request-rate.svg',
    report: values.report ?? 'out/fleet/report.json',
  };
}
