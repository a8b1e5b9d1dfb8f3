import type { HistoryEntryView as HistoryEntry } from '../../shared/ipc/records.ts';

/**
 * Newest first, whatever order the service lists them in: the purchase the customer is asking
 * about is usually the last one. Entries without a date keep their order, after the dated ones.
 */
export function newestFirst(entries: readonly HistoryEntry[]): HistoryEntry[] {
  return entries
    .map((entry, index) => ({
      entry,
      index,
      at: entry.date === null ? NaN : Date.parse(entry.date),
    }))
    .sort((a, b) => {
      if (Number.isNaN(a.at) || Number.isNaN(b.at)) {
        return Number.isNaN(a.at) === Number.isNaN(b.at)
          ? a.index - b.index
          : Number.isNaN(a.at)
            ? 1
            : -1;
      }
      return b.at - a.at || a.index - b.index;
    })
    .map(({ entry }) => entry);
}
