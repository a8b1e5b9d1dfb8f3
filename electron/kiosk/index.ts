/** The kiosk's service root: every service wired into the handlers the IPC router calls. */
export { AdminPin, type AdminPinOptions } from './admin-pin.ts';
export {
  type CredentialStore,
  type KioskCredentials,
  type SetupRequiredReason,
  fixedCredentials,
  setupRequiredCredentials,
  vaultCredentials,
} from './credential-store.ts';
export {
  NO_SERVICE_BASE_URL,
  type ServiceChoice,
  type ServiceChoiceOptions,
  chooseService,
  deploymentBaseUrl,
} from './service-choice.ts';
export {
  type EmbeddedSandbox,
  type StartDecision,
  type StartDecisionOptions,
  decideStart,
} from './start-decision.ts';
export {
  type KioskServices,
  type KioskServicesOptions,
  type WiredKioskServices,
  createKioskServices,
} from './kiosk-services.ts';
export {
  SETTINGS_FILE,
  SettingsStore,
  savedApiBaseUrl,
  savedOfflineLimits,
  savedSettings,
} from './settings-store.ts';
export type { KioskPrintingOptions } from './kiosk-printing.ts';
