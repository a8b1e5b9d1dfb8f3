import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { outboxExitCodes, runOutboxCommand } from '../../../electron/cli/outbox-command.ts';
import { SETTINGS_FILE } from '../../../electron/kiosk/settings-store.ts';
import { Outbox } from '../../../electron/outbox/outbox.ts';
import { kioskctl as kioskctlProcess } from '../cli/support.ts';
import { tempDataDir } from './support.ts';

/**
 * `kioskctl outbox enqueue` with the service unreachable applies the kiosk's checks of what it
 * last read of the card, `--wait` or not: exit 6 with a code naming the rule, nothing stored.
 * The pending amounts it counts are every process's (the kiosk app's too): read in SQLite.
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
  new Outbox({ db }).recordCard({ id: 'gc_read_114', status: 'active', balance: 114.5 });
});
afterEach(() => data.cleanup());

const unreachable = {
  KIOSK_API_BASE_URL: 'http://127.0.0.1:9',
  KIOSK_API_EMAIL: 'kiosk@sandbox.test',
  KIOSK_API_PASSWORD: 'unused-here',
};

/**
 * How the technician runs it: `--wait 0` (kioskctl probes the service: a closed port, known
 * offline); no `--wait` with the service configured (probed all the same); no `--wait` and no
 * service configured at all (the connectivity stays unknown: the checks do not depend on it).
 */
const ways = [
  ['--wait 0, probed offline', ['--wait', '0'], unreachable],
  ['no --wait, probed offline', [], unreachable],
  ['no --wait, no service configured', [], {}],
] as const;

async function enqueue(
  card: string,
  amount: string,
  way: readonly string[],
  env: Readonly<Record<string, string>>,
) {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const code = await runOutboxCommand(
    ['--data-dir', data.dir, 'outbox', 'enqueue', '--card', card, '--amount', amount, ...way],
    {
      io: {
        stdout: (text) => stdout.push(...text.split('\n').filter(Boolean)),
        stderr: (text) => stderr.push(...text.split('\n').filter(Boolean)),
        env,
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

describe.each(ways)('%s', (_, way, env) => {
  it('over the balance read minus the debits waiting: exit 6, OUTBOX_OVER_KNOWN_BALANCE, both figures', async () => {
    const run = await enqueue('gc_read_earlier', '20', way, env);
    expect(run.code).toBe(outboxExitCodes.notAccepted);
    expect(run.error?.code).toBe('OUTBOX_OVER_KNOWN_BALANCE');
    expect(run.error?.message).toMatch(/4\.50 EUR.*0\.00 EUR.*20\.00 EUR/);
    expect(stored()).toBe(0);
    // Stored offline: committed (0); with --wait, the wait ends with it pending, not applied (9).
    const accepted = await enqueue('gc_read_earlier', '4', way, env);
    expect(accepted.code).toBe(
      (way as readonly string[]).includes('--wait')
        ? outboxExitCodes.notApplied
        : outboxExitCodes.ok,
    );
    if ((way as readonly string[]).includes('--wait')) {
      expect(accepted.error?.code).toBe('DEBIT_NOT_APPLIED');
      expect(accepted.error?.message).toMatch(/still pending \(stored offline/);
    }
    expect((await enqueue('gc_read_earlier', '1', way, env)).error?.message).toMatch(
      /at most 0\.50 EUR/,
    );
    expect(stored()).toBe(1);
  });

  it('a card never read over the policy, or read expired: exit 6 with the rule', async () => {
    const unknown = await enqueue('gc_never_read', '60', way, env);
    expect(unknown.code).toBe(outboxExitCodes.notAccepted);
    expect(unknown.error?.code).toBe('OUTBOX_UNKNOWN_CARD');
    const expired = await enqueue('gc_read_expired', '1', way, env);
    expect(expired.code).toBe(outboxExitCodes.notAccepted);
    expect(expired.error?.code).toBe('OUTBOX_CARD_NOT_DEBITABLE');
    expect(stored()).toBe(0);
  });
});

describe("the kiosk app's open debits count", { timeout: 30_000 }, () => {
  it('against the card read: the app holds 100.00 of 114.50, kioskctl (another process) may add 14.50, not 20.00', async () => {
    // The kiosk app, on its own connection, accepted 100.00 while it believed it was online.
    const app = new Outbox({ db: data.open(), connectivity: () => 'online' });
    app.enqueue({ giftCardId: 'gc_read_114', amount: 100 });

    const refused = await kioskctlProcess(
      ['outbox', 'enqueue', '--card', 'gc_read_114', '--amount', '20'],
      { KIOSK_DATA_DIR: data.dir },
    );
    expect(refused.code).toBe(outboxExitCodes.notAccepted);
    expect(JSON.parse(refused.stderr)).toMatchObject({
      error: { code: 'OUTBOX_OVER_KNOWN_BALANCE' },
    });
    expect(refused.stderr).toMatch(/100\.00 EUR of debits still wait: at most 14\.50 EUR/);
    const fits = await enqueue('gc_read_114', '14.50', [], {});
    expect(fits.code).toBe(outboxExitCodes.ok);
    expect(stored()).toBe(2);
  });

  it('against the per-card pending limit saved in Setup', async () => {
    writeFileSync(
      join(data.dir, SETTINGS_FILE),
      JSON.stringify({ offlineLimits: { maxPendingAmountPerCard: 105 } }),
    );
    const app = new Outbox({ db: data.open(), connectivity: () => 'online' });
    app.enqueue({ giftCardId: 'gc_read_114', amount: 100 });
    const refused = await enqueue('gc_read_114', '10', [], {});
    expect(refused.code).toBe(outboxExitCodes.notAccepted);
    expect(refused.error?.code).toBe('OUTBOX_LIMIT_EXCEEDED');
    expect(refused.error?.message).toMatch(/maxPendingAmountPerCard is 105\.00 EUR.*110\.00 EUR/);
    expect(stored()).toBe(1);
  });
});
