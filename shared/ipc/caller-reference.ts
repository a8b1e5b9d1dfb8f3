/**
 * The outbox's reference for a debit is the caller's (the sale) plus a suffix of its own, or
 * `kiosk` plus the suffix when the caller gave none (`referenceFor` in electron/outbox/outbox.ts).
 * Reports and alerts show the caller's part only: the suffix is the kiosk's bookkeeping, and
 * `kiosk` is no sale anyone could look up.
 */
const NO_CALLER_REFERENCE = 'kiosk';

/** The sale reference staff gave for a debit, or null when they gave none. */
export function callerReferenceOf(reference: string): string | null {
  const slash = reference.lastIndexOf('/');
  const caller = slash > 0 ? reference.slice(0, slash) : reference;
  return caller === NO_CALLER_REFERENCE ? null : caller;
}
