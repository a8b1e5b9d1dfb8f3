import { expect, test } from 'vitest';
import { formatDay, parseDay, shiftDay } from '../../../renderer/input/day-entry.ts';

test('a day as French and Irish English write it, or as ISO; never the browser’s month-first', () => {
  expect(formatDay('2026-11-27', 'fr')).toBe('27/11/2026');
  expect(formatDay('2026-11-27', 'en')).toBe('27/11/2026');
  for (const locale of ['fr', 'en'] as const) {
    expect(parseDay('27/11/2026', locale)).toBe('2026-11-27');
    expect(parseDay(' 7.3.2026 ', locale)).toBe('2026-03-07');
    expect(parseDay('2026-03-14', locale)).toBe('2026-03-14');
    // Not a day of the calendar, or not a day at all: refused, never moved to another.
    for (const bad of ['11/27/2026', '31/02/2026', '29/02/2026', '27/11/26', 'hier', ''])
      expect(parseDay(bad, locale), bad).toBeNull();
  }
  expect(parseDay('29/02/2028', 'fr')).toBe('2028-02-29');
});

test('a day before and after, across months and years', () => {
  expect(shiftDay('2026-03-01', -1)).toBe('2026-02-28');
  expect(shiftDay('2026-12-31', 1)).toBe('2027-01-01');
});
