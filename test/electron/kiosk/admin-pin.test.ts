import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { IpcFailure } from '../../../electron/ipc/index.ts';
import { AdminPin, type AdminPinOptions } from '../../../electron/kiosk/admin-pin.ts';
import {
  ADMIN_PIN_LOCKOUT_FILE,
  PinLockoutRecord,
} from '../../../electron/kiosk/admin-pin-lockout.ts';
import type { Logger } from '../../../electron/logging/index.ts';
import { ipcErrorCodes } from '../../../shared/ipc/errors.ts';

const PIN = '739105';
const START = Date.parse('2026-03-02T09:00:00.000Z');

/** The kiosk's two clocks, stepped by the test: the wall clock may jump, the monotonic one not. */
class TestClock {
  wall = START;
  mono = 1_000;
  now = () => this.wall;
  monotonic = () => this.mono;
  /** Real time passing: both move. */
  pass(ms: number): void {
    this.wall += ms;
    this.mono += ms;
  }
}

let dir: string;
let clock: TestClock;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'kiosk-admin-pin-'));
  clock = new TestClock();
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A kiosk run: a new AdminPin on the same directory is what a restart builds. */
function start(options: Partial<AdminPinOptions> = {}): AdminPin {
  return new AdminPin({
    pin: PIN,
    lockoutDir: dir,
    maxAttempts: 3,
    lockoutMs: 30_000,
    clock,
    ...options,
  });
}

/** The IpcFailure a try ends with, or 'ok'. */
function attempt(pin: AdminPin, value: string): IpcFailure | 'ok' {
  try {
    pin.check(value);
    return 'ok';
  } catch (error) {
    if (error instanceof IpcFailure) return error;
    throw error;
  }
}

function failure(pin: AdminPin, value: string): IpcFailure {
  const result = attempt(pin, value);
  if (result === 'ok') throw new Error(`the PIN ${value} was accepted`);
  return result;
}

function record(): PinLockoutRecord {
  return PinLockoutRecord.parse(
    JSON.parse(readFileSync(join(dir, ADMIN_PIN_LOCKOUT_FILE), 'utf8')),
  );
}

const at = (ms: number) => new Date(ms).toISOString();

