/**
 * The sandbox's log: one JSON object per line, to a sink (stderr for the CLI, nothing by default
 * when embedded). Requests are logged by route pattern, never by raw URL: query strings may carry
 * e-mails or phone numbers (customer filters), and tokens, passwords and bodies are never logged.
 */
export type LogSink = (line: string) => void;

export interface Logger {
  info(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

export function createLogger(sink: LogSink | undefined, now: () => Date): Logger {
  const write = (level: string, message: string, fields: Record<string, unknown> = {}) => {
    if (!sink) return;
    sink(JSON.stringify({ time: now().toISOString(), level, msg: message, ...fields }));
  };
  return {
    info: (message, fields) => write('info', message, fields),
    error: (message, fields) => write('error', message, fields),
  };
}
