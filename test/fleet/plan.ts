import { Random } from '../support/random.ts';

/**
 * What a fleet run does, fixed before it starts: how many kiosks, when each starts and debits,
 * when the network outage begins and ends, the kiosks' schedules and the service's limit. Times
 * are ms from the run's start (t0). Everything is drawn from `seed`, so a run can be replayed
 * (real time still decides the interleaving).
 */

export interface FleetSettings {
  readonly kiosks: number;
  readonly minutes: number;
  /** Child processes the kiosks are spread over. */
  readonly workers: number;
  readonly debitsPerKiosk: number;
  readonly seed: number;
}

export interface KioskPlan {
  readonly index: number;
  readonly startAtMs: number;
  /** Each debit's time and amount (EUR); the first falls inside the outage. */
  readonly debits: readonly { readonly atMs: number; readonly amount: number }[];
  readonly seed: number;
}

export interface FleetPlan {
  readonly settings: FleetSettings;
  readonly durationMs: number;
  /** Kiosks start one after the other over this long, as stores open. */
  readonly startSpreadMs: number;
  readonly outage: { readonly fromMs: number; readonly toMs: number };
  /** The kiosk's connectivity probe period (the app's default 15 s, shorter for short runs). */
  readonly probeMs: number;
  /** The catalogue change-feed period (the app's default 60 s, shorter for short runs). */
  readonly changeFeedMs: number;
  /** The service-wide limit: a bucket of `perSecond` tokens refilled at `perSecond`. */
  readonly limitPerSecond: number;
  /** After the run, how long the kiosks get to send what they hold and catch up. */
  readonly settleTimeoutMs: number;
  readonly kiosks: readonly KioskPlan[];
}

export function planFleet(settings: FleetSettings): FleetPlan {
  const durationMs = Math.round(settings.minutes * 60_000);
  const random = new Random(settings.seed).fork('fleet');
  const outage = { fromMs: Math.round(durationMs * 0.35), toMs: Math.round(durationMs * 0.55) };
  const startSpreadMs = Math.min(30_000, Math.round(durationMs * 0.25));
  const kiosks = Array.from({ length: settings.kiosks }, (_, index): KioskPlan => {
    const startAtMs = Math.round(random.float(0, startSpreadMs));
    // One debit while the network is down (accepted offline), the others anywhere in the run.
    const times = [random.float(outage.fromMs, outage.toMs)];
    for (let i = 1; i < settings.debitsPerKiosk; i++)
      times.push(random.float(startAtMs + 2_000, durationMs - 2_000));
    return {
      index,
      startAtMs,
      debits: times
        .sort((a, b) => a - b)
        .map((atMs) => ({ atMs: Math.round(atMs), amount: random.int(1, 5) / 100 })),
      seed: random.int(1, 2 ** 31 - 1),
    };
  });
  const probeMs = Math.min(15_000, Math.round(durationMs / 8));
  return {
    settings,
    durationMs,
    startSpreadMs,
    outage,
    probeMs,
    changeFeedMs: Math.min(60_000, Math.round(durationMs / 4)),
    // A kiosk back from an outage sends about five requests (its held debits, the change feed
    // and the products it names); spread over one probe period they fit with half again to
    // spare. All at once they do not: a stampede goes over.
    limitPerSecond: Math.max(10, Math.ceil(((settings.kiosks * 5) / (probeMs / 1000)) * 1.5)),
    settleTimeoutMs: Math.max(60_000, durationMs),
    kiosks,
  };
}
