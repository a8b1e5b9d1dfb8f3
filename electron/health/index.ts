/**
 * A kiosk's health, as `kioskctl status` shows it: the service, the account, the clock, the
 * sender, the debits needing attention, the catalogue mirror and the printers, with each trouble
 * classed and ranked (money first).
 */
export {
  collectHealth,
  type HealthOptions,
  type HealthReport,
  type LastError,
  type ProfileInUse,
} from './health-report.ts';
export { formatDuration, parseDuration } from './duration.ts';
export { DEFAULT_STALE_AFTER_MS, type MirrorHealth } from './mirror-age.ts';
export type { PrinterAccess, PrinterHealth } from './printer-health.ts';
export type { SenderHealth } from './sender-state.ts';
export {
  DEFAULT_MAX_CLOCK_OFFSET_MS,
  type CredentialsHealth,
  type ErrorNote,
  type ServiceAccess,
  type ServiceHealth,
} from './service-check.ts';
export { statusScreen } from './status-screen.ts';
export { type Problem, type TroubleClass, troubleClasses } from './trouble.ts';
