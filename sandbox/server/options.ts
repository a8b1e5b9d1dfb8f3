import type { DialectName } from '../dialects/index.ts';
import type { LogSink } from './log.ts';
import type { RateLimitSettings } from './rate-limit.ts';

export interface SandboxOptions {
  /** TCP port on 127.0.0.1; 0 (the default) picks a free one. */
  readonly port?: number;
  /** Seed of the demo data and of every random draw (default 1). */
  readonly seed?: number;
  /** Catalogue size; the data generator's demo size when absent. */
  readonly products?: number;
  /** Serve the `/__sandbox/` control surface (default false: those routes do not exist). */
  readonly control?: boolean;
  /** Lifetime of issued tokens in seconds, on the sandbox clock (default 900). */
  readonly tokenTtlSeconds?: number;
  /** Sandbox time at start-up (default: the real time). */
  readonly now?: Date;
  /** How long an idempotency key is remembered, sandbox clock (default 24 h). */
  readonly idempotencyRetentionMs?: number;
  /** Per-account token bucket (default: generous). */
  readonly rateLimit?: RateLimitSettings;
  /** One token bucket for the whole service, on top of the per-account ones (default: none). */
  readonly serviceRateLimit?: RateLimitSettings;
  /** When set, the simulated store activity advances by one step every this many real ms. */
  readonly activityIntervalMs?: number;
  /**
   * How the records, parameters and debit body the specification leaves 'not shown' are shaped
   * on the wire (default `default`, the shapes of `shared/api/`).
   */
  readonly dialect?: DialectName;
  /** Where log lines go (one JSON object a line); nothing is logged without it. */
  readonly log?: LogSink;
  /**
   * Every gift card answers an empty usage list (`include=usages` gives `[]`), as many real
   * services do: debits are still applied, and in the ledger, but cannot be found back in the
   * card's usages (default false; also `PUT /__sandbox/usages`).
   */
  readonly emptyUsages?: boolean;
}

export const defaultSeed = 1;
export const defaultTokenTtlSeconds = 15 * 60;
