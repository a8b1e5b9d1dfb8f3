import { hostname } from 'node:os';
import { z } from 'zod';
import { TelemetrySettings } from '../../shared/ipc/telemetry.ts';

/** Where the kiosk's metrics (and, if asked, its logs) go; everything off by default. */
export interface MetricsSettings {
  /** Loopback port of the Prometheus scrape endpoint (0: any free port, for tests); null: off. */
  readonly prometheusPort: number | null;
  /** `otel_scope_*` labels on the scrape's series; off unless an operator asks. */
  readonly prometheusScopeLabels: boolean;
  /** The collector's OTLP/HTTP base URL; null: no push. */
  readonly otlpEndpoint: string | null;
  readonly otlpLogs: boolean;
  readonly exportIntervalMs: number;
  readonly kioskId: string;
}

export const DEFAULT_EXPORT_INTERVAL_MS = 60_000;

/** The environment variables, each with the settings key it overrides. */
const environment = {
  KIOSK_METRICS_PORT: 'prometheusPort',
  KIOSK_METRICS_SCOPE_LABELS: 'prometheusScopeLabels',
  KIOSK_OTLP_ENDPOINT: 'otlpEndpoint',
  KIOSK_OTLP_LOGS: 'otlpLogs',
  KIOSK_OTLP_INTERVAL_MS: 'exportIntervalMs',
  KIOSK_ID: 'kioskId',
} as const satisfies Record<string, keyof TelemetrySettings>;

const fromText = {
  prometheusPort: (text: string) => (text === 'off' ? null : Number(text)),
  otlpEndpoint: (text: string) => (text === 'off' ? null : text),
  prometheusScopeLabels: booleanOf,
  otlpLogs: booleanOf,
  exportIntervalMs: Number,
  kioskId: (text: string) => text,
} satisfies Record<keyof TelemetrySettings, (text: string) => unknown>;

function booleanOf(text: string): boolean | string {
  return text === '1' || text === 'true' ? true : text === '0' || text === 'false' ? false : text;
}

export class MetricsSettingsError extends Error {
  readonly code = 'METRICS_SETTING_INVALID';
  constructor(message: string) {
    super(message);
    this.name = 'MetricsSettingsError';
  }
}

/**
 * The settings file's `telemetry`, overridden key by key by the environment (KIOSK_METRICS_PORT,
 * KIOSK_METRICS_SCOPE_LABELS, KIOSK_OTLP_ENDPOINT, KIOSK_OTLP_LOGS, KIOSK_OTLP_INTERVAL_MS, KIOSK_ID; `off` turns a way out
 * off). A bad environment value throws, naming the variable: a deployment typo should stop the
 * start where it is seen, not leave a fleet blind.
 */
export function resolveMetricsSettings(
  saved: TelemetrySettings | undefined,
  env: Readonly<Record<string, string | undefined>>,
  machineName: () => string = hostname,
): MetricsSettings {
  const merged: Record<string, unknown> = { ...saved };
  for (const [variable, key] of Object.entries(environment)) {
    const text = env[variable];
    if (text === undefined || text === '') continue;
    const value = fromText[key](text);
    const parsed = TelemetrySettings.shape[key].safeParse(value);
    if (!parsed.success) {
      throw new MetricsSettingsError(
        `${variable}: ${parsed.error.issues[0]?.message ?? 'invalid'}${key === 'prometheusPort' ? ' (a port number, or off)' : ''}`,
      );
    }
    merged[key] = parsed.data;
  }
  const settings = TelemetrySettings.parse(merged);
  return {
    prometheusPort: settings.prometheusPort ?? null,
    prometheusScopeLabels: settings.prometheusScopeLabels ?? false,
    otlpEndpoint: settings.otlpEndpoint ?? null,
    otlpLogs: settings.otlpLogs ?? false,
    exportIntervalMs: settings.exportIntervalMs ?? DEFAULT_EXPORT_INTERVAL_MS,
    kioskId: settings.kioskId ?? kioskIdOf(machineName()),
  };
}

/** A host name as a fleet label: what the settings' rule allows, else a neutral name. */
function kioskIdOf(name: string): string {
  const cleaned = name
    .replace(/[^A-Za-z0-9._-]/g, '-')
    .replace(/^[^A-Za-z0-9]+/, '')
    .slice(0, 64);
  return z.string().min(1).safeParse(cleaned).success ? cleaned : 'kiosk';
}
