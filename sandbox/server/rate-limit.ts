import type { SandboxClock } from './clock.ts';
import { rateLimited } from './errors.ts';

export interface RateLimitSettings {
  /** Bucket size: the burst an account may send at once. */
  readonly capacity: number;
  /** Tokens added back per second (sandbox clock). */
  readonly refillPerSecond: number;
}

/** Generous enough that ordinary tests and a kiosk never meet it; the control surface lowers it. */
export const defaultRateLimit: RateLimitSettings = { capacity: 2000, refillPerSecond: 1000 };

interface Bucket {
  tokens: number;
  at: number;
}

/**
 * A token bucket per caller (the account, or the client address for `POST /auth`). A refused
 * request answers 429 with `Retry-After`: the whole seconds until one token is back.
 */
export class RateLimiter {
  readonly #clock: SandboxClock;
  readonly #buckets = new Map<string, Bucket>();
  #settings: RateLimitSettings;

  constructor(clock: SandboxClock, settings: RateLimitSettings = defaultRateLimit) {
    this.#clock = clock;
    this.#settings = settings;
  }

  get settings(): RateLimitSettings {
    return this.#settings;
  }

  /** New settings start every bucket full. */
  configure(settings: RateLimitSettings): void {
    this.#settings = settings;
    this.#buckets.clear();
  }

  reset(): void {
    this.#buckets.clear();
  }

  /** Takes one token for `key` or throws the 429. */
  take(key: string): void {
    const now = this.#clock.nowMs();
    const { capacity, refillPerSecond } = this.#settings;
    const bucket = this.#buckets.get(key) ?? { tokens: capacity, at: now };
    bucket.tokens = Math.min(
      capacity,
      bucket.tokens + ((now - bucket.at) / 1000) * refillPerSecond,
    );
    bucket.at = now;
    this.#buckets.set(key, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return;
    }
    const wait = refillPerSecond > 0 ? (1 - bucket.tokens) / refillPerSecond : 3600;
    throw rateLimited(wait);
  }
}
