import { IntegrationProfile, defaultProfile } from '../../shared/profile/index.ts';
import { BoundedFileError, readBoundedFileSync } from './bounded-file.ts';

/**
 * Loads the integration profile in force: `--profile` (kioskctl), else `KIOSK_API_PROFILE`, else
 * the path an administrator saved in setup, else the default (the sandbox's dialect). A file that
 * is missing or wrong is refused with a typed error naming the file and the first problem: the
 * kiosk must not guess how a service shapes its records. The file is read bounded (a FIFO, a
 * device, a directory or more than 1 MiB is refused before anything is parsed), and a refusal
 * never quotes what the file holds: a path pointed at /etc/shadow or /proc/self/environ says
 * "not JSON (line 1, column 1)", not its first bytes.
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
export const MAX_PROFILE_BYTES = 1024 * 1024;

export function loadProfileFile(path: string): IntegrationProfile {
  let text: string;
  try {
    const bytes = readBoundedFileSync(path, MAX_PROFILE_BYTES);
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch (error) {
    if (error instanceof BoundedFileError) {
      if (error.failure === 'NOT_FOUND')
        throw new ProfileError('PROFILE_NOT_FOUND', path, 'no such file');
      throw new ProfileError(
        'PROFILE_INVALID',
        path,
        error.failure === 'TOO_LARGE' ? `${error.reason}: not a profile` : error.reason,
      );
    }
    // The decoder's message names the encoding, never the bytes.
    throw new ProfileError('PROFILE_INVALID', path, 'not UTF-8 text: not a profile');
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    // JSON.parse's message quotes the text ("root:*:202..."): only where it stopped is said.
    throw new ProfileError('PROFILE_INVALID', path, `not JSON (${syntaxErrorPlace(text, error)})`);
  }
  const result = IntegrationProfile.safeParse(json);
  if (result.success) return result.data;
  const [first] = result.error.issues;
  const where = first?.path.map((segment) => keyText(String(segment))).join('.') ?? '';
  const more =
    result.error.issues.length > 1 ? ` (and ${result.error.issues.length - 1} more)` : '';
  const message =
    first?.code === 'unrecognized_keys'
      ? `unknown key${first.keys.length > 1 ? 's' : ''} ${first.keys.map((key) => `"${keyText(key)}"`).join(', ')}`
      : (first?.message ?? 'invalid');
  throw new ProfileError(
    'PROFILE_INVALID',
    path,
    `${where === '' ? '' : `${where}: `}${message}${more}`,
  );
}

/**
 * A key of the file as a message may show it: a plain name (what a profile's keys are), else an
 * ellipsis, so a JSON file that is not a profile has none of its text quoted.
 */
function keyText(key: string): string {
  return /^[A-Za-z0-9_$-]{1,64}$/.test(key) ? key : '…';
}

/** `line 3, column 7` from JSON.parse's `at position 41`; never the text it quotes. */
function syntaxErrorPlace(text: string, error: unknown): string {
  if (text.trim() === '') return 'the file is empty';
  const message = error instanceof Error ? error.message : '';
  const position = /at position (\d+)/.exec(message)?.[1];
  if (position === undefined)
    return /end of JSON input/.test(message) ? 'it ends too early' : 'a syntax error';
  const before = text.slice(0, Number(position));
  const line = before.split('\n').length;
  const column = before.length - (before.lastIndexOf('\n') + 1) + 1;
  return `line ${line}, column ${column}`;
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
