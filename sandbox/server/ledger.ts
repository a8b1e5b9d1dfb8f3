/**
 * The ledger of applied gift-card debits: one line per debit the sandbox actually applied (a
 * replayed retry adds nothing), so a test can check that a write retried through a failure was
 * applied exactly once. Only the control surface reads it.
 */
export interface LedgerEntry {
  readonly giftCardId: string;
  readonly usageId: string;
  readonly amount: number;
  readonly currency: 'EUR';
  readonly idempotencyKey: string;
  readonly reference: string | null;
  readonly accountId: string;
  /** ISO 8601, sandbox clock. */
  readonly at: string;
  /** The card's balance after this debit. */
  readonly balanceAfter: number;
}

export class DebitLedger {
  readonly #entries: LedgerEntry[] = [];

  record(entry: LedgerEntry): void {
    this.#entries.push(entry);
  }

  list(giftCardId?: string): readonly LedgerEntry[] {
    return giftCardId === undefined
      ? this.#entries
      : this.#entries.filter((entry) => entry.giftCardId === giftCardId);
  }

  clear(): void {
    this.#entries.length = 0;
  }
}
