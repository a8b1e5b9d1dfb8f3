import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { outboxExitCodes, runOutboxCommand } from '../../../electron/cli/outbox-command.ts';
import { main } from '../../../electron/cli/kioskctl.ts';
import { Outbox } from '../../../electron/outbox/outbox.ts';
import { demoGiftCards } from '../../../sandbox/data/demo.ts';
import { defaultProfile } from '../../../shared/profile/index.ts';
import { ALL_SCOPES_ACCOUNT, startTestSandbox, type TestSandbox } from './sandbox-support.ts';
import { tempDataDir } from './support.ts';

/**
 * A profile with an undecided debit body is never used for money (issue 33 part 5): enqueue
 * refuses it with a clear message, nothing stored or sent, while reads still work; `enqueue
 * --wait` on a debit that ends the wait held exits 9 with the service's answer; the receipt's id
 * is read through the profile. Real sandbox over HTTP, real SQLite.
 */

let sb: TestSandbox;
let data: ReturnType<typeof tempDataDir>;
const dir = mkdtempSync(join(tmpdir(), 'kiosk-undecided-'));

beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.close());
beforeEach(() => {
  sb.control.reset();
  data = tempDataDir('kioskctl-undecided-');
});
afterEach(() => data.cleanup());

function profileFile(name: string, changes: Record<string, unknown>): string {
  const file = join(dir, `${name}.json`);
  const { $schema: _schema, ...rest } = defaultProfile;
  writeFileSync(file, JSON.stringify({ ...rest, name, ...changes }));
  return file;
}

function env() {
  const account = sb.sandbox.accounts.find((entry) => entry.email === ALL_SCOPES_ACCOUNT)!;
  return {
    KIOSK_API_BASE_URL: sb.baseUrl,
    KIOSK_API_EMAIL: account.email,
    KIOSK_API_PASSWORD: account.password,
  };
}

async function outbox(args: string[]) {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const code = await runOutboxCommand(['--data-dir', data.dir, ...args], {
    io: {
      stdout: (text) => stdout.push(...text.split('\n').filter((line) => line !== '')),
      stderr: (text) => stderr.push(...text.split('\n').filter((line) => line !== '')),
      env: env(),
    },
    sender: { idlePollMs: 20, retry: { backoff: { baseMs: 5, capMs: 20 } } },
  });
  const error =
    stderr[0] === undefined
      ? undefined
      : (JSON.parse(stderr[0]) as { error: { code: string; message: string } }).error;
  return { code, stdout, error };
}

describe('a profile whose debit body holds "?"', () => {
  const undecided = () =>
    profileFile('undecided', {
      giftCardDebit: { body: { ...defaultProfile.giftCardDebit.body, reference: '?' } },
    });

  it('enqueue refuses it with a clear message: exit 2, nothing stored, nothing sent', async () => {
    const run = await outbox([
      '--profile',
      undecided(),
      'outbox',
      'enqueue',
      '--card',
      demoGiftCards.active,
      '--amount',
      '1',
      '--wait',
      '5',
    ]);
    expect(run.code).toBe(outboxExitCodes.invalidRequest);
    expect(run.error?.code).toBe('OUTBOX_INVALID_DEBIT');
    expect(run.error?.message).toMatch(
      /profile "undecided" leaves the debit body undecided \("\?" at giftCardDebit\.body\.reference\).*no debit is sent/,
    );
    expect(new Outbox({ db: data.open() }).list()).toEqual([]);
    expect(sb.control.ledger()).toEqual([]);
  });

  it('reads still work with it: the card is read, only the check of the debit body fails', async () => {
    let stdout = '';
    const code = await main(['--profile', undecided(), 'contract', 'check', '--json'], {
      stdout: (text) => (stdout += text),
      stderr: () => undefined,
      env: env(),
    });
    expect(code).toBe(9);
    const report = JSON.parse(stdout) as {
      operations: { operationId: string; outcome: string }[];
      debitBodyUndecided: string[];
      missingNeeded: string[];
    };
    expect(report.operations.find((o) => o.operationId === 'getGiftCard')?.outcome).toBe('ok');
    expect(report.debitBodyUndecided).toEqual(['giftCardDebit.body.reference']);
    expect(report.missingNeeded).toEqual([]);
  });
});

describe('enqueue --wait says what the service answered', { timeout: 15_000 }, () => {
  it('a debit the service refuses for its body ends the wait held: exit 9, the 400 named', async () => {
    // The service takes `amount`; this profile puts it elsewhere: a 400, held for its body.
    const wrongBody = profileFile('wrong-body', {
      giftCardDebit: { body: { ...defaultProfile.giftCardDebit.body, amount: 'debit.value' } },
    });
    const run = await outbox([
      '--profile',
      wrongBody,
      'outbox',
      'enqueue',
      '--card',
      demoGiftCards.active,
      '--amount',
      '1',
      '--wait',
      '1',
    ]);
    expect(run.code).toBe(outboxExitCodes.notApplied);
    expect(run.error?.code).toBe('DEBIT_NOT_APPLIED');
    expect(run.error?.message).toMatch(/is held \(.+\), not applied: the service answered \S+/);
    const outcome = JSON.parse(run.stdout[1] ?? 'null') as { outcome: { state: string } };
    expect(outcome.outcome.state).toBe('pending');
    expect(sb.control.ledger()).toEqual([]);
  });

  it('an applied debit exits 0, its receipt id read through the profile (the service’s usage id)', async () => {
    const run = await outbox([
      'outbox',
      'enqueue',
      '--card',
      demoGiftCards.active,
      '--amount',
      '1',
      '--wait',
      '5',
    ]);
    expect(run.code).toBe(outboxExitCodes.ok);
    const outcome = JSON.parse(run.stdout[1] ?? 'null') as {
      outcome: { state: string; reply: { kind: string; receipt: { id: string | null } } };
    };
    expect(outcome.outcome.state).toBe('applied');
    const [entry] = sb.control.ledger();
    expect(outcome.outcome.reply.receipt.id).toBe(entry!.usageId);
    // Read where the profile says: a profile that puts it nowhere gets none.
    const noId = profileFile('no-receipt-id', {
      records: { ...defaultProfile.records, debitReceipt: { balance: 'balance', id: null } },
    });
    const again = await outbox([
      '--profile',
      noId,
      'outbox',
      'enqueue',
      '--card',
      demoGiftCards.active,
      '--amount',
      '1',
      '--wait',
      '5',
    ]);
    expect(again.code).toBe(outboxExitCodes.ok);
    const second = JSON.parse(again.stdout[1] ?? 'null') as {
      outcome: { reply: { receipt: { id: string | null; balance: number } } };
    };
    expect(second.outcome.reply.receipt.id).toBeNull();
    expect(second.outcome.reply.receipt.balance).toEqual(expect.any(Number));
  });
});
