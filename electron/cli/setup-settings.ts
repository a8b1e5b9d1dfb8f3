import { savedSettings } from '../kiosk/index.ts';
import type { LoadedProfile } from '../profile/index.ts';
import { type GlobalFlags, type Io, profileOf } from './command.ts';

/**
 * What an administrator saved in Setup, read as the kiosk app reads it, for the commands that
 * work as the app does (outbox, contract, catalog, status, credentials; api when it is given a
 * data directory). Apart from command.ts so that a command needing none loads none of the kiosk.
 */

export type SetupSettings = ReturnType<typeof savedSettings>;

/**
 * The settings file of the data directory (`dataDir`, else `--data-dir`, else KIOSK_DATA_DIR);
 * nothing without a data directory or a file. Read only: the directory is not created.
 */
export function setupSettingsOf(
  globals: GlobalFlags,
  env: Io['env'],
  dataDir?: string,
): SetupSettings {
  const settingsDir = dataDir ?? globals.dataDir ?? env['KIOSK_DATA_DIR'];
  return settingsDir === undefined || settingsDir === '' ? {} : savedSettings(settingsDir);
}

/** The profile by the kiosk app's rule: `--profile`, KIOSK_API_PROFILE, Setup's, the default. */
export function setupProfileOf(
  globals: GlobalFlags,
  env: Io['env'],
  dataDir?: string,
): LoadedProfile {
  return profileOf(globals, env, setupSettingsOf(globals, env, dataDir).profilePath);
}
