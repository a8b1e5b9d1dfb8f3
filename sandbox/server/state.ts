import type { CatalogChange } from '../../shared/api/catalog.ts';
import { advanceActivity } from '../data/activity.ts';
import type { SandboxData } from '../data/model.ts';
import { Random } from '../data/random.ts';
import { seedData } from '../data/seed.ts';
import { type Dialect, dialectNamed } from '../dialects/index.ts';
import { AccountStore } from './accounts.ts';
import { TokenService } from './auth.ts';
import { SandboxClock } from './clock.ts';
import { FaultInjector } from './faults.ts';
import { IdempotencyStore } from './idempotency.ts';
import { DebitLedger } from './ledger.ts';
import { type Logger, createLogger } from './log.ts';
import { type SandboxOptions, defaultSeed, defaultTokenTtlSeconds } from './options.ts';
import { NetworkOutage } from './outage.ts';
import { RateLimiter } from './rate-limit.ts';

/**
 * Everything one sandbox instance holds: the clock, the accounts and their tokens, the seeded
 * data, the idempotency keys, the ledger of applied debits, the armed faults. The HTTP routes and
 * the control surface both work on this object.
 */
export class SandboxState {
  readonly seed: number;
  readonly productCount: number | undefined;
  readonly clock: SandboxClock;
  readonly accounts = new AccountStore();
  readonly tokens: TokenService;
  readonly rateLimiter: RateLimiter;
  readonly idempotency: IdempotencyStore;
  readonly ledger = new DebitLedger();
  readonly faults: FaultInjector;
  /** Set from the control surface only. */
  readonly outage = new NetworkOutage();
  /** Gift cards answer an empty usage list (a service that never fills it); kept by `reset`. */
  emptyUsages: boolean;
  readonly log: Logger;
  /** How 'not shown' shapes look on the wire; the handlers always speak the default dialect. */
  readonly dialect: Dialect;
  data: SandboxData;
  /** Bumped on every catalogue mutation: derived views cached under an older version are stale. */
  catalogVersion = 0;
  #activityRandom: Random;
  readonly #memo = new Map<string, { version: number; value: unknown }>();

  constructor(options: SandboxOptions = {}) {
    this.seed = options.seed ?? defaultSeed;
    this.productCount = options.products;
    this.clock = new SandboxClock(options.now);
    this.log = createLogger(options.log, () => this.clock.now());
    this.dialect = dialectNamed(options.dialect ?? 'default');
    this.tokens = new TokenService(
      this.clock,
      this.accounts,
      options.tokenTtlSeconds ?? defaultTokenTtlSeconds,
    );
    this.rateLimiter = new RateLimiter(this.clock, options.rateLimit, options.serviceRateLimit);
    this.idempotency = new IdempotencyStore(this.clock, options.idempotencyRetentionMs);
    this.faults = new FaultInjector(this.seed);
    this.emptyUsages = options.emptyUsages ?? false;
    this.data = this.#seed();
    this.#activityRandom = new Random(this.seed).fork('activity');
  }

  #seed(): SandboxData {
    return seedData({
      seed: this.seed,
      now: this.clock.now(),
      ...(this.productCount === undefined ? {} : { products: this.productCount }),
    });
  }

  /**
   * Back to the seed, at the current sandbox time: data, accounts (scopes, revocations), token
   * revocations, idempotency keys, ledger and rate-limit buckets. The clock, the armed faults and
   * the empty usage lists stay (they have their own controls).
   */
  reset(): void {
    this.data = this.#seed();
    this.#activityRandom = new Random(this.seed).fork('activity');
    this.accounts.reset();
    this.tokens.clearRevocations();
    this.idempotency.clear();
    this.ledger.clear();
    this.rateLimiter.reset();
    this.catalogVersion += 1;
    this.#memo.clear();
  }

  /**
   * Runs `steps` steps of simulated store activity at the current sandbox time and journals the
   * changes. The change feed relies on the journal being ordered by `updatedAt` and on no change
   * being dated before a window end already handed out, so activity is always dated "now".
   */
  advanceActivity(steps: number): CatalogChange[] {
    const journal = this.data.changes;
    const before = journal.length;
    const changes = advanceActivity(this.data, this.#activityRandom, this.clock.now(), steps);
    // Defensive: the feed's binary search needs a time-ordered journal (the activity promises it).
    const time = (index: number) => Date.parse(journal[index]?.updatedAt ?? '');
    for (let i = Math.max(1, before); i < journal.length; i++) {
      if (time(i - 1) > time(i)) {
        // Stable: insertion order is kept among equal times.
        journal.sort((a, b) => Date.parse(a.updatedAt) - Date.parse(b.updatedAt));
        break;
      }
    }
    // A burst of n steps is dated now, now + 1 ms, ... so its tail would lie in the future of a
    // change-feed window read right after; a real service never hands out a change dated later
    // than its own now, so the clock moves past the last one.
    const lastMs = time(journal.length - 1);
    if (lastMs >= this.clock.nowMs()) this.clock.advance(lastMs - this.clock.nowMs() + 1);
    this.catalogVersion += 1;
    return changes;
  }

  /** A value derived from the catalogue, recomputed only after the catalogue changed. */
  memo<T>(key: string, compute: () => T): T {
    const cached = this.#memo.get(key);
    if (cached && cached.version === this.catalogVersion) return cached.value as T;
    const value = compute();
    if (this.#memo.size > 256) this.#memo.clear();
    this.#memo.set(key, { version: this.catalogVersion, value });
    return value;
  }
}
