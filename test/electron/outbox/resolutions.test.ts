import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { demoGiftCards } from '../../../sandbox/data/demo.ts';
import { outboxExitCodes, runOutboxCommand } from '../../../electron/cli/outbox-command.ts';
import { localDateOf } from '../../../electron/outbox/day-bounds.ts';
import { OutboxError } from '../../../electron/outbox/errors.ts';
import type { ConnectivityStatus } from '../../../electron/outbox/events.ts';
import { Outbox } from '../../../electron/outbox/outbox.ts';
import { OutboxSender } from '../../../electron/outbox/sender.ts';
import { startTestSandbox, type TestSandbox } from './sandbox-support.ts';
import { ShiftedClock, tempDataDir } from './support.ts';

let sandbox: TestSandbox;
let data: ReturnType<typeof tempDataDir>;
let connectivity: ConnectivityStatus;
let clock: ShiftedClock;

beforeAll(async () => {
  sandbox = await startTestSandbox(14);
});
afterAll(() => sandbox.close());
beforeEach(() => {
  data = tempDataDir();
  connectivity = 'offline';
  clock = new ShiftedClock();
});
afterEach(() => data.cleanup());

/** A debit stored offline above the card's balance, refused by the service once back online. */
async function refusedLater(box: Outbox) {
  const { debit } = box.enqueue({
    giftCardId: demoGiftCards.lowBalance,
    amount: 10,
    reference: 'sale-after-left',
  });
  expect(debit.acceptedOffline).toBe(true);
  connectivity = 'online';
  const client = sandbox.client({ clock });
  const sender = new OutboxSender({ outbox: box, gateway: sandbox.gateway(client) });
  await sender.drain({ untilEmpty: true, timeoutMs: 10_000 });
  return box.get(debit.id);
}

function outbox(): Outbox {
  return new Outbox({ db: data.open(), clock, connectivity: () => connectivity });
}

describe('a debit refused after the fact', () => {
  it('needs attention until staff record it collected another way, durably', async () => {
    const box = outbox();
    const refused = await refusedLater(box);
    expect(refused.state).toBe('refused');
    expect(box.attention().map((debit) => debit.id)).toEqual([refused.id]);

    const before = clock.now();
    const resolved = box.resolve(refused.id, {
      kind: 'collected_other_way',
      method: 'cash',
    });
    expect(resolved.staffResolution).toMatchObject({ kind: 'collected_other_way', method: 'cash' });
    expect(resolved.staffResolution!.at).toBeGreaterThanOrEqual(before);
    expect(resolved.staffResolution!.at).toBeLessThanOrEqual(clock.now());
    expect(box.attention()).toEqual([]);
    // Another process opening the same file sees the record.
    const reopened = new Outbox({ db: data.open(), clock });
    expect(reopened.get(refused.id).staffResolution).toMatchObject({ kind: 'collected_other_way' });
  });

  it('a retry of the same record is harmless; a different one is refused', async () => {
    const box = outbox();
    const refused = await refusedLater(box);
    box.resolve(refused.id, { kind: 'could_not_collect' });
    expect(box.resolve(refused.id, { kind: 'could_not_collect' }).staffResolution).toMatchObject({
      kind: 'could_not_collect',
      method: null,
    });
    expect(() => box.resolve(refused.id, { kind: 'collected_other_way', method: 'card' })).toThrow(
      expect.objectContaining({ code: 'OUTBOX_INVALID_STATE' }) as Error,
    );
  });

  it('a debit not refused, or a resolution without its method, is refused with a code', () => {
    const box = outbox();
    const { debit } = box.enqueue({ giftCardId: demoGiftCards.active, amount: 1 });
    expect(() => box.resolve(debit.id, { kind: 'could_not_collect' })).toThrow(OutboxError);
    expect(() => box.resolve(debit.id, { kind: 'collected_other_way' } as never)).toThrow(
      expect.objectContaining({ code: 'OUTBOX_INVALID_DEBIT' }) as Error,
    );
    expect(box.get(debit.id).staffResolution).toBeNull();
  });

  it("the day's debits: every one accepted that local day, none from the day after", async () => {
    const box = outbox();
    const refused = await refusedLater(box);
    const today = localDateOf(clock.now());
    clock.advance(24 * 3600_000);
    box.enqueue({ giftCardId: demoGiftCards.active, amount: 2 });
    expect(box.acceptedOn(today).map((debit) => debit.id)).toEqual([refused.id]);
    expect(() => box.acceptedOn('2026-02-30')).toThrow(
      expect.objectContaining({ code: 'OUTBOX_INVALID_DEBIT' }) as Error,
    );
  });
});

async function report(args: string[]) {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const code = await runOutboxCommand(['--data-dir', data.dir, 'outbox', 'report', ...args], {
    io: { stdout: (text) => stdout.push(text), stderr: (text) => stderr.push(text), env: {} },
    clock,
  });
  return { code, stdout: stdout.join(''), stderr: stderr.join('') };
}

describe('kioskctl outbox report --date', () => {
  it("lists the day's debits with their state, the offline mark and the resolution", async () => {
    const box = outbox();
    const refused = await refusedLater(box);
    box.resolve(refused.id, { kind: 'collected_other_way', method: 'card' });
    const run = await report(['--date', localDateOf(clock.now())]);
    expect(run.code).toBe(outboxExitCodes.ok);
    const printed = JSON.parse(run.stdout) as { debits: Record<string, unknown>[] };
    expect(printed.debits).toEqual([
      expect.objectContaining({
        id: refused.id,
        state: 'refused',
        acceptedOffline: true,
        reference: refused.reference,
        staffResolution: expect.objectContaining({ kind: 'collected_other_way', method: 'card' }),
      }),
    ]);
  });

  it('a date that is not a day is refused before anything is opened (exit 2)', async () => {
    const run = await report(['--date', '2026-13-01']);
    expect(run.code).toBe(outboxExitCodes.invalidRequest);
    expect(JSON.parse(run.stderr)).toMatchObject({ error: { code: 'USAGE' } });
  });
});
