import { z } from 'zod';
import { IdFilter } from '../api/primitives.ts';
import { lazySchema } from './lazy-schema.ts';

/**
 * Request building blocks. IPC requests are typed values from our own renderer, never strings
 * from a URL, so nothing here coerces: a number sent as "3" is refused, not converted.
 */

/**
 * A record identifier as the service returned it: the spec's 1 to 64 characters, well-formed
 * Unicode, no surrounding spaces (a pasted id keeps none; a stored one must be the service's own).
 * The one id rule of every door that names a record (IPC, the browser host, `kioskctl outbox`).
 */
export const RecordId = lazySchema(() =>
  IdFilter.refine((value) => value.trim() === value, {
    message: 'no spaces around an identifier',
  }),
);

export const Page = lazySchema(() => z.number().int().min(1).max(10_000));
export const PageLimit = lazySchema(() => z.number().int().min(1).max(100));

/** The administrator PIN: 4 to 12 digits, checked in main before a protected message runs. */
export const AdminPin = lazySchema(() =>
  z.string().regex(/^\d{4,12}$/, { message: 'expected 4 to 12 digits' }),
);

/** A request with nothing in it: `{}` exactly (extra keys are refused like anywhere else). */
export const EmptyRequest = lazySchema(() => z.strictObject({}));

/** An ISO 8601 time as main formats it (`Date#toISOString`). */
export const IsoTime = lazySchema(() => z.string().min(1).max(64));

/** Bytes cross both transports (Electron IPC and the loopback HTTP host) as base64 text. */
export const Base64 = lazySchema(() => z.base64());
