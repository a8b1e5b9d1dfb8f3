import { intlTagOf, type Locale } from './locale.ts';

/**
 * Formatting only: every amount, price and date shown is the service's value, turned into text
 * for the chosen language. Nothing here adds, rounds or converts a value.
 */
export interface Formatters {
  readonly locale: Locale;
  money(amount: number): string;
  /** An ISO 8601 date-time, as date and time in the kiosk's time zone. */
  dateTime(iso: string): string;
  /** A `YYYY-MM-DD` date, as a calendar date (no time zone shift). */
  date(isoDate: string): string;
  integer(value: number): string;
  /** A duration in the largest unit that keeps it readable: "3 min", "2 h", "4 days". */
  duration(ms: number): string;
}

const dateOnly = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Built on first use: each Intl formatter costs the page's start a few milliseconds. */
function lazy<T>(build: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= build());
}

/**
 * Counts under a thousand read the same in every language the kiosk speaks (Latin digits, no
 * grouping, no sign), so the first screen's counts need no Intl formatter built for them.
 */
function smallCount(value: number): boolean {
  return Number.isInteger(value) && (value > 0 || Object.is(value, 0)) && value < 1000;
}

export function createFormatters(locale: Locale): Formatters {
  const tag = intlTagOf(locale);
  const money = lazy(() => new Intl.NumberFormat(tag, { style: 'currency', currency: 'EUR' }));
  const integer = lazy(() => new Intl.NumberFormat(tag, { maximumFractionDigits: 0 }));
  const dateTime = lazy(
    () => new Intl.DateTimeFormat(tag, { dateStyle: 'medium', timeStyle: 'short' }),
  );
  // Date-only values are calendar days: formatted in UTC so no time zone moves them a day.
  const date = lazy(() => new Intl.DateTimeFormat(tag, { dateStyle: 'medium', timeZone: 'UTC' }));
  const unit = (name: 'second' | 'minute' | 'hour' | 'day', unitDisplay: 'short' | 'long') =>
    lazy(() => new Intl.NumberFormat(tag, { style: 'unit', unit: name, unitDisplay }));
  const units = {
    second: unit('second', 'short'),
    minute: unit('minute', 'short'),
    hour: unit('hour', 'short'),
    day: unit('day', 'long'),
  };

  return {
    locale,
    money: (amount) => money().format(amount),
    dateTime: (iso) => {
      const time = new Date(iso);
      return Number.isNaN(time.getTime()) ? iso : dateTime().format(time);
    },
    date: (isoDate) => {
      const match = dateOnly.exec(isoDate);
      if (!match) return isoDate;
      return date().format(
        new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]))),
      );
    },
    integer: (value) => (smallCount(value) ? String(value) : integer().format(value)),
    duration: (ms) => {
      const seconds = Math.max(0, Math.floor(ms / 1000));
      if (seconds < 60) return units.second().format(seconds);
      const minutes = Math.floor(seconds / 60);
      if (minutes < 60) return units.minute().format(minutes);
      const hours = Math.floor(minutes / 60);
      if (hours < 48) return units.hour().format(hours);
      return units.day().format(Math.floor(hours / 24));
    },
  };
}
