/**
 * The main process's log: JSON lines with secrets and customer contact data scrubbed out, on
 * sinks that never throw into the program, with floods of the same event counted, not written.
 */
export {
  DEFAULT_LOG_FILES,
  DEFAULT_LOG_MAX_BYTES,
  type FileSinkOptions,
  createFileSink,
} from './file-sink.ts';
export { type LogSettings, openLogSink, readLogSettings } from './log-settings.ts';
export type { LogSink } from './log-sink.ts';
export {
  type RateLimitOptions,
  type RateLimitedLogger,
  createRateLimitedLogger,
} from './rate-limited-logger.ts';
export {
  type LogFields,
  type LogLevel,
  type Logger,
  REDACTED,
  type RedactingLoggerOptions,
  createRedactingLogger,
  redact,
  redactString,
  silentLogger,
} from './redacting-logger.ts';
export { type StreamSinkOptions, createStreamSink } from './stream-sink.ts';
export { teeLogger } from './tee-logger.ts';
