import type { Logger } from './redacting-logger.ts';

/**
 * One logger writing to several: the kiosk's own (a file, stderr, an integrator's) and the fleet
 * collector's. Each is called on its own, so one that throws costs the others nothing.
 */
export function teeLogger(...loggers: readonly Logger[]): Logger {
  const each =
    (level: keyof Logger): Logger[keyof Logger] =>
    (event, fields) => {
      for (const logger of loggers) {
        try {
          logger[level](event, fields);
        } catch {
          // A logger never takes the program down; the others still got the record.
        }
      }
    };
  return { debug: each('debug'), info: each('info'), warn: each('warn'), error: each('error') };
}
