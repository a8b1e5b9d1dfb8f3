import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { KioskSettings } from '../../shared/ipc/status.ts';
import { type Logger, silentLogger } from '../logging/redacting-logger.ts';

export const SETTINGS_FILE = 'kiosk-settings.json';

/**
 * The kiosk's own settings (language, shop, printer, paper), one JSON file in the data directory.
 * A file that is missing or unreadable falls back to the integrator's defaults, with a log line:
 * a damaged settings file must not keep the kiosk from starting. Writes are atomic (temp + rename).
 */
export class SettingsStore {
  readonly #path: string;
  readonly #dataDir: string;
  readonly #logger: Logger;
  #current: KioskSettings;

  private constructor(dataDir: string, current: KioskSettings, logger: Logger) {
    this.#dataDir = dataDir;
    this.#path = join(dataDir, SETTINGS_FILE);
    this.#current = current;
    this.#logger = logger;
  }

  static open(
    dataDir: string,
    defaults: KioskSettings,
    logger: Logger = silentLogger,
  ): SettingsStore {
    const path = join(dataDir, SETTINGS_FILE);
    let current = defaults;
    try {
      const parsed = KioskSettings.partial().safeParse(JSON.parse(readFileSync(path, 'utf8')));
      if (parsed.success) current = { ...defaults, ...stripUndefined(parsed.data) };
      else logger.warn('kiosk.settings.invalid_file', { path, issues: parsed.error.issues.length });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
        logger.warn('kiosk.settings.unreadable', { path, error });
      }
    }
    return new SettingsStore(dataDir, current, logger);
  }

  get current(): KioskSettings {
    return this.#current;
  }

  async update(changes: Partial<KioskSettings>): Promise<KioskSettings> {
    const next = KioskSettings.parse({ ...this.#current, ...stripUndefined(changes) });
    await mkdir(this.#dataDir, { recursive: true });
    const temporary = `${this.#path}.${randomUUID()}.tmp`;
    try {
      await writeFile(temporary, `${JSON.stringify(next, null, 2)}\n`, { mode: 0o600 });
      await rename(temporary, this.#path);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
    this.#current = next;
    this.#logger.info('kiosk.settings.updated', { keys: Object.keys(changes) });
    return next;
  }
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(value).filter(([, entry]) => entry !== undefined),
  ) as Partial<T>;
}
