import { randomBytes, scryptSync, timingSafeEqual } from 'node:crypto';
import { type AdminPinRefusal, ipcErrorCodes } from '../../shared/ipc/errors.ts';
import { systemClock } from '../foundation/index.ts';
import { type AdminGuard, IpcFailure } from '../ipc/index.ts';
import { type Logger, silentLogger } from '../logging/index.ts';
import { PinLockoutFile, type PinLockoutRecord } from './admin-pin-lockout.ts';

export interface AdminPinOptions {
  /** The PIN (4 to 12 digits); undefined: no PIN, so nothing protected can be changed. */
  readonly pin?: string | undefined;
  /** Where the tries and the lockout are kept across restarts: the settings' directory. */
  readonly lockoutDir: string;
  /** Wrong PINs in a row before a lockout (default 5). */
  readonly maxAttempts?: number;
  /** First lockout; doubled for each further wrong PIN, up to 15 minutes (default 30 s). */
  readonly lockoutMs?: number;
  /** The wall clock for what is recorded; the monotonic one for how long a lockout runs. */
  readonly clock?: { now(): number; monotonic(): number };
  readonly logger?: Logger;
}

const MAX_LOCKOUT_MS = 15 * 60_000;

/**
 * The administrator PIN that guards settings and credentials. Only a salted scrypt hash is kept
 * in memory, comparisons are constant-time, and wrong guesses lock the check out for longer and
 * longer: a 4-digit PIN typed at a public kiosk must not be guessable by trying them all. The
 * tries and the lockout are recorded on disk (`PinLockoutFile`), so a restart does not reset them.
 *
 * Synchronous on purpose: two tries sent at once cannot both read the same count.
 */
export class AdminPin implements AdminGuard {
  readonly #salt = randomBytes(16);
  readonly #hash: Buffer | undefined;
  readonly #maxAttempts: number;
  readonly #lockoutMs: number;
  readonly #clock: { now(): number; monotonic(): number };
  readonly #file: PinLockoutFile;
  readonly #logger: Logger;
  #failures = 0;
  /** On the monotonic clock: stepping the wall clock while the kiosk runs changes nothing. */
  #lockedUntil = 0;

