import type { KioskDatabase } from '../storage/index.ts';

export type Durability = 'full' | 'deferred';

interface Queued {
  readonly work: () => unknown;
  readonly durability: Durability;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * The sender's writes of one turn of the event loop, committed together. A commit (its fsync
 * above all) costs more than a debit's request on a local service, and several cards' heads are
 * marked `sending`, and their answers arrive, in the same turn: one transaction carries them all.
 *
 * `run` keeps `db.transaction`'s promise, only later: the returned promise settles once `work`
 * is committed (with the strongest durability any write of the batch asked for), so a caller
 * that sends only after it resolves still sends after its `sending` commit. Writes are
 * compare-and-sets on their own rows, so sharing a transaction changes none of their outcomes;
 * a write that throws is retried in a transaction of its own, so only its caller sees the error.
 */
export class GroupCommit {
  readonly #db: KioskDatabase;
  readonly #replyDue: () => boolean;
  readonly #maxWaitTurns: number;
  #queue: Queued[] = [];
  #transactions = 0;
  #waitedTurns = 0;

  /**
   * `replyDue`: whether a request is under way whose answer, and its card's next mark, could
   * join the commit; then the commit waits for up to `maxWaitTurns` more turns of the event loop
   * (no timer: a turn is as long as the work it does, nothing when the process is idle).
   */
  constructor(
    db: KioskDatabase,
    options: { readonly replyDue?: () => boolean; readonly maxWaitTurns?: number } = {},
  ) {
    this.#db = db;
    this.#replyDue = options.replyDue ?? (() => false);
    this.#maxWaitTurns = options.maxWaitTurns ?? 0;
  }

  /**
   * Which transaction the writes running now belong to: a check that every write of a commit
   * needs (the sender's lease) is made once per value.
   */
  get transaction(): number {
    return this.#transactions;
  }

  run<T>(work: () => T, durability: Durability): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (this.#queue.length === 0) {
        // After the microtasks of this turn: every attempt the sender just launched has queued.
        setImmediate(() => this.#flush());
      }
      this.#queue.push({ work, durability, resolve: resolve as (value: unknown) => void, reject });
    });
  }

  #flush(): void {
    if (this.#waitedTurns < this.#maxWaitTurns && this.#replyDue()) {
      this.#waitedTurns += 1;
      setImmediate(() => this.#flush());
      return;
    }
    this.#waitedTurns = 0;
    const batch = this.#queue;
    this.#queue = [];
    if (batch.length === 1) {
      this.#alone(batch[0]!);
      return;
    }
    const durability = batch.some((entry) => entry.durability === 'full') ? 'full' : 'deferred';
    let values: unknown[];
    try {
      this.#transactions += 1;
      values = this.#db.transaction(() => batch.map((entry) => entry.work()), { durability });
    } catch {
      // Rolled back whole: each write again on its own.
      for (const entry of batch) this.#alone(entry);
      return;
    }
    batch.forEach((entry, index) => entry.resolve(values[index]));
  }

  #alone(entry: Queued): void {
    try {
      this.#transactions += 1;
      entry.resolve(this.#db.transaction(entry.work, { durability: entry.durability }));
    } catch (error) {
      entry.reject(error);
    }
  }
}
