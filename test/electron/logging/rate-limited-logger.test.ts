import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createRateLimitedLogger } from '../../../electron/logging/rate-limited-logger.ts';
import { createRedactingLogger } from '../../../electron/logging/redacting-logger.ts';

let lines: Record<string, unknown>[];
const base = () =>
  createRedactingLogger({
    sink: (line) => lines.push(JSON.parse(line) as Record<string, unknown>),
    level: 'debug',
  });
const events = () => lines.map(({ time: _, ...rest }) => rest);

beforeEach(() => {
  lines = [];
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('the rate-limited logger', () => {
  it('writes the first lines of an event, then one count of the rest at the window end', () => {
    const logger = createRateLimitedLogger(base(), { perWindow: 3, windowMs: 1000 });
    for (let n = 0; n < 10; n++) logger.warn('host.refused', { n });
    expect(events()).toEqual([0, 1, 2].map((n) => ({ level: 'warn', event: 'host.refused', n })));

    vi.advanceTimersByTime(999);
    expect(lines).toHaveLength(3);
    vi.advanceTimersByTime(1);
    expect(events().slice(3)).toEqual([
      { level: 'warn', event: 'host.refused', suppressed: 7, windowMs: 1000 },
    ]);

    // A new window: lines again.
    logger.warn('host.refused', { n: 10 });
    expect(events().at(-1)).toEqual({ level: 'warn', event: 'host.refused', n: 10 });
  });

  it('counts each event on its own and writes nothing more when nothing was suppressed', () => {
    const logger = createRateLimitedLogger(base(), { perWindow: 2, windowMs: 1000 });
    for (let n = 0; n < 5; n++) logger.warn('a', {});
    logger.error('b', {});
    logger.error('b', {});
    vi.advanceTimersByTime(5000);
    expect(events()).toEqual([
      { level: 'warn', event: 'a' },
      { level: 'warn', event: 'a' },
      { level: 'error', event: 'b' },
      { level: 'error', event: 'b' },
      { level: 'warn', event: 'a', suppressed: 3, windowMs: 1000 },
    ]);
  });

  it('flush writes the counts now, and the window timer adds nothing after', () => {
    const logger = createRateLimitedLogger(base(), { perWindow: 1, windowMs: 60_000 });
    for (let n = 0; n < 4; n++) logger.info('c', {});
    logger.flush();
    expect(events()).toEqual([
      { level: 'info', event: 'c' },
      { level: 'info', event: 'c', suppressed: 3, windowMs: 60_000 },
    ]);
    vi.advanceTimersByTime(120_000);
    expect(lines).toHaveLength(2);
  });
});
