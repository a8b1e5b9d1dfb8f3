/**
 * The kiosk's metrics through the OpenTelemetry SDK: a loopback Prometheus endpoint and OTLP/HTTP
 * to the fleet's collector (logs too), both off until configured.
 */
export {
  type ApiExchange,
  type DebitAttemptOutcome,
  type KioskObservations,
  type KnownLabels,
  KioskInstruments,
} from './instruments.ts';
export {
  type KioskTelemetry,
  type TelemetryIdentity,
  openKioskTelemetry,
} from './kiosk-telemetry.ts';
export {
  DEFAULT_EXPORT_INTERVAL_MS,
  type MetricsSettings,
  MetricsSettingsError,
  resolveMetricsSettings,
} from './metrics-settings.ts';
