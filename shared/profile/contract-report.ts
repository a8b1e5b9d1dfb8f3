import { z } from 'zod';

/**
 * What `kioskctl contract check` (and the setup screen's "Check the service") found: for every
 * read operation the kiosk uses, how it answered and, for each value the profile reads, where it
 * was found or why not. No personal data: names, paths and types only, never a value.
 */

export const ValueReport = z.strictObject({
  record: z.string(),
  field: z.string(),
  /** The kiosk cannot work without it. */
  needed: z.boolean(),
  status: z.enum(['found', 'wrong-type', 'missing', 'not-provided', 'not-checked']),
  /** Where it was found (found, wrong-type). */
  path: z.string().nullable(),
  /** The type the service returned there (wrong-type), or the type found (found). */
  typeFound: z.string().nullable(),
  /** Fields of the right type with a similar name, for a missing or wrong-type value. */
  suggestions: z.array(z.string()),
});
export type ValueReport = z.infer<typeof ValueReport>;

export const OperationReport = z.strictObject({
  operationId: z.string(),
  /** HTTP status, or null when nothing answered. */
  status: z.number().int().nullable(),
  outcome: z.enum(['ok', 'error', 'skipped']),
  /** Why it failed or was skipped (no id to read, a missing scope...). */
  note: z.string().nullable(),
  values: z.array(ValueReport),
  /** Fields the service returned that the profile does not use (dotted paths). */
  unusedFields: z.array(z.string()),
});
export type OperationReport = z.infer<typeof OperationReport>;

export const ContractReport = z.strictObject({
  profileName: z.string(),
  checkedAt: z.string(),
  /**
   * True when every value the kiosk needs resolves (or the service gave no example of it), no read
   * was refused and the debit body is decided.
   */
  ok: z.boolean(),
  operations: z.array(OperationReport),
  /** `record.field` of every needed value that does not resolve. */
  missingNeeded: z.array(z.string()),
  /**
   * `record.field` of every value the service gave no example of (an empty usage list, a list
   * with no records): not checked, and not a failure. `--gift-card`, `--customer` and `--sale`
   * point the check at records that have them.
   */
  notChecked: z.array(z.string()),
  /** Reads the service refused with a 4xx (`operationId: status code`): the check fails. */
  refused: z.array(z.string()),
  /** The debit body template's undecided slots (`"?"`): checked without sending a debit. */
  debitBodyUndecided: z.array(z.string()),
});
export type ContractReport = z.infer<typeof ContractReport>;
