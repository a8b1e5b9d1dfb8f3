import { type Logger, silentLogger } from '../logging/index.ts';
import { type Clock, monotonicNow } from '../foundation/index.ts';
import type { Transport } from './transport.ts';

/**
 * The service's clock as this process can know it: every reply's `Date` header, carried forward
 * by the monotonic clock. What the service decides by its own clock (how long it keeps an
 * `Idempotency-Key`) must be judged on it, not on the kiosk's wall clock, which RTC drift, a
 * time-zone fix or a technician can step by hours.
 *
 * The estimate is a pair of bounds, never a single guess: `Date` has a one-second resolution and
 * was written somewhere between sending and receiving, and between two readings the elapsed time
 * is at least the monotonic one (it may stand still while the machine sleeps) and at most the
 * larger of the monotonic and the wall-clock ones (unless the machine slept and the wall clock
 * was stepped back in the same gap: hence callers that must prove something ask for a recent
 * reply, `syncAgeMs`). A step of the wall clock against the monotonic one is logged and kept for
 * the technician.
 *
 * The service's clock is plausible, not believed: a reply whose `Date` moved by more than a bound
 * against the kiosk's monotonic clock since the reading in force (a proxy's stale header, a
 * service clock stepped 73 h) is kept aside until a second reply agrees with it, and the bounds
 * say `confirmed: false` meanwhile; so does the first reply of a process. Ages and key windows
 * are decided only on confirmed bounds: expiry never fires from a single reading.
 */

/** One reading of both kiosk clocks. Meaningful in this process only. */
export interface ClockInstant {
  readonly wall: number;
  readonly mono: number;
}

/** The service's time (epoch ms on its clock) lies within [earliest, latest]. */
export interface ServiceTimeBounds {
  readonly earliest: number;
  readonly latest: number;
  /** How long ago the dated reply behind these bounds arrived (the larger of both clocks). */
  readonly syncAgeMs: number;
  /**
   * A second reply agreed with the reading behind these bounds, and no later reply jumped away
   * from it: only then may an age (expiry) or a key window be decided on them. One reply alone
   * (the first of a process, or one that jumped) is never enough.
   */
  readonly confirmed: boolean;
}

export interface ClockStep {
  /** The kiosk's wall time just after the step (ISO). */
  readonly at: string;
  /** Forward (positive) or back: how far the wall clock moved beyond the time that passed. */
  readonly stepMs: number;
}

export interface ServiceClockStatus {
  /** Service time minus kiosk time, ms; null before the first dated reply. */
  readonly offsetMs: number | null;
  /** How far off `offsetMs` may be. */
  readonly uncertaintyMs: number | null;
  /** The kiosk's wall time of the dated reply behind the offset (ISO). */
  readonly syncedAt: string | null;
  /** The latest steps of the kiosk's wall clock seen by this process, oldest first. */
  readonly steps: readonly ClockStep[];
  /** A second reply agreed with the reading in force (see `ServiceTimeBounds.confirmed`). */
  readonly confirmed: boolean;
  /**
   * A reply whose `Date` jumped from the reading in force by more than the bound, against the
   * kiosk's monotonic clock, waiting for a second reply to confirm it; null when none.
   */
  readonly pendingJump: { readonly at: string; readonly jumpMs: number } | null;
}

export interface ServiceClockOptions {
  readonly clock: Clock;
  readonly logger?: Logger;
  /** A wall clock moving this much more (or less) than the monotonic one is a step. */
  readonly stepThresholdMs?: number;
  /** How many steps `status()` keeps. */
  readonly keepSteps?: number;
  /**
   * A reply whose `Date` moved this much more (or less) than the kiosk's monotonic clock since
   * the reading in force is a jump: not trusted until a second reply confirms it. Default 5 min,
   * under the outbox's 10-minute reconciliation margin, so a smaller move is absorbed by it.
   */
  readonly jumpBoundMs?: number;
}