describe('the administrator PIN', () => {
  it('says how many tries are left, then locks out for longer and longer', () => {
    const pin = start();
    expect(attempt(pin, PIN)).toBe('ok');
    const first = failure(pin, '0000');
    expect(first.code).toBe(ipcErrorCodes.adminPinInvalid);
    expect(first.details).toEqual({ triesLeft: 2, retryAfterMs: 0, nextTryAt: at(START) });
    expect(failure(pin, '1111').details).toMatchObject({ triesLeft: 1, retryAfterMs: 0 });
    // The third wrong PIN says when the next try is allowed.
    expect(failure(pin, '2222').details).toEqual({
      triesLeft: 0,
      retryAfterMs: 30_000,
      nextTryAt: at(START + 30_000),
    });
    clock.pass(10_000);
    const locked = failure(pin, PIN);
    expect(locked.code).toBe(ipcErrorCodes.adminPinLocked);
    expect(locked.details).toEqual({
      triesLeft: 0,
      retryAfterMs: 20_000,
      nextTryAt: at(START + 30_000),
    });
    clock.pass(20_000);
    // One more wrong PIN after a lockout locks again, twice as long.
    expect(failure(pin, '3333').details).toMatchObject({ triesLeft: 0, retryAfterMs: 60_000 });
    clock.pass(60_000);
    expect(attempt(pin, PIN)).toBe('ok');
    expect(failure(pin, '0000').details).toMatchObject({ triesLeft: 2, retryAfterMs: 0 });
  });

  it('keeps a lockout running while the wall clock is stepped back or forward', () => {
    const pin = start();
    for (const wrong of ['0000', '1111', '2222']) failure(pin, wrong);
    clock.wall -= 3_600_000;
    expect(failure(pin, PIN).details).toMatchObject({ retryAfterMs: 30_000 });
    clock.wall += 7_200_000;
    expect(failure(pin, PIN).details).toMatchObject({ retryAfterMs: 30_000 });
    clock.mono += 30_000;
    expect(attempt(pin, PIN)).toBe('ok');
  });

  it('is still locked after a restart, for what was left of the lockout', () => {
    const pin = start();
    for (const wrong of ['0000', '1111', '2222']) failure(pin, wrong);
    clock.pass(12_000);
    const restarted = start();
    const locked = failure(restarted, PIN);
    expect(locked.code).toBe(ipcErrorCodes.adminPinLocked);
    expect(locked.details).toMatchObject({ retryAfterMs: 18_000, nextTryAt: at(START + 30_000) });
    clock.pass(18_000);
    // The count survived too: the next wrong PIN locks again at once, twice as long.
    expect(failure(start(), '4444').details).toMatchObject({ triesLeft: 0, retryAfterMs: 60_000 });
  });

  it('keeps the tries left across a restart', () => {
    failure(start(), '0000');
    failure(start(), '1111');
    expect(failure(start(), '2222').details).toMatchObject({ triesLeft: 0, retryAfterMs: 30_000 });
  });

  it('is still locked after a restart with the clock stepped back, for the whole time left', () => {
    const pin = start();
    for (const wrong of ['0000', '1111', '2222']) failure(pin, wrong);
    clock.pass(5_000);
    clock.wall -= 86_400_000;
    const restarted = start();
    expect(failure(restarted, PIN).details).toMatchObject({ retryAfterMs: 30_000 });
    // Counted from the restart, not from when the clock catches up with the record.
    clock.pass(30_000);
    expect(attempt(start(), PIN)).toBe('ok');
  });

  it('does not stay locked for ever when the clock jumps forward', () => {
    const pin = start();
    for (const wrong of ['0000', '1111', '2222']) failure(pin, wrong);
    clock.wall += 365 * 86_400_000;
    expect(attempt(start(), PIN)).toBe('ok');
  });

  it('never keeps a lockout longer than 15 minutes, whatever the record says', () => {
    writeFileSync(
      join(dir, ADMIN_PIN_LOCKOUT_FILE),
      JSON.stringify({ failures: 40, lockedForMs: 10 * 86_400_000, recordedAt: at(START) }),
    );
    expect(failure(start(), PIN).details).toMatchObject({ retryAfterMs: 15 * 60_000 });
  });

  it('keeps only counts and times, in a file only the kiosk user reads', () => {
    const pin = start();
    failure(pin, '0000');
    expect(record()).toEqual({ failures: 1, lockedForMs: 0, recordedAt: at(START) });
    expect(statSync(join(dir, ADMIN_PIN_LOCKOUT_FILE)).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(dir, ADMIN_PIN_LOCKOUT_FILE), 'utf8')).not.toContain(PIN);
    expect(attempt(pin, PIN)).toBe('ok');
    expect(record()).toMatchObject({ failures: 0, lockedForMs: 0 });
  });

  it('checks no PIN it cannot record, and says why (fail closed)', () => {
    const logged: string[] = [];
    const log = (event: string) => void logged.push(event);
    const logger: Logger = { error: log, warn: log, info: log, debug: log };
    const pin = start({ logger });
    failure(pin, '0000');
    // The record's place is taken by a directory: no write can land there, even as root.
    rmSync(join(dir, ADMIN_PIN_LOCKOUT_FILE));
    mkdirSync(join(dir, ADMIN_PIN_LOCKOUT_FILE, 'x'), { recursive: true });
    for (const value of [PIN, '1111', '2222', '3333']) {
      const refused = failure(pin, value);
      expect(refused.code).toBe(ipcErrorCodes.adminPinUnavailable);
      expect(refused.message).toContain(ADMIN_PIN_LOCKOUT_FILE);
    }
    expect(logged).toContain('kiosk.admin_pin.try_unsaved');
    // Nothing was counted meanwhile: once the record can be written, the same count goes on.
    rmSync(join(dir, ADMIN_PIN_LOCKOUT_FILE), { recursive: true });
    expect(failure(pin, '1111').details).toMatchObject({ triesLeft: 1 });
    expect(attempt(pin, PIN)).toBe('ok');
  });

  it('starts locked when the record is damaged or unreadable (fail closed)', () => {
    writeFileSync(join(dir, ADMIN_PIN_LOCKOUT_FILE), '{"failures": 2, "lockedF');
    const pin = start();
    expect(failure(pin, PIN).details).toMatchObject({ triesLeft: 0, retryAfterMs: 30_000 });
    clock.pass(30_000);
    expect(attempt(pin, PIN)).toBe('ok');
    expect(record()).toMatchObject({ failures: 0 });

    mkdirSync(join(dir, 'unreadable', ADMIN_PIN_LOCKOUT_FILE), { recursive: true });
    const unreadable = start({ lockoutDir: join(dir, 'unreadable') });
    expect(failure(unreadable, PIN).code).toBe(ipcErrorCodes.adminPinLocked);
  });

  it('without a PIN, refuses every try and writes nothing', () => {
    const pin = start({ pin: undefined });
    expect(pin.configured).toBe(false);
    expect(failure(pin, PIN).code).toBe(ipcErrorCodes.adminPinNotConfigured);
    expect(() => statSync(join(dir, ADMIN_PIN_LOCKOUT_FILE))).toThrow(/ENOENT/);
  });
});
