import { type IntegrationProfile, defaultProfile } from '../../shared/profile/index.ts';
import type { Logger } from '../logging/index.ts';
import {
  type ProfileSource,
  ProfileError,
  chooseProfile,
  loadProfileFile,
} from './load-profile.ts';

/** What the kiosk says of the profile in force (setup, diagnostics). */
export interface ProfileDescription {
  readonly name: string;
  readonly source: Exclude<ProfileSource, 'flag'>;
  readonly path: string | null;
  /** The configured file could not be used: the default is in force until it is fixed. */
  readonly error: { readonly code: string; readonly message: string } | null;
}

/**
 * The kiosk app's integration profile: KIOSK_API_PROFILE (the deployment's) wins over the file
 * an administrator saved in setup, which wins over the default. Read afresh by every reader of a
 * 'not shown' record, so a switch applies to the next request. A configured file that cannot be
 * used never keeps the kiosk from starting: the default stays in force and setup shows why (a
 * debit the service then refuses for its shape is held, not lost).
 */
export class ProfileInForce {
  readonly #environmentPath: string | undefined;
  readonly #logger: Logger;
  #profile: IntegrationProfile = defaultProfile;
  #description: ProfileDescription = defaultDescription(null);

  constructor(options: {
    readonly environmentPath?: string | undefined;
    readonly settingsPath: string | null;
    readonly logger: Logger;
  }) {
    this.#environmentPath = options.environmentPath || undefined;
    this.#logger = options.logger;
    this.#load(options.settingsPath, false);
  }

  /** The profile in force, as a getter to hand to the readers. */
  readonly current = (): IntegrationProfile => this.#profile;

  get description(): ProfileDescription {
    return this.#description;
  }

  /**
   * An administrator saved another file (null: none): loaded now, or a ProfileError and nothing
   * changes. Under KIOSK_API_PROFILE the saved path waits: the deployment's file stays in force.
   */
  useSettingsPath(path: string | null): void {
    this.#load(path, true);
  }

  #load(settingsPath: string | null, strict: boolean): void {
    // The rule kioskctl follows too (without a flag here: the app has none).
    const { source, path } = chooseProfile({
      env: { KIOSK_API_PROFILE: this.#environmentPath },
      settingsPath,
    });
    // No flag is given here: `source` is never 'flag'.
    if (path === null || source === 'flag') {
      this.#profile = defaultProfile;
      this.#description = defaultDescription(null);
      return;
    }
    if (strict && source === 'environment' && settingsPath !== null) {
      // Checked all the same, so setup never saves a file that would not load later.
      loadProfileFile(settingsPath);
    }
    try {
      this.#profile = loadProfileFile(path);
      this.#description = { name: this.#profile.name, source, path, error: null };
      this.#logger.info('kiosk.profile.loaded', { source, name: this.#profile.name });
    } catch (error) {
      if (!(error instanceof ProfileError) || strict) throw error;
      this.#logger.error('kiosk.profile.unusable', { source, code: error.code });
      this.#profile = defaultProfile;
      this.#description = defaultDescription({ code: error.code, message: error.message }, path);
    }
  }
}

function defaultDescription(
  error: ProfileDescription['error'],
  path: string | null = null,
): ProfileDescription {
  return { name: defaultProfile.name, source: 'default', path, error };
}