/** `Date` is whole seconds. */
const DATE_RESOLUTION_MS = 1_000;
/** How much the monotonic clock may run off real time: far above a quartz's 50 ppm. */
const DRIFT = 1e-3;

interface Sync {
  /** Service time at `at`, ± `uncertainty`. */
  readonly service: number;
  readonly uncertainty: number;
  readonly at: ClockInstant;
}

export const DEFAULT_SERVICE_JUMP_BOUND_MS = 5 * 60_000;

export class ServiceClock {
  readonly #clock: Clock;
  readonly #logger: Logger;
  readonly #stepThresholdMs: number;
  readonly #keepSteps: number;
  readonly #jumpBoundMs: number;
  /** The reading in force: every bound is computed from it. */
  #sync: Sync | undefined;
  /** A later reply agreed with `#sync` (or confirmed the jump that became it). */
  #confirmed = false;
  /** A reply that jumped away from `#sync`, waiting for a second one to agree with it. */
  #pending: Sync | undefined;
  #last: ClockInstant | undefined;
  readonly #steps: ClockStep[] = [];
  #stepCount = 0;

  constructor(options: ServiceClockOptions) {
    this.#clock = options.clock;
    this.#logger = options.logger ?? silentLogger;
    this.#stepThresholdMs = options.stepThresholdMs ?? 2_000;
    this.#keepSteps = Math.max(1, options.keepSteps ?? 10);
    this.#jumpBoundMs = Math.max(0, options.jumpBoundMs ?? DEFAULT_SERVICE_JUMP_BOUND_MS);
  }

