import { afterEach, beforeEach, expect, it } from 'vitest';
import { outboxExitCodes, runOutboxCommand } from '../../../electron/cli/outbox-command.ts';
import { Outbox } from '../../../electron/outbox/outbox.ts';
import { tempDataDir } from './support.ts';

/**
 * `kioskctl outbox enqueue` with the service unreachable applies the kiosk's checks of what it
 * last read of the card: exit 6 with a code naming the rule, nothing stored.
 */

let data: ReturnType<typeof tempDataDir>;
beforeEach(() => {
  data = tempDataDir('kioskctl-cards-');
  const db = data.open();
  new Outbox({ db }).recordCard({
    id: 'gc_read_earlier',
    maskedNumber: '**** 9088',
    status: 'active',
    balance: 4.5,
    currency: 'EUR',
  });
  new Outbox({ db }).recordCard({ id: 'gc_read_expired', status: 'expired', balance: 90 });
});
afterEach(() => data.cleanup());

async function enqueue(card: string, amount: string) {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const code = await runOutboxCommand(
    // --wait makes kioskctl probe the service: a closed port, so it is known offline.
    [
      '--data-dir',
      data.dir,
      'outbox',
      'enqueue',
      '--card',
      card,
      '--amount',
      amount,
      '--wait',
      '0',
    ],
    {
      io: {
        stdout: (text) => stdout.push(...text.split('\n').filter(Boolean)),
        stderr: (text) => stderr.push(...text.split('\n').filter(Boolean)),
        env: {
          KIOSK_API_BASE_URL: 'http://127.0.0.1:9',
          KIOSK_API_EMAIL: 'kiosk@sandbox.test',
          KIOSK_API_PASSWORD: 'unused-here',
        },
      },
    },
  );
  const error =
    stderr[0] === undefined
      ? undefined
      : (JSON.parse(stderr[0]) as { error: { code: string; message: string } }).error;
  return { code, error, stdout };
}

const stored = () => new Outbox({ db: data.open() }).list().length;

it('over the balance read minus the debits waiting: exit 6, OUTBOX_OVER_KNOWN_BALANCE, both figures', async () => {
  const run = await enqueue('gc_read_earlier', '20');
  expect(run.code).toBe(outboxExitCodes.notAccepted);
  expect(run.error?.code).toBe('OUTBOX_OVER_KNOWN_BALANCE');
  expect(run.error?.message).toMatch(/4\.50 EUR.*0\.00 EUR.*20\.00 EUR/);
  expect(stored()).toBe(0);
  expect((await enqueue('gc_read_earlier', '4')).code).toBe(outboxExitCodes.ok);
  expect((await enqueue('gc_read_earlier', '1')).error?.message).toMatch(/at most 0\.50 EUR/);
  expect(stored()).toBe(1);
});

it('a card never read over the policy, or read expired: exit 6 with the rule', async () => {
  const unknown = await enqueue('gc_never_read', '60');
  expect(unknown.code).toBe(outboxExitCodes.notAccepted);
  expect(unknown.error?.code).toBe('OUTBOX_UNKNOWN_CARD');
  const expired = await enqueue('gc_read_expired', '1');
  expect(expired.code).toBe(outboxExitCodes.notAccepted);
  expect(expired.error?.code).toBe('OUTBOX_CARD_NOT_DEBITABLE');
  expect(stored()).toBe(0);
});
