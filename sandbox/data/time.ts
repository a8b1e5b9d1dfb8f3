import type { Random } from './random.ts';

/**
 * Seeded timestamps are all derived from the sandbox clock (`now`), never from the wall clock, so
 * that the same seed and `now` give the same data and nothing is ever dated in the future.
 */

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

/**
 * `Date#toISOString` without the Date: a 100k-product catalogue formats about half a million
 * timestamps, and this is several times faster and yields flat strings (no rope nodes to keep).
 * Same output as `toISOString` for years 0000 to 9999.
 */
export function iso(ms: number): string {
  const days = Math.floor(ms / DAY);
  const inDay = ms - days * DAY;
  const codes = dateCodes(days);
  const hours = Math.floor(inDay / HOUR);
  const minutes = Math.floor((inDay % HOUR) / MINUTE);
  const seconds = Math.floor((inDay % MINUTE) / 1000);
  const millis = inDay % 1000;
  codes.push(
    0x54, // T
    48 + Math.floor(hours / 10),
    48 + (hours % 10),
    0x3a,
    48 + Math.floor(minutes / 10),
    48 + (minutes % 10),
    0x3a,
    48 + Math.floor(seconds / 10),
    48 + (seconds % 10),
    0x2e,
    48 + Math.floor(millis / 100),
    48 + (Math.floor(millis / 10) % 10),
    48 + (millis % 10),
    0x5a, // Z
  );
  return String.fromCharCode(...codes);
}

const dayStrings = new Map<number, string>();

/** `YYYY-MM-DD` (UTC) of an instant. Interned per day: item stock dates repeat a lot. */
export function dateOnly(ms: number): string {
  const days = Math.floor(ms / DAY);
  let text = dayStrings.get(days);
  if (text === undefined) {
    text = String.fromCharCode(...dateCodes(days));
    dayStrings.set(days, text);
  }
  return text;
}

/** Character codes of `YYYY-MM-DD` for a count of days since 1970-01-01 (Hinnant's civil_from_days). */
function dateCodes(daysSinceEpoch: number): number[] {
  const z = daysSinceEpoch + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor(
    (doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365,
  );
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  return [
    48 + Math.floor(year / 1000),
    48 + (Math.floor(year / 100) % 10),
    48 + (Math.floor(year / 10) % 10),
    48 + (year % 10),
    0x2d,
    48 + Math.floor(month / 10),
    48 + (month % 10),
    0x2d,
    48 + Math.floor(day / 10),
    48 + (day % 10),
  ];
}

export function yearOf(ms: number): number {
  return new Date(ms).getUTCFullYear();
}

/** A uniformly random instant in [from, to], whole milliseconds. */
export function between(random: Random, from: number, to: number): number {
  return to <= from ? from : from + Math.floor(random.next() * (to - from));
}

/**
 * An instant in [from, to] during shop opening hours when the range allows it: tills, SAV
 * counters and kiosks are busy by day, and a sale at 3 a.m. would look wrong on an invoice.
 */
export function openingHoursBetween(random: Random, from: number, to: number): number {
  const at = between(random, from, to);
  const dayStart = Math.floor(at / DAY) * DAY;
  // 8:30 to 18:00 UTC is 9:30 to 19:00 in Paris in winter, 10:30 to 20:00 in summer: close enough.
  const open = dayStart + 8 * HOUR + 30 * MINUTE + Math.floor(random.next() * 9.5 * HOUR);
  return open >= from && open <= to ? open : at;
}

/** `daysAgo` days before `now`, at a fixed UTC time of day: when the demo records happened. */
export function daysAgoAt(now: number, daysAgo: number, hours: number, minutes = 0): number {
  return Math.floor(now / DAY) * DAY - daysAgo * DAY + hours * HOUR + minutes * MINUTE;
}
