/** The integration profile in force, from a file an administrator chose, or the default. */
export {
  BoundedFileError,
  type BoundedFileFailure,
  readBoundedFile,
  readBoundedFileSync,
  readOpenedBounded,
  sizeText,
} from './bounded-file.ts';
export {
  type LoadedProfile,
  MAX_PROFILE_BYTES,
  ProfileError,
  type ProfileErrorCode,
  type ProfilePlaces,
  type ProfileSource,
  chooseProfile,
  loadProfile,
  loadProfileFile,
} from './load-profile.ts';
export { type ProfileDescription, ProfileInForce } from './profile-in-force.ts';
