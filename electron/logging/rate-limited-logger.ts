import type { LogFields, LogLevel, Logger } from './redacting-logger.ts';

export interface RateLimitOptions {
  /** Records of one event written per window; the rest are counted (default 10). */
  readonly perWindow?: number;
  /** Default one minute. */
  readonly windowMs?: number;
}

export interface RateLimitedLogger extends Logger {
  /** Writes the counts of what was suppressed so far now (at close), not at the window's end. */
  flush(): void;
}

interface Window {
  readonly start: number;
  written: number;
  suppressed: number;
  level: LogLevel;
  timer?: NodeJS.Timeout;
}

/**
 * A logger for events anyone can cause at will (refused requests, failed connections): each
 * event gets `perWindow` records per window, and one `{"event": …, "suppressed": N}` record at
 * the window's end stands for the rest, so a flood costs the log a few lines, not gigabytes.
 */
export function createRateLimitedLogger(
  logger: Logger,
  { perWindow = 10, windowMs = 60_000 }: RateLimitOptions = {},
): RateLimitedLogger {
  const windows = new Map<string, Window>();

  const report = (event: string) => {
    const window = windows.get(event);
    if (window === undefined) return;
    clearTimeout(window.timer);
    windows.delete(event);
    if (window.suppressed > 0) {
      logger[window.level](event, { suppressed: window.suppressed, windowMs });
    }
  };

  const write = (level: LogLevel, event: string, fields?: LogFields) => {
    const now = Date.now();
    let window = windows.get(event);
    if (window !== undefined && now - window.start >= windowMs) {
      report(event);
      window = undefined;
    }
    if (window === undefined) {
      window = { start: now, written: 0, suppressed: 0, level };
      windows.set(event, window);
    }
    if (window.written < perWindow) {
      window.written++;
      logger[level](event, fields);
      return;
    }
    window.suppressed++;
    window.level = level;
    if (window.timer === undefined) {
      window.timer = setTimeout(() => report(event), window.start + windowMs - now);
      window.timer.unref();
    }
  };

  return {
    debug: (event, fields) => write('debug', event, fields),
    info: (event, fields) => write('info', event, fields),
    warn: (event, fields) => write('warn', event, fields),
    error: (event, fields) => write('error', event, fields),
    flush() {
      for (const event of [...windows.keys()]) report(event);
    },
  };
}
