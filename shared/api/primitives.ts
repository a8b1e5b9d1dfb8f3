import { z } from 'zod';

/**
 * Building blocks shared by every schema of the contract.
 * Query values arrive as strings on the wire and as typed values from our own client,
 * so the query helpers accept both and always output the typed value.
 */

/**
 * Text that is well-formed Unicode. A lone UTF-16 surrogate (`"\ud800"`) is a valid JS string and
 * valid JSON, but no UTF-8 can hold it: SQLite stores U+FFFD instead (a debit filed under another
 * card), a URL encoder throws (an internal error), a search normalises it away (everything
 * matches). Every id and text a door takes is built on this.
 */
export const Text = z.string().refine((value) => value.isWellFormed(), {
  message: 'not well-formed Unicode (a lone UTF-16 surrogate)',
});

/** Opaque public identifier: never a UUID validator (`customer_...`, `shop_...` exist). */
export const Id = Text.min(1);

/** An identifier filter of the spec's limits table: 1 to 64 characters. */
export const IdFilter = Text.min(1).max(64);

/** ISO 8601 date-time with an offset or `Z`. */
export const DateTime = z.iso.datetime({ offset: true });

/** Date-only value, `YYYY-MM-DD`. */
export const DateOnly = z.iso.date();

export const Currency = z.enum(['EUR']);

/** An amount in EUR as the service computed it, never recomputed by clients. */
export const Amount = z.number();

function integerSchema(range: { min: number; max?: number }) {
  const schema = z.coerce.number().int().min(range.min);
  return range.max === undefined ? schema : schema.max(range.max);
}
type IntegerSchema = ReturnType<typeof integerSchema>;

/**
 * Integer query parameter with a range and a default. The overloads keep the default in the
 * type: with one, the parsed value is a number, never undefined.
 */
export function queryInteger(range: {
  min: number;
  max?: number;
  default: number;
}): z.ZodDefault<IntegerSchema>;
export function queryInteger(range: { min: number; max?: number }): z.ZodOptional<IntegerSchema>;
export function queryInteger(range: { min: number; max?: number; default?: number }) {
  const schema = integerSchema(range);
  return range.default === undefined ? schema.optional() : schema.default(range.default);
}

function booleanSchema() {
  return z
    .union([z.boolean(), z.enum(['true', 'false']).transform((value) => value === 'true')])
    .meta({ type: 'boolean' });
}
type BooleanSchema = ReturnType<typeof booleanSchema>;

/** Boolean query parameter: `true`/`false` on the wire (nothing else), a boolean in code. */
export function queryBoolean(defaultValue: boolean): z.ZodDefault<BooleanSchema>;
export function queryBoolean(): z.ZodOptional<BooleanSchema>;
export function queryBoolean(defaultValue?: boolean) {
  const schema = booleanSchema();
  return defaultValue === undefined
    ? schema.optional()
    : schema.default(defaultValue).meta({ type: 'boolean', default: defaultValue });
}

/**
 * A comma-separated list without spaces, each element from `values`: `include` and `types`.
 * Refuses spaces, empty elements and unknown values; duplicates are harmless and kept.
 */
export function commaList<const T extends readonly [string, ...string[]]>(values: T) {
  const alternatives = values
    .map((value) => value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('|');
  return z
    .string()
    .regex(new RegExp(`^(${alternatives})(,(${alternatives}))*$`), {
      message: `expected a comma-separated list without spaces of: ${values.join(', ')}`,
    })
    .meta({
      description: `Comma-separated list without spaces; each element one of: ${values.join(', ')}.`,
    });
}

/** Splits a validated comma list into its elements. */
export function splitCommaList<T extends string>(list: string | undefined): T[] {
  return list === undefined ? [] : (list.split(',') as T[]);
}

export const page = queryInteger({ min: 1, default: 1 }).meta({
  description: 'Page number, minimum 1.',
});

/** The spec's largest page on every list route. */
export const MAX_PAGE_SIZE = 500;

/** Page size up to the maximum, with the route's default (100 for the change feed, else 50). */
export function limit(defaultValue: number) {
  return queryInteger({ min: 1, max: MAX_PAGE_SIZE, default: defaultValue }).meta({
    description: `Maximum page size, 1 to ${MAX_PAGE_SIZE}, default ${defaultValue}.`,
  });
}

export const Money = z.strictObject({ amount: Amount, currency: Currency });
