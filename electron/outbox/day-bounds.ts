/**
 * A local calendar day as epoch milliseconds [from, to): the end-of-day report is about the
 * store's day, in the kiosk's time zone, and a DST change makes that day 23 or 25 hours long.
 */
export function localDayBounds(date: string): { from: number; to: number } {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  return {
    from: new Date(year, month - 1, day).getTime(),
    to: new Date(year, month - 1, day + 1).getTime(),
  };
}

/** The local calendar day (`YYYY-MM-DD`) an instant falls on. */
export function localDateOf(ms: number): string {
  const at = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`;
}
