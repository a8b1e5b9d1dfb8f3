/** The integration profile in force, from a file an administrator chose, or the default. */
export {
  type LoadedProfile,
  ProfileError,
  type ProfileErrorCode,
  type ProfilePlaces,
  type ProfileSource,
  chooseProfile,
  loadProfile,
  loadProfileFile,
} from './load-profile.ts';
export { type ProfileDescription, ProfileInForce } from './profile-in-force.ts';
