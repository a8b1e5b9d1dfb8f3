import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { cachedPrinterStates } from '../../../electron/kiosk/kiosk-metrics.ts';
import { createRedactingLogger } from '../../../electron/logging/index.ts';
import type { PrintBackend, PrinterInfo } from '../../../electron/printing/index.ts';

/**
 * The printers as the metrics read them: one query to the print system serves every collection
 * for a while, collections during a query share it, and a print system that cannot be asked is
 * logged once per period, then counted. Fake timers: nothing here waits.
 */

let queries = 0;
let failing = false;
const backend = {
  name: 'cups',
  async listPrinters(): Promise<PrinterInfo[]> {
    queries += 1;
    await Promise.resolve();
    if (failing) throw new Error('scheduler down');
    return [
      { name: 'a', state: 'idle', accepting: true } as PrinterInfo,
      { name: 'b', state: 'stopped', accepting: true } as PrinterInfo,
    ];
  },
} as unknown as PrintBackend;

let lines: Record<string, unknown>[];
beforeEach(() => {
  vi.useFakeTimers();
  queries = 0;
  failing = false;
  lines = [];
});
afterEach(() => vi.useRealTimers());

const logger = () =>
  createRedactingLogger({
    sink: (line) => lines.push(JSON.parse(line) as Record<string, unknown>),
    level: 'debug',
  });

it('one query serves the collections of its period; concurrent ones share it', async () => {
  const states = cachedPrinterStates(backend, logger(), { maxAgeMs: 30_000 });
  const all = await Promise.all(Array.from({ length: 8 }, () => states.read()));
  expect(all).toEqual(Array(8).fill({ idle: 1, stopped: 1 }));
  expect(queries).toBe(1);
  vi.advanceTimersByTime(29_000);
  await states.read();
  expect(queries).toBe(1);
  vi.advanceTimersByTime(2_000);
  await states.read();
  expect(queries).toBe(2);
});

it('a print system down: unreachable, logged once per period, then a count', async () => {
  failing = true;
  const states = cachedPrinterStates(backend, logger(), { maxAgeMs: 1_000, logPeriodMs: 60_000 });
  for (let scrape = 0; scrape < 30; scrape++) {
    expect(await states.read()).toEqual({ unreachable: 1 });
    vi.advanceTimersByTime(1_000);
  }
  expect(queries).toBe(30);
  vi.advanceTimersByTime(60_000);
  const events = lines.filter((line) => line['event'] === 'kiosk.metrics.printers_unreadable');
  expect(events).toHaveLength(2);
  expect(events[0]).toMatchObject({ level: 'warn', error: { message: 'scheduler down' } });
  expect(events[1]).toMatchObject({ level: 'warn', suppressed: 29, windowMs: 60_000 });
  states.close();
});
