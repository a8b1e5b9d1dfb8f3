/** The kiosk's service root: every service wired into the handlers the IPC router calls. */
export { AdminPin, type AdminPinOptions } from './admin-pin.ts';
export {
  type CredentialStore,
  type KioskCredentials,
  fixedCredentials,
  vaultCredentials,
} from './credential-store.ts';
export {
  type KioskServices,
  type KioskServicesOptions,
  createKioskServices,
} from './kiosk-services.ts';
export {
  SETTINGS_FILE,
  SettingsStore,
  savedApiBaseUrl,
  savedOfflineLimits,
} from './settings-store.ts';
