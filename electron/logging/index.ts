/** The main process's log: JSON lines with secrets and customer contact data scrubbed out. */
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
