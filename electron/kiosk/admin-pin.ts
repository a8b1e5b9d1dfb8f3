import { randomBytes, scryptSync, timingSafeEqual } from 'node:crypto';
import { ipcErrorCodes } from '../../shared/ipc/errors.ts';
import { type AdminGuard, IpcFailure } from '../ipc/index.ts';

export interface AdminPinOptions {
  /** The PIN (4 to 12 digits); undefined: no PIN, so nothing protected can be changed. */
  readonly pin?: string | undefined;
  /** Wrong PINs in a row before a lockout (default 5). */
  readonly maxAttempts?: number;
  /** First lockout; doubled for each further wrong PIN, up to 15 minutes (default 30 s). */
  readonly lockoutMs?: number;
  readonly now?: () => number;
}

const MAX_LOCKOUT_MS = 15 * 60_000;

/**
 * The administrator PIN that guards settings and credentials. Only a salted scrypt hash is kept
 * in memory, comparisons are constant-time, and wrong guesses lock the check out for longer and
 * longer: a 4-digit PIN typed at a public kiosk must not be guessable by trying them all.
 */
export class AdminPin implements AdminGuard {
  readonly #salt = randomBytes(16);
  readonly #hash: Buffer | undefined;
  readonly #maxAttempts: number;
  readonly #lockoutMs: number;
  readonly #now: () => number;
  #failures = 0;
  #lockedUntil = 0;

  constructor(options: AdminPinOptions) {
    if (options.pin !== undefined && !/^\d{4,12}$/.test(options.pin)) {
      throw new RangeError('the administrator PIN must be 4 to 12 digits');
    }
    this.#hash = options.pin === undefined ? undefined : this.#digest(options.pin);
    this.#maxAttempts = Math.max(1, options.maxAttempts ?? 5);
    this.#lockoutMs = options.lockoutMs ?? 30_000;
    this.#now = options.now ?? Date.now;
  }

  get configured(): boolean {
    return this.#hash !== undefined;
  }

  /** True or false for a PIN; throws ADMIN_PIN_LOCKED / ADMIN_PIN_NOT_CONFIGURED. */
  check(pin: string): boolean {
    if (this.#hash === undefined) {
      throw new IpcFailure(
        ipcErrorCodes.adminPinNotConfigured,
        'no administrator PIN is configured on this kiosk',
      );
    }
    const now = this.#now();
    if (now < this.#lockedUntil) {
      throw new IpcFailure(ipcErrorCodes.adminPinLocked, 'too many wrong PINs; try again later', {
        retryAfterMs: this.#lockedUntil - now,
      });
    }
    const valid = timingSafeEqual(this.#digest(pin), this.#hash);
    if (valid) {
      this.#failures = 0;
      return true;
    }
    this.#failures += 1;
    if (this.#failures >= this.#maxAttempts) {
      const doublings = this.#failures - this.#maxAttempts;
      this.#lockedUntil =
        now + Math.min(MAX_LOCKOUT_MS, this.#lockoutMs * 2 ** Math.min(doublings, 20));
    }
    return false;
  }

  verify(pin: string): void {
    if (!this.check(pin)) {
      throw new IpcFailure(ipcErrorCodes.adminPinInvalid, 'the administrator PIN is wrong');
    }
  }

  #digest(pin: string): Buffer {
    return scryptSync(pin, this.#salt, 32);
  }
}
