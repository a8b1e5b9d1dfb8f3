/**
 * Structured JSON-lines logger that scrubs secrets and customer contact data before anything is
 * written. Kiosk logs end up in support tickets and crash reports, so redaction happens here, at
 * the only place a record becomes text, instead of relying on every caller to remember it.
 */

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

export type LogFields = Readonly<Record<string, unknown>>;

export interface Logger {
  debug(event: string, fields?: LogFields): void;
  info(event: string, fields?: LogFields): void;
  warn(event: string, fields?: LogFields): void;
  error(event: string, fields?: LogFields): void;
}

export const REDACTED = '[redacted]';

const levelRank: Readonly<Record<LogLevel, number>> = { debug: 10, info: 20, warn: 30, error: 40 };

/**
 * Keys whose values are never written, whatever they hold: credentials, tokens and the
 * customer contact fields of the contract (email, phone, address, postal code, names).
 */
const sensitiveKey =
  /authorization|cookie|password|passwd|secret|token|jwt|credential|api[-_]?key|email|e-mail|phone|mobile|address|postal|zip|first_?name|last_?name|contact|internalcomments/i;

/** Patterns found inside otherwise harmless strings (server explanations, error messages). */
const jwtPattern = /\beyJ[\w-]*\.[\w-]+\.[\w-]*/g;
const bearerPattern = /\bBearer\s+\S+/gi;
const emailPattern = /[^\s@"'<>(),;:]+@[^\s@"'<>(),;:]+\.[^\s@"'<>(),;:]+/g;
/** Nine or more digits, optionally grouped by spaces, dots or dashes: phone numbers, not ISO dates. */
const phonePattern = /\+?\d(?:[ .-]?\d){8,}/g;

export function redactString(value: string): string {
  return value
    .replace(jwtPattern, REDACTED)
    .replace(bearerPattern, `Bearer ${REDACTED}`)
    .replace(emailPattern, REDACTED)
    .replace(phonePattern, REDACTED);
}

/** A deep copy of `value` with sensitive keys and patterns replaced; cycles and depth are bounded. */
export function redact(value: unknown, depth = 0, seen = new WeakSet<object>()): unknown {
  if (typeof value === 'string') return redactString(value);
  if (value === null || typeof value !== 'object') {
    return typeof value === 'bigint' || typeof value === 'symbol' || typeof value === 'function'
      ? String(value)
      : value;
  }
  if (depth > 8 || seen.has(value)) return '[truncated]';
  seen.add(value);
  if (value instanceof Error) {
    // Error objects of HTTP libraries carry request configs with headers; keep the message only.
    return { name: value.name, message: redactString(value.message) };
  }
  if (Array.isArray(value)) return value.map((entry) => redact(entry, depth + 1, seen));
  if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer)
    return `[${value.byteLength} bytes]`;
  const out: Record<string, unknown> = {};
  for (const [key, entry] of Object.entries(value)) {
    out[key] = sensitiveKey.test(key) ? REDACTED : redact(entry, depth + 1, seen);
  }
  return out;
}

export interface RedactingLoggerOptions {
  /**
   * Receives one JSON line per record, without the trailing newline: a LogSink's `write`
   * (file-sink.ts, stream-sink.ts), which never throws; whatever another one throws is ignored.
   */
  readonly sink: (line: string) => void;
  readonly level?: LogLevel;
  /** Fields added to every record (component name, kiosk id). Redacted like the rest. */
  readonly base?: LogFields;
  readonly now?: () => number;
}

export function createRedactingLogger({
  sink,
  level = 'info',
  base = {},
  now = Date.now,
}: RedactingLoggerOptions): Logger {
  const threshold = levelRank[level];
  const format = (recordLevel: LogLevel, event: string, fields: LogFields): string => {
    const head = { time: new Date(now()).toISOString(), level: recordLevel, event };
    try {
      return JSON.stringify({ ...head, ...(redact({ ...base, ...fields }) as object) });
    } catch {
      // A getter that throws, a toJSON that throws: the record is kept, its fields are not.
      return JSON.stringify({ ...head, unserializable: true });
    }
  };
  const write = (recordLevel: LogLevel, event: string, fields: LogFields = {}) => {
    if (levelRank[recordLevel] < threshold) return;
    // Logging never throws into the program: a sink that fails loses this line, nothing else.
    try {
      sink(format(recordLevel, event, fields));
    } catch {
      // The sink's own business to count; there is nowhere left to report it.
    }
  };
  return {
    debug: (event, fields) => write('debug', event, fields),
    info: (event, fields) => write('info', event, fields),
    warn: (event, fields) => write('warn', event, fields),
    error: (event, fields) => write('error', event, fields),
  };
}

export const silentLogger: Logger = {
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: () => {},
};
