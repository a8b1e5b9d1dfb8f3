import type { ServiceTimeBounds } from '../api/index.ts';

/**
 * A debit's times on the service's clock (migration 005), each the bound that keeps a decision
 * safe, null where the process had no dated reply to go by. Ages are judged on these and never on
 * the kiosk's wall clock alone: a clock stepped 73 h ahead must not expire a debit accepted a
 * minute ago, nor one stepped back two days make a forgotten key look remembered.
 */
export interface DebitServiceTimes {
  /** At the latest, when the debit was accepted. */
  readonly createdAt: number | null;
  /** The start of the last attempt. */
  readonly lastAttempt: { readonly earliest: number; readonly latest: number } | null;
  /** At the earliest, the first attempt that may have reached the service. */
  readonly reachedAt: number | null;
}

/**
 * True only when the service's clock proves the debit is at least `maxAgeMs` old: on a reading
 * a second reply confirmed (`ServiceTimeBounds.confirmed`), never on one reply alone.
 */
export function provablyOlderThan(
  times: DebitServiceTimes,
  serviceNow: ServiceTimeBounds | undefined,
  maxAgeMs: number,
): boolean {
  if (times.createdAt === null || serviceNow === undefined || !serviceNow.confirmed) return false;
  return serviceNow.earliest - times.createdAt >= maxAgeMs;
}

/**
 * How long the last attempt may still be under way at the service (a request the kiosk gave up
 * on can be processed a while later), on the service's clock when both ends are known. Otherwise
 * on the wall clock, where an attempt dated in the future (the clock went back) counts as over:
 * the row would else wait as long as the step.
 */
export function inFlightRemainingMs(input: {
  readonly times: DebitServiceTimes;
  readonly serviceNow: ServiceTimeBounds | undefined;
  readonly lastAttemptAt: number | null;
  readonly now: number;
  readonly graceMs: number;
}): number {
  const { times, serviceNow, lastAttemptAt, now, graceMs } = input;
  if (times.lastAttempt && serviceNow) {
    return clamp(times.lastAttempt.latest + graceMs - serviceNow.earliest, graceMs);
  }
  if (lastAttemptAt === null || lastAttemptAt > now) return 0;
  return clamp(lastAttemptAt + graceMs - now, graceMs);
}

function clamp(ms: number, max: number): number {
  return Math.min(Math.max(0, ms), max);
}
