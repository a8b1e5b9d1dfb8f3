import { describe, expect, it } from 'vitest';
import { createFormatters } from '../../../renderer/i18n/formatters.ts';
import { intlTagOf } from '../../../renderer/i18n/locale.ts';
import { locales } from '../../../shared/ipc/status.ts';

describe('integer', () => {
  // Counts under a thousand skip Intl: they must read exactly as Intl would write them.
  for (const locale of locales) {
    it(`writes every count as Intl does in ${locale}`, () => {
      const intl = new Intl.NumberFormat(intlTagOf(locale), { maximumFractionDigits: 0 });
      const { integer } = createFormatters(locale);
      const values = [
        ...Array.from({ length: 1_001 }, (_, i) => i),
        -0,
        -1,
        -999,
        1_234,
        12_345_678,
        2.5,
        999.6,
      ];
      for (const value of values) expect(integer(value), String(value)).toBe(intl.format(value));
    });
  }

  it('groups thousands by the language', () => {
    expect(createFormatters('en').integer(12_345)).toBe('12,345');
    expect(createFormatters('fr').integer(12_345)).toBe('12\u202f345');
  });
});
