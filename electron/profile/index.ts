/** The integration profile in force, from a file an administrator chose, or the default. */
export {
  type LoadedProfile,
  ProfileError,
  type ProfileErrorCode,
  type ProfileSource,
  loadProfile,
  loadProfileFile,
} from './load-profile.ts';
