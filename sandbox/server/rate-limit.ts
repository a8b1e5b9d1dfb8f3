import type { SandboxClock } from './clock.ts';
import { rateLimited } from './errors.ts';
import { RequestRateRecorder } from './request-rate.ts';

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

/** Refills `bucket` up to now; the seconds until it holds one token (0: it has one). */
function refill(bucket: Bucket, settings: RateLimitSettings, now: number): number {
  bucket.tokens = Math.min(
    settings.capacity,
    bucket.tokens + ((now - bucket.at) / 1000) * settings.refillPerSecond,
  );
  bucket.at = now;
  if (bucket.tokens >= 1) return 0;
  return settings.refillPerSecond > 0 ? (1 - bucket.tokens) / settings.refillPerSecond : 3600;
}

/**
 * A token bucket per caller (the account, or the client address for `POST /auth`), and, when
 * set, one bucket for the whole service: a fleet of kiosks is a load on the service, not on one
 * account. A request takes a token from both; a refused one takes none and answers 429 with
 * `Retry-After`: the whole seconds until both buckets hold a token again. Every request that
 * meets the limiter is counted per second (`rate`).
 */
export class RateLimiter {
  readonly #clock: SandboxClock;
  readonly #buckets = new Map<string, Bucket>();
  readonly rate = new RequestRateRecorder();
  #settings: RateLimitSettings;
  #service: { settings: RateLimitSettings; bucket: Bucket } | null = null;

  constructor(
    clock: SandboxClock,
    settings: RateLimitSettings = defaultRateLimit,
    service?: RateLimitSettings,
  ) {
    this.#clock = clock;
    this.#settings = settings;
    if (service) this.configureService(service);
  }

  get settings(): RateLimitSettings {
    return this.#settings;
  }

  /** The service-wide limit; null when only the per-caller buckets apply. */
  get serviceSettings(): RateLimitSettings | null {
    return this.#service?.settings ?? null;
  }

  /** New settings start every bucket full. */
  configure(settings: RateLimitSettings): void {
    this.#settings = settings;
    this.#buckets.clear();
  }

  /** A service-wide limit (null: none), its bucket full. */
  configureService(settings: RateLimitSettings | null): void {
    this.#service =
      settings === null
        ? null
        : { settings, bucket: { tokens: settings.capacity, at: this.#clock.nowMs() } };
  }

  reset(): void {
    this.#buckets.clear();
    if (this.#service) this.configureService(this.#service.settings);
    this.rate.clear();
  }

  /** Takes one token for `key` (and one of the service's) or throws the 429. */
  take(key: string): void {
    const now = this.#clock.nowMs();
    const bucket = this.#buckets.get(key) ?? { tokens: this.#settings.capacity, at: now };
    this.#buckets.set(key, bucket);
    const wait = Math.max(
      refill(bucket, this.#settings, now),
      this.#service ? refill(this.#service.bucket, this.#service.settings, now) : 0,
    );
    if (wait > 0) {
      this.rate.record(now, 'limited');
      throw rateLimited(wait);
    }
    bucket.tokens -= 1;
    if (this.#service) this.#service.bucket.tokens -= 1;
    this.rate.record(now, 'admitted');
  }
}
