import { readFileSync } from 'node:fs';
import { IntegrationProfile, defaultProfile } from '../../shared/profile/index.ts';

/**
 * Loads the integration profile in force: `--profile` (kioskctl), else `KIOSK_API_PROFILE`, else
 * the path an administrator saved in setup, else the default (the sandbox's dialect). A file that
 * is missing or wrong is refused with a typed error naming the file and the first problem: the
 * kiosk must not guess how a service shapes its records.
 */

export type ProfileErrorCode = 'PROFILE_NOT_FOUND' | 'PROFILE_INVALID';

export class ProfileError extends Error {
  override readonly name = 'ProfileError';
  readonly code: ProfileErrorCode;
  readonly path: string;

  constructor(code: ProfileErrorCode, path: string, message: string) {
    super(`${code}: ${path}: ${message}`);
    this.code = code;
    this.path = path;
  }
}

/** Profiles are small; a bigger file is not one. */
const MAX_PROFILE_BYTES = 1024 * 1024;

export function loadProfileFile(path: string): IntegrationProfile {
  let text: string;
  try {
    const bytes = readFileSync(path);
    if (bytes.length > MAX_PROFILE_BYTES)
      throw new ProfileError('PROFILE_INVALID', path, 'larger than 1 MiB: not a profile');
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch (error) {
    if (error instanceof ProfileError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'EISDIR')
      throw new ProfileError('PROFILE_NOT_FOUND', path, 'no such file');
    throw new ProfileError('PROFILE_INVALID', path, (error as Error).message);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ProfileError('PROFILE_INVALID', path, `not JSON (${(error as Error).message})`);
  }
  const result = IntegrationProfile.safeParse(json);
  if (result.success) return result.data;
  const [first] = result.error.issues;
  const where = first?.path.map(String).join('.') ?? '';
  const more =
    result.error.issues.length > 1 ? ` (and ${result.error.issues.length - 1} more)` : '';
  throw new ProfileError(
    'PROFILE_INVALID',
    path,
    `${where === '' ? '' : `${where}: `}${first?.message ?? 'invalid'}${more}`,
  );
}

export type ProfileSource = 'flag' | 'environment' | 'settings' | 'default';

export interface LoadedProfile {
  readonly profile: IntegrationProfile;
  readonly source: ProfileSource;
  /** The file it came from; null for the default. */
  readonly path: string | null;
}

/** Where the profile in force is read from: each place, in the order it is looked at. */
export interface ProfilePlaces {
  /** `--profile` (kioskctl only). */
  readonly flag?: string | undefined;
  /** The process environment: KIOSK_API_PROFILE, the deployment's file. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** The file an administrator saved in Setup (`profilePath` of the data directory's settings). */
  readonly settingsPath?: string | null | undefined;
}

/**
 * The one rule that picks the profile, for the kiosk app (`ProfileInForce`) and every kioskctl
 * command alike: `--profile`, else KIOSK_API_PROFILE, else the file saved in Setup, else the
 * default. An empty value counts as not given. Only picks: the file is read by the caller.
 */
export function chooseProfile(where: ProfilePlaces): {
  readonly source: ProfileSource;
  readonly path: string | null;
} {
  const candidates: [ProfileSource, string | null | undefined][] = [
    ['flag', where.flag],
    ['environment', where.env?.['KIOSK_API_PROFILE']],
    ['settings', where.settingsPath],
  ];
  for (const [source, path] of candidates) {
    if (path === undefined || path === null || path === '') continue;
    return { source, path };
  }
  return { source: 'default', path: null };
}

/**
 * The profile `chooseProfile` picks, loaded; a ProfileError when its file cannot be used. (The
 * places spelled out, not `ProfilePlaces`: this signature is part of the package's public API.)
 */
export function loadProfile(where: {
  readonly flag?: string | undefined;
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly settingsPath?: string | null | undefined;
}): LoadedProfile {
  const { source, path } = chooseProfile(where);
  if (path === null) return { profile: defaultProfile, source, path };
  return { profile: loadProfileFile(path), source, path };
}
