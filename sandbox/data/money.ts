import type { z } from 'zod';
import type { Price } from '../../shared/api/catalog.ts';

/**
 * Amounts are computed in integer cents and only turned into EUR numbers at the end, so that
 * `exclTax + vat === inclTax` holds to the cent; adding floats directly drifts (0.1 + 0.2).
 */

export const VAT_RATE_PERCENT = 20;

export function toCents(amount: number): number {
  return Math.round(amount * 100);
}

export function fromCents(cents: number): number {
  return Math.round(cents) / 100;
}

/** The tax-exclusive part of a tax-inclusive amount, rounded to the cent. */
export function exclTaxCents(inclTaxCents: number, vatPercent: number = VAT_RATE_PERCENT): number {
  return Math.round((inclTaxCents * 100) / (100 + vatPercent));
}

export function priceFromCents(inclTaxCents: number): z.infer<typeof Price> {
  return {
    inclTax: fromCents(inclTaxCents),
    exclTax: fromCents(exclTaxCents(inclTaxCents)),
    currency: 'EUR',
  };
}

/** A price without an amount: the item exists but is not priced (e.g. "prix sur demande"). */
export function unpricedPrice(): z.infer<typeof Price> {
  return { inclTax: null, exclTax: null, currency: 'EUR' };
}

/** Shop prices end in .99 or .90 or .00: round a raw euro amount to such a price, in cents. */
export function retailCents(euros: number, ending: 99 | 90 | 0 = 99): number {
  const whole = Math.max(1, Math.floor(euros));
  return ending === 0 ? whole * 100 : (whole - 1) * 100 + ending;
}
