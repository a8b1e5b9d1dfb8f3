import type { KioskDatabase } from './database.ts';

/**
 * A named lease row with an expiry: at most one live holder per name and data directory, across
 * processes (the kiosk app and `kioskctl` open the same file). A holder that dies stops renewing,
 * and another process may take over once the expiry has passed. Every method is one short
 * IMMEDIATE transaction, so two processes asking at once are serialised by SQLite itself.
 */
export interface LeaseOptions {
  readonly name: string;
  /** Unique per holder (host, pid, random): a restarted process is a new holder. */
  readonly owner: string;
  readonly ttlMs: number;
  readonly now: () => number;
  /**
   * False when the current holder is known to be dead (a process of this machine that no longer
   * exists): its lease is taken over at once instead of after its expiry. Undefined: no opinion.
   */
  readonly isHolderAlive?: (owner: string) => boolean | undefined;
}

export interface LeaseHolder {
  readonly owner: string;
  readonly expiresAt: number;
}

export class Lease {
  readonly name: string;
  readonly owner: string;
  readonly ttlMs: number;
  readonly #db: KioskDatabase;
  readonly #now: () => number;
  readonly #isHolderAlive: (owner: string) => boolean | undefined;

  constructor(db: KioskDatabase, options: LeaseOptions) {
    if (!(options.ttlMs > 0)) throw new RangeError('lease ttlMs must be > 0');
    this.#db = db;
    this.name = options.name;
    this.owner = options.owner;
    this.ttlMs = options.ttlMs;
    this.#now = options.now;
    this.#isHolderAlive = options.isHolderAlive ?? (() => undefined);
  }

  /** Takes the lease if it is free, expired or already ours (then it is extended). */
  tryAcquire(): boolean {
    return this.#db.transaction(() => {
      const now = this.#now();
      const current = this.holder();
      if (
        current &&
        current.owner !== this.owner &&
        current.expiresAt > now &&
        this.#isHolderAlive(current.owner) !== false
      ) {
        return false;
      }
      this.#db.connection
        .prepare(
          `INSERT INTO leases (name, owner, acquired_at, expires_at) VALUES (?, ?, ?, ?)
           ON CONFLICT (name) DO UPDATE SET
             owner = excluded.owner,
             acquired_at = CASE WHEN leases.owner = excluded.owner THEN leases.acquired_at ELSE excluded.acquired_at END,
             expires_at = excluded.expires_at`,
        )
        .run(this.name, this.owner, now, now + this.ttlMs);
      return true;
    });
  }

  /**
   * Extends the lease only if we still hold it and it has not expired: a holder that stalled past
   * its expiry must not silently take it back from a successor. Joins an enclosing transaction,
   * so "still the holder" and the write that depends on it commit together.
   */
  renew(): boolean {
    return this.#db.transaction(() => {
      const now = this.#now();
      const result = this.#db.connection
        .prepare(`UPDATE leases SET expires_at = ? WHERE name = ? AND owner = ? AND expires_at > ?`)
        .run(now + this.ttlMs, this.name, this.owner, now);
      return Number(result.changes) === 1;
    });
  }

  release(): void {
    this.#db.transaction(() => {
      this.#db.connection
        .prepare(`DELETE FROM leases WHERE name = ? AND owner = ?`)
        .run(this.name, this.owner);
    });
  }

  holder(): LeaseHolder | undefined {
    const row = this.#db.connection
      .prepare(`SELECT owner, expires_at FROM leases WHERE name = ?`)
      .get(this.name) as { owner: string; expires_at: number } | undefined;
    return row ? { owner: row.owner, expiresAt: row.expires_at } : undefined;
  }
}
