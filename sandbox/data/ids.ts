import type { Random } from './random.ts';

/**
 * Public identifiers as the service shapes them: a kind prefix then an opaque part. Clients must
 * treat them as opaque strings, so the sandbox mixes shapes on purpose (uuid, hex, slug).
 */
export type IdPrefix =
  | 'prod'
  | 'item'
  | 'customer'
  | 'sale'
  | 'inv'
  | 'sav'
  | 'deposit'
  | 'credit'
  | 'order'
  | 'gift_card'
  | 'usage';

/**
 * Strings of the catalogue are built with `join`, which yields one flat string, where `+` and
 * template literals leave a rope of concatenation nodes behind: on a 100k catalogue that is
 * tens of megabytes of heap and seconds of garbage collection.
 */
export function flat(...parts: (string | number)[]): string {
  return parts.join('');
}

/** `<prefix>_<uuid>`, e.g. `customer_3f1c...`. */
export function prefixedUuid(prefix: IdPrefix, random: Random): string {
  return flat(prefix, '_', random.uuid());
}

/** `<prefix>_<hex>`: the compact shape used for catalogue records, which exist by the hundred thousand. */
export function prefixedHex(prefix: 'prod' | 'item', random: Random): string {
  return flat(prefix, '_', random.hex(16));
}

/** Human numbers of documents: `V-2026-000123`, `SAV-2026-00042`. */
export function documentNumber(
  prefix: string,
  year: number,
  sequence: number,
  digits: number,
): string {
  return `${prefix}-${year}-${String(sequence).padStart(digits, '0')}`;
}
