import { SeverityNumber } from '@opentelemetry/api-logs';
import type { LoggerProvider } from '@opentelemetry/sdk-logs';
import type { LogSink } from '../logging/index.ts';

const severities: Readonly<Record<string, SeverityNumber>> = {
  debug: SeverityNumber.DEBUG,
  info: SeverityNumber.INFO,
  warn: SeverityNumber.WARN,
  error: SeverityNumber.ERROR,
};

/**
 * The kiosk's log lines, as the redacting logger already wrote them, as OTLP log records: the
 * event name is the body, the other fields attributes. The batch processor drops what it cannot
 * send (a collector down, a full queue): the fleet's copy of the log is best effort, the file
 * stays the record. Never throws into the logger.
 */
export function createOtlpLogSink(provider: LoggerProvider): LogSink {
  const logger = provider.getLogger('commerce-kiosk');
  let dropped = 0;
  return {
    write(line) {
      try {
        const { time, level, event, ...fields } = JSON.parse(line) as Record<string, unknown>;
        const attributes: Record<string, string | number | boolean> = {};
        for (const [key, value] of Object.entries(fields)) {
          if (
            typeof value === 'string' ||
            typeof value === 'number' ||
            typeof value === 'boolean'
          ) {
            attributes[key] = value;
          } else if (value !== null && value !== undefined) {
            attributes[key] = JSON.stringify(value);
          }
        }
        const at = typeof time === 'string' ? Date.parse(time) : Number.NaN;
        logger.emit({
          body: typeof event === 'string' ? event : 'log',
          severityText: typeof level === 'string' ? level : 'info',
          severityNumber: severities[String(level)] ?? SeverityNumber.INFO,
          attributes,
          ...(Number.isFinite(at) ? { timestamp: at } : {}),
        });
      } catch {
        dropped += 1;
      }
    },
    async flush() {
      await provider.forceFlush().catch(() => undefined);
    },
    async close() {
      await provider.shutdown().catch(() => undefined);
    },
    get dropped() {
      return dropped;
    },
  };
}
