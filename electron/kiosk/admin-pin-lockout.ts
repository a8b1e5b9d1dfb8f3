import { join } from 'node:path';
import { z } from 'zod';
import { writeFileDurablySync } from '../foundation/index.ts';
import { BoundedFileError, readBoundedFileSync } from '../profile/index.ts';
import { prepareDataDir } from '../storage/index.ts';

/** Two counts and two times: anything bigger is not the kiosk's record. */
const MAX_LOCKOUT_FILE_BYTES = 64 * 1024;

export const ADMIN_PIN_LOCKOUT_FILE = 'admin-pin-lockout.json';

/** Only the kiosk's own user reads it, like the settings beside it. */
const LOCKOUT_FILE_MODE = 0o600;

/**
 * What survives a restart. Never the PIN nor anything derived from it: the hash of a 4-digit
 * PIN is ten thousand guesses away from the PIN.
 */
export const PinLockoutRecord = z.strictObject({
  /** Wrong PINs in a row. */
  failures: z.number().int().min(0).max(1_000_000),
  /**
   * How much of the lockout was left when it was recorded: a duration, not a wall-clock deadline,
   * so a clock stepped forward cannot make it last for ever, nor one stepped back make it end.
   */
  lockedForMs: z.number().int().min(0),
  /** When it was recorded, on the kiosk's wall clock. */
  recordedAt: z.iso.datetime(),
});
export type PinLockoutRecord = z.infer<typeof PinLockoutRecord>;

/**
 * The administrator PIN's tries and lockout, one small JSON file next to the settings, so that
 * restarting the kiosk does not hand out a fresh set of guesses. Writes are atomic and durable
 * (`writeFileDurablySync`: temporary file, fsync, rename, fsync of the directory): after a power cut the file holds the
 * last try recorded, never half of it.
 */
export class PinLockoutFile {
  readonly path: string;
  readonly #dir: string;

  constructor(dir: string) {
    this.#dir = dir;
    this.path = join(dir, ADMIN_PIN_LOCKOUT_FILE);
  }

  /** The record, or undefined when there is none yet; throws when it cannot be read or is damaged. */
  read(): PinLockoutRecord | undefined {
    let text: string;
    try {
      // A few counts and times: bounded, and a FIFO or device at the path is refused at once.
      text = readBoundedFileSync(this.path, MAX_LOCKOUT_FILE_BYTES).toString('utf8');
    } catch (error) {
      if (error instanceof BoundedFileError && error.failure === 'NOT_FOUND') return undefined;
      throw error;
    }
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      throw new Error(`${this.path} is not JSON`);
    }
    const parsed = PinLockoutRecord.safeParse(raw);
    if (!parsed.success) throw new Error(`${this.path} is not a PIN lockout record`);
    return parsed.data;
  }

  /** Throws when the record could not be made durable (full disk, directory not writable...). */
  write(record: PinLockoutRecord): void {
    prepareDataDir(this.#dir);
    writeFileDurablySync(this.path, `${JSON.stringify(PinLockoutRecord.parse(record))}\n`, {
      mode: LOCKOUT_FILE_MODE,
    });
  }
}