  constructor(options: AdminPinOptions) {
    if (options.pin !== undefined && !/^\d{4,12}$/.test(options.pin)) {
      throw new RangeError('the administrator PIN must be 4 to 12 digits');
    }
    this.#hash = options.pin === undefined ? undefined : this.#digest(options.pin);
    this.#maxAttempts = Math.max(1, options.maxAttempts ?? 5);
    this.#lockoutMs = Math.min(MAX_LOCKOUT_MS, options.lockoutMs ?? 30_000);
    this.#clock = options.clock ?? { now: systemClock.now, monotonic: () => performance.now() };
    this.#logger = options.logger ?? silentLogger;
    this.#file = new PinLockoutFile(options.lockoutDir);
    if (this.#hash !== undefined) this.#restore();
  }

  get configured(): boolean {
    return this.#hash !== undefined;
  }

  /**
   * True for the right PIN; throws ADMIN_PIN_INVALID (with `AdminPinRefusal` details) for a wrong
   * one, ADMIN_PIN_LOCKED, ADMIN_PIN_NOT_CONFIGURED or ADMIN_PIN_UNAVAILABLE.
   */
  check(pin: string): true {
    this.verify(pin);
    return true;
  }

  verify(pin: string): void {
    if (this.#hash === undefined) {
      throw new IpcFailure(
        ipcErrorCodes.adminPinNotConfigured,
        'no administrator PIN is configured on this kiosk',
      );
    }
    const waitMs = this.#lockedUntil - this.#clock.monotonic();
    if (waitMs > 0) {
      throw new IpcFailure(
        ipcErrorCodes.adminPinLocked,
        'too many wrong PINs; try again later',
        this.#refusal(waitMs),
      );
    }
    // Counted as wrong before it is compared, as a smart card counts a PIN try: a crash, a power
    // cut or a full disk between the comparison and the record cannot make a try free.
    const failures = this.#failures + 1;
    const lockMs = this.#lockoutAfter(failures);
    this.#record(failures, lockMs);
    if (timingSafeEqual(this.#digest(pin), this.#hash)) {
      this.#failures = 0;
      this.#lockedUntil = 0;
      try {
        this.#file.write({ failures: 0, lockedForMs: 0, recordedAt: this.#wallTime() });
      } catch (error) {
        // The file still counts this try as wrong: stricter than the truth, never looser.
        this.#logger.warn('kiosk.admin_pin.reset_unsaved', { path: this.#file.path, error });
      }
      return;
    }
    this.#failures = failures;
    this.#lockedUntil = this.#clock.monotonic() + lockMs;
    if (lockMs > 0) {
      this.#logger.warn('kiosk.admin_pin.locked_out', { failures, lockedForMs: lockMs });
    }
    throw new IpcFailure(
      ipcErrorCodes.adminPinInvalid,
      'the administrator PIN is wrong',
      this.#refusal(lockMs),
    );
  }

  #lockoutAfter(failures: number): number {
    if (failures < this.#maxAttempts) return 0;
    const doublings = Math.min(failures - this.#maxAttempts, 20);
    return Math.min(MAX_LOCKOUT_MS, this.#lockoutMs * 2 ** doublings);
  }

  #refusal(waitMs: number): AdminPinRefusal {
    const retryAfterMs = Math.max(0, Math.ceil(waitMs));
    return {
      triesLeft: Math.max(0, this.#maxAttempts - this.#failures),
      retryAfterMs,
      nextTryAt: new Date(this.#clock.now() + retryAfterMs).toISOString(),
    };
  }

  /** Fails closed: a try that cannot be recorded is not checked. */
  #record(failures: number, lockedForMs: number): void {
    try {
      this.#file.write({ failures, lockedForMs, recordedAt: this.#wallTime() });
    } catch (error) {
      this.#logger.error('kiosk.admin_pin.try_unsaved', { path: this.#file.path, error });
      const code = (error as { code?: unknown } | null)?.code;
      throw new IpcFailure(
        ipcErrorCodes.adminPinUnavailable,
        `the kiosk cannot record PIN tries in ${this.#file.path}${typeof code === 'string' ? ` (${code})` : ''}; no PIN is checked until it can`,
      );
    }
  }

  /** Picks up the tries and the lockout where the last run left them. */
  #restore(): void {
    let record: PinLockoutRecord | undefined;
    try {
      record = this.#file.read();
    } catch (error) {
      // Fails closed: an unreadable record may be hiding a lockout, so one starts now.
      this.#logger.error('kiosk.admin_pin.lockout_unreadable', { path: this.#file.path, error });
      this.#failures = this.#maxAttempts;
      this.#lockedUntil = this.#clock.monotonic() + this.#lockoutMs;
      return;
    }
    if (record === undefined) return;
    const now = this.#clock.now();
    const elapsed = now - Date.parse(record.recordedAt);
    const lockedForMs = Math.min(MAX_LOCKOUT_MS, record.lockedForMs);
    // A clock stepped back since the record: the whole lockout left then is still to run.
    const remaining = elapsed < 0 ? lockedForMs : Math.max(0, lockedForMs - elapsed);
    this.#failures = record.failures;
    this.#lockedUntil = this.#clock.monotonic() + remaining;
    if (elapsed < 0 && remaining > 0) {
      // Counted from now, so the lockout ends after `remaining` even if the clock stays behind.
      try {
        this.#file.write({
          failures: record.failures,
          lockedForMs: remaining,
          recordedAt: this.#wallTime(),
        });
      } catch (error) {
        this.#logger.warn('kiosk.admin_pin.lockout_unsaved', { path: this.#file.path, error });
      }
    }
  }

  #wallTime(): string {
    return new Date(this.#clock.now()).toISOString();
  }

  #digest(pin: string): Buffer {
    return scryptSync(pin, this.#salt, 32);
  }
}
