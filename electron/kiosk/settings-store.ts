import { join } from 'node:path';
import { KioskSettings, KioskSettingsChanges } from '../../shared/ipc/status.ts';
import { writeFileDurably } from '../foundation/index.ts';
import { type Logger, silentLogger } from '../logging/index.ts';
import type { OfflineLimits } from '../outbox/index.ts';
import { BoundedFileError, readBoundedFileSync } from '../profile/index.ts';
import { prepareDataDir } from '../storage/index.ts';

export const SETTINGS_FILE = 'kiosk-settings.json';
/** The file holds a few choices: anything bigger is not the kiosk's (read bounded, never whole). */
export const MAX_SETTINGS_BYTES = 256 * 1024;
/** Only the kiosk's own user reads it. */
const SETTINGS_FILE_MODE = 0o600;

/** What the settings file holds: only what an administrator chose, each key validated. */
export type SettingsOverrides = KioskSettingsChanges;

const settingKeys = Object.keys(KioskSettingsChanges.shape) as (keyof SettingsOverrides)[];

/**
 * The kiosk's own settings (language, shop, printer, paper, the service's base URL, the offline
 * limits), one JSON file in the data directory. The file holds only what an administrator changed;
 * everything else follows the integrator's defaults (and the system language), so a later change
 * of those still applies to the keys nobody chose. A file that is missing falls back to the
 * defaults; a damaged key is left out with a log line (a damaged file must not keep the kiosk from
 * starting). Writes are atomic and durable (`writeFileDurably`: temp file, fsync, rename, fsync of
 * the directory): once `update` resolves, a crash or power cut keeps the saved value.
 */
export class SettingsStore {
  readonly #path: string;
  readonly #dataDir: string;
  readonly #logger: Logger;
  readonly #defaults: KioskSettings;
  #overrides: SettingsOverrides;
  #current: KioskSettings;

  private constructor(
    dataDir: string,
    defaults: KioskSettings,
    overrides: SettingsOverrides,
    logger: Logger,
  ) {
    this.#dataDir = dataDir;
    this.#path = join(dataDir, SETTINGS_FILE);
    this.#defaults = defaults;
    this.#overrides = overrides;
    this.#current = merge(defaults, overrides);
    this.#logger = logger;
  }

  static open(
    dataDir: string,
    defaults: KioskSettings,
    logger: Logger = silentLogger,
  ): SettingsStore {
    return new SettingsStore(dataDir, defaults, readOverrides(dataDir, logger), logger);
  }

  get current(): KioskSettings {
    return this.#current;
  }

  /** What an administrator chose (the file's content), without the defaults. */
  get overrides(): SettingsOverrides {
    return this.#overrides;
  }

  async update(changes: SettingsOverrides): Promise<KioskSettings> {
    const parsed = KioskSettingsChanges.parse(changes);
    const overrides: SettingsOverrides = { ...this.#overrides, ...stripUndefined(parsed) };
    if (parsed.offlineLimits !== undefined) {
      overrides.offlineLimits = {
        ...this.#overrides.offlineLimits,
        ...stripUndefined(parsed.offlineLimits),
      };
    }
    const next = KioskSettings.parse(merge(this.#defaults, overrides));
    // The database's own checks and modes (0700, no endless retry under /proc).
    prepareDataDir(this.#dataDir);
    await writeFileDurably(this.#path, `${JSON.stringify(overrides, null, 2)}\n`, {
      mode: SETTINGS_FILE_MODE,
    });
    this.#overrides = overrides;
    this.#current = next;
    this.#logger.info('kiosk.settings.updated', { keys: Object.keys(stripUndefined(parsed)) });
    return next;
  }
}

/**
 * The base URL an administrator saved, for a host deciding which service to start on: a URL,
 * null for the embedded demo sandbox, undefined when nobody chose (the host's own default).
 */
export function savedApiBaseUrl(
  dataDir: string,
  logger: Logger = silentLogger,
): string | null | undefined {
  return readOverrides(dataDir, logger).apiBaseUrl;
}

/**
 * The offline limits an administrator saved (only those; the rest follow the defaults), for a
 * process that shares the kiosk's data directory without running it (kioskctl outbox).
 */
export function savedOfflineLimits(
  dataDir: string,
  logger: Logger = silentLogger,
): Partial<OfflineLimits> {
  return stripUndefined(readOverrides(dataDir, logger).offlineLimits ?? {});
}

/** What an administrator saved (only that), for a process beside the kiosk (kioskctl status). */
export function savedSettings(dataDir: string, logger: Logger = silentLogger): SettingsOverrides {
  return readOverrides(dataDir, logger);
}

function readOverrides(dataDir: string, logger: Logger): SettingsOverrides {
  const path = join(dataDir, SETTINGS_FILE);
  let text: string;
  try {
    text = readBoundedFileSync(path, MAX_SETTINGS_BYTES).toString('utf8');
  } catch (error) {
    // A FIFO, a device or a huge file at the path is refused without blocking or filling memory.
    if (!(error instanceof BoundedFileError) || error.failure !== 'NOT_FOUND') {
      logger.warn('kiosk.settings.unreadable', {
        path,
        reason: error instanceof BoundedFileError ? error.reason : 'unreadable',
      });
    }
    return {};
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    // JSON.parse's message quotes the file: the log says what, not the text.
    logger.warn('kiosk.settings.unreadable', { path, reason: 'not JSON' });
    return {};
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    logger.warn('kiosk.settings.invalid_file', { path });
    return {};
  }
  // Key by key: one damaged value costs that setting, not the others.
  const overrides: Record<string, unknown> = {};
  const invalid: string[] = [];
  // The rule each broke (the schema's words, never the value): `telemetry.otlpEndpoint must be https://...`.
  const reasons: Record<string, string> = {};
  for (const [key, value] of Object.entries(raw)) {
    const schema = settingKeys.includes(key as keyof SettingsOverrides)
      ? KioskSettingsChanges.shape[key as keyof SettingsOverrides]
      : undefined;
    const parsed = schema?.safeParse(value);
    if (parsed?.success && parsed.data !== undefined) overrides[key] = parsed.data;
    else {
      invalid.push(key);
      const issue = parsed?.error?.issues[0];
      if (schema !== undefined && issue !== undefined)
        reasons[key] = [key, ...issue.path.map(String)].join('.') + `: ${issue.message}`;
    }
  }
  if (invalid.length > 0)
    logger.warn('kiosk.settings.invalid_keys', { path, keys: invalid, reasons });
  return overrides as SettingsOverrides;
}

function merge(defaults: KioskSettings, overrides: SettingsOverrides): KioskSettings {
  const { offlineLimits, ...rest } = overrides;
  return {
    ...defaults,
    ...stripUndefined(rest),
    offlineLimits: { ...defaults.offlineLimits, ...stripUndefined(offlineLimits ?? {}) },
  };
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(value).filter(([, entry]) => entry !== undefined),
  ) as Partial<T>;
}
