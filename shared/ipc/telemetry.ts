import { z } from 'zod';
import { lazySchema } from './lazy-schema.ts';
import { isHttpsOrLoopbackHttp } from './secure-url.ts';

/**
 * How this kiosk reports to the fleet's monitoring (the `telemetry` key of the settings file;
 * the environment wins key by key). Every way out is off until configured: a kiosk sends nothing
 * anywhere by default. Read when the kiosk starts.
 */
export const TelemetrySettings = lazySchema(() =>
  z.strictObject({
    /**
     * The Prometheus scrape endpoint's port, on loopback only (a node agent on the kiosk, or an
     * SSH tunnel, scrapes it); null: no endpoint.
     */
    prometheusPort: z.number().int().min(1).max(65_535).nullable().optional(),
    /** `otel_scope_name`/`otel_scope_version` labels on every scraped series; default off. */
    prometheusScopeLabels: z.boolean().optional(),
    /**
     * The fleet collector's OTLP/HTTP base URL (`/v1/metrics` and `/v1/logs` are appended); null:
     * no export. Authentication headers come from OTEL_EXPORTER_OTLP_HEADERS, never this file.
     * The API's rule: https, or http to this machine only (a local agent), at every door (the
     * settings file, setup, KIOSK_OTLP_ENDPOINT).
     */
    otlpEndpoint: z
      .url({ protocol: /^https?$/ })
      .max(2_048)
      .regex(/^https?:\/\/[^/?#@\s]+(?:\/[^?#\s]*)?$/i, {
        message: 'an http(s) URL with a host, and no user, password, query or fragment',
      })
      .refine(isHttpsOrLoopbackHttp, {
        message:
          "telemetry.otlpEndpoint must be https://, or http:// to this machine only (127.0.0.1, [::1] or localhost): the kiosk's figures and log lines never cross a network in clear",
      })
      .nullable()
      .optional(),
    /** Also send the kiosk's (redacted) log lines as OTLP log records to the collector. */
    otlpLogs: z.boolean().optional(),
    /** How often metrics are pushed to the collector. */
    exportIntervalMs: z.number().int().min(1_000).max(3_600_000).optional(),
    /** This kiosk's name in the fleet; absent: the machine's host name. */
    kioskId: z
      .string()
      .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, {
        message: 'letters, digits, dot, dash and underscore, at most 64',
      })
      .optional(),
  }),
);
export type TelemetrySettings = z.infer<typeof TelemetrySettings>;
