import { intlTagOf, type Locale } from '../i18n/locale.ts';

/**
 * A calendar day typed as staff write it in the kiosk's language (27/11/2026 in French and in
 * Irish English, the order Intl gives), or as ISO (2026-11-27). Chromium's own date field shows
 * the browser's locale, not the kiosk's (11/27/2026 on a French screen), so the kiosk reads and
 * writes the text itself.
 */

type Part = 'day' | 'month' | 'year';

/** The order of day, month and year in the locale's numeric date. */
function orderOf(locale: Locale): Part[] {
  return new Intl.DateTimeFormat(intlTagOf(locale), {
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
    timeZone: 'UTC',
  })
    .formatToParts(new Date(Date.UTC(2026, 10, 27)))
    .flatMap((part) =>
      part.type === 'day' || part.type === 'month' || part.type === 'year' ? [part.type] : [],
    );
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** `YYYY-MM-DD` as the locale writes it numerically: 27/11/2026. */
export function formatDay(iso: string, locale: Locale): string {
  return new Intl.DateTimeFormat(intlTagOf(locale), {
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(`${iso}T00:00:00Z`));
}

/** The day typed, as `YYYY-MM-DD`; null when it is no real calendar day. */
export function parseDay(text: string, locale: Locale): string | null {
  const trimmed = text.trim();
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(trimmed);
  let year: number, month: number, day: number;
  if (iso) {
    [year, month, day] = [Number(iso[1]), Number(iso[2]), Number(iso[3])];
  } else {
    const numbers = /^(\d{1,4})[/.-](\d{1,2})[/.-](\d{1,4})$/.exec(trimmed);
    if (!numbers) return null;
    const values = [numbers[1], numbers[2], numbers[3]].map(Number);
    const order = orderOf(locale);
    const at = (part: Part) => values[order.indexOf(part)]!;
    [year, month, day] = [at('year'), at('month'), at('day')];
    if (String(year).length !== 4) return null;
  }
  const date = new Date(Date.UTC(year, month - 1, day));
  // Date rolls 31/02 over to March: a day that does not exist is refused, not moved.
  if (
    date.getUTCFullYear() !== year ||
    date.getUTCMonth() !== month - 1 ||
    date.getUTCDate() !== day
  )
    return null;
  return `${pad(year, 4)}-${pad(month)}-${pad(day)}`;
}

/** The day before or after `iso`. */
export function shiftDay(iso: string, days: number): string {
  const date = new Date(`${iso}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}