  /** Both kiosk clocks now; a step of the wall clock since the last reading is recorded. */
  instant(): ClockInstant {
    const at: ClockInstant = { wall: this.#clock.now(), mono: monotonicNow(this.#clock) };
    const last = this.#last;
    this.#last = at;
    if (last) {
      const elapsed = at.mono - last.mono;
      const stepMs = at.wall - last.wall - elapsed;
      // NTP slews the wall clock by up to 0.05 %: not a step.
      if (Math.abs(stepMs) > this.#stepThresholdMs + Math.abs(elapsed) * DRIFT) {
        const step = { at: new Date(at.wall).toISOString(), stepMs: Math.round(stepMs) };
        this.#steps.push(step);
        this.#stepCount += 1;
        if (this.#steps.length > this.#keepSteps) this.#steps.shift();
        this.#logger.warn('api.clock.step', { ...step });
      }
    }
    return at;
  }

  /**
   * A reply's `Date` header, for a request sent at `sent` and answered at `received`. A reply
   * that agrees with the reading in force (within the jump bound, against the monotonic clock)
   * confirms it and carries it forward; one that jumps away from it is kept aside until a second
   * reply agrees with it (then it is in force, confirmed) or with the old reading (then it was a
   * stray). Until then the bounds say `confirmed: false`, and nothing is decided on them.
   */
  observe(dateHeader: string | undefined, sent: ClockInstant, received: ClockInstant): void {
    if (dateHeader === undefined) return;
    const date = Date.parse(dateHeader);
    if (!Number.isFinite(date)) return;
    // The service wrote the header somewhere in the round trip: date it at its middle.
    const halfTrip = Math.max(0, received.mono - sent.mono) / 2;
    const mono = received.mono - halfTrip;
    const reading: Sync = {
      service: date + DATE_RESOLUTION_MS / 2,
      uncertainty: DATE_RESOLUTION_MS / 2 + halfTrip,
      at: { mono, wall: received.wall - halfTrip },
    };
    const current = this.#sync;
    if (current === undefined) {
      this.#sync = reading;
      this.#confirmed = false;
      return;
    }
    if (this.#jumpOf(current, reading) === 0) {
      if (this.#pending) {
        this.#logger.info('api.service_clock.jump_dismissed', {
          jumpMs: this.#jumpOf(current, this.#pending),
        });
      }
      this.#sync = reading;
      this.#confirmed = true;
      this.#pending = undefined;
      return;
    }
    const pending = this.#pending;
    if (pending && this.#jumpOf(pending, reading) === 0) {
      this.#logger.warn('api.service_clock.jump_confirmed', {
        jumpMs: this.#jumpOf(current, reading),
      });
      this.#sync = reading;
      this.#confirmed = true;
      this.#pending = undefined;
      return;
    }
    this.#pending = reading;
    this.#logger.warn('api.service_clock.jump', { jumpMs: this.#jumpOf(current, reading) });
  }

  /**
   * How far `later` lies from where `earlier` predicts it on the monotonic clock, beyond the
   * bound and both readings' uncertainty (0: they agree). Signed: forward is positive.
   */
  #jumpOf(earlier: Sync, later: Sync): number {
    const elapsed = later.at.mono - earlier.at.mono;
    const predicted = earlier.service + elapsed;
    const off = later.service - predicted;
    const tolerance =
      this.#jumpBoundMs + earlier.uncertainty + later.uncertainty + Math.abs(elapsed) * DRIFT;
    return Math.abs(off) <= tolerance ? 0 : Math.round(off);
  }

  /** The service's time now; undefined before the first dated reply. */
  now(): ServiceTimeBounds | undefined {
    return this.boundsAt(this.instant());
  }

  /** The service's time at an instant of this process, past or present. */
  boundsAt(at: ClockInstant): ServiceTimeBounds | undefined {
    const sync = this.#sync;
    if (!sync) return undefined;
    const dMono = at.mono - sync.at.mono;
    const dWall = at.wall - sync.at.wall;
    // Real time from the sync to `at` is at least the monotonic time and at most the larger of
    // both clocks (signed: `at` may come before the sync).
    const low = dMono >= 0 ? dMono * (1 - DRIFT) : Math.min(dMono, dWall) * (1 + DRIFT);
    const high = dMono >= 0 ? Math.max(dMono, dWall) * (1 + DRIFT) : dMono * (1 - DRIFT);
    return {
      earliest: Math.floor(sync.service - sync.uncertainty + low),
      latest: Math.ceil(sync.service + sync.uncertainty + high),
      syncAgeMs: Math.max(0, dMono, dWall),
      confirmed: this.#confirmed && this.#pending === undefined,
    };
  }

  status(): ServiceClockStatus {
    const sync = this.#sync;
    if (!sync) {
      return {
        offsetMs: null,
        uncertaintyMs: null,
        syncedAt: null,
        steps: this.steps,
        confirmed: false,
        pendingJump: null,
      };
    }
    const now = this.instant();
    const pending = this.#pending;
    return {
      offsetMs: Math.round(sync.service + (now.mono - sync.at.mono) - now.wall),
      uncertaintyMs: Math.ceil(sync.uncertainty),
      syncedAt: new Date(sync.at.wall).toISOString(),
      steps: this.steps,
      confirmed: this.#confirmed && pending === undefined,
      pendingJump: pending
        ? { at: new Date(pending.at.wall).toISOString(), jumpMs: this.#jumpOf(sync, pending) }
        : null,
    };
  }

  /** Every step seen since the start, not only the ones kept. */
  get stepCount(): number {
    return this.#stepCount;
  }

  get steps(): readonly ClockStep[] {
    return [...this.#steps];
  }
}

/** The transport with every reply's `Date` fed to the service clock (errors included). */
export function datedTransport(transport: Transport, serviceClock: ServiceClock): Transport {
  return {
    async send(request) {
      const sent = serviceClock.instant();
      const outcome = await transport.send(request);
      if (outcome.ok)
        serviceClock.observe(outcome.reply.headers['date'], sent, serviceClock.instant());
      return outcome;
    },
    close: () => transport.close(),
  };
}
