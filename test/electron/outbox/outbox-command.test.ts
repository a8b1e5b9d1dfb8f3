import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  outboxExitCodes,
  runOutboxCommand,
  type OutboxCommandContext,
} from '../../../electron/cli/outbox-command.ts';
import { Outbox } from '../../../electron/outbox/outbox.ts';
import { OutboxSender } from '../../../electron/outbox/sender.ts';
import { DATABASE_FILE } from '../../../electron/storage/database.ts';
import { demoGiftCards } from '../../../sandbox/data/demo.ts';
import { defaultProfile, IntegrationProfile } from '../../../shared/profile/index.ts';
import { ALL_SCOPES_ACCOUNT, startTestSandbox, type TestSandbox } from './sandbox-support.ts';
import { SETTINGS_FILE } from '../../../electron/kiosk/settings-store.ts';
import { recordUsageVerdict, ShiftedClock, tempDataDir } from './support.ts';
import { kioskctl as kioskctlProcess } from '../cli/support.ts';

let sb: TestSandbox;
let data: ReturnType<typeof tempDataDir>;

beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(async () => {
  await sb.close();
});
beforeEach(() => {
  sb.control.reset();
  data = tempDataDir('kioskctl-outbox-');
});
afterEach(() => data.cleanup());

interface Run {
  code: number;
  stdout: string[];
  stderr: string[];
}

async function kioskctl(
  args: string[],
  extra: Partial<OutboxCommandContext> = {},
  env: Record<string, string> = {},
): Promise<Run> {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const account = sb.sandbox.accounts.find((entry) => entry.email === ALL_SCOPES_ACCOUNT)!;
  const code = await runOutboxCommand(['--data-dir', data.dir, ...args], {
    io: {
      stdout: (text) => stdout.push(...text.split('\n').filter((line) => line !== '')),
      stderr: (text) => stderr.push(...text.split('\n').filter((line) => line !== '')),
      env: {
        KIOSK_API_BASE_URL: sb.baseUrl,
        KIOSK_API_EMAIL: account.email,
        KIOSK_API_PASSWORD: account.password,
        ...env,
      },
    },
    sender: { idlePollMs: 20, retry: { backoff: { baseMs: 5, capMs: 20 } } },
    ...extra,
  });
  return { code, stdout, stderr };
}

const json = (line: string | undefined): Record<string, unknown> =>
  JSON.parse(line ?? 'null') as Record<string, unknown>;

describe('kioskctl outbox', () => {
  it('enqueue prints one JSON line once the row is committed', async () => {
    const run = await kioskctl([
      'outbox',
      'enqueue',
      '--card',
      demoGiftCards.active,
      '--amount',
      '12.50',
      '--reference',
      'sale-9',
    ]);
    expect(run.code).toBe(outboxExitCodes.ok);
    expect(run.stdout).toHaveLength(1);
    const line = json(run.stdout[0]);
    expect(Object.keys(line)).toEqual([
      'id',
      'idempotencyKey',
      'requestId',
      'state',
      'replayed',
      'profile',
    ]);
    expect(line).toMatchObject({
      id: 1,
      state: 'pending',
      replayed: false,
      // Which profile wrote the body: none saved in Setup, no flag, no environment.
      profile: { name: defaultProfile.name, source: 'default', path: null },
    });
    // No --request-id: one is minted and printed, for running the command again with it.
    expect(line['requestId']).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    const db = new DatabaseSync(join(data.dir, DATABASE_FILE), { readOnly: true });
    try {
      expect(db.prepare('SELECT idempotency_key, amount_cents FROM outbox_debits').all()).toEqual([
        { idempotency_key: line['idempotencyKey'], amount_cents: 1250 },
      ]);
    } finally {
      db.close();
    }
    expect(sb.control.ledger()).toEqual([]); // accepted, not sent: no --wait
  });

  it('enqueue without any API configuration still accepts the debit (the network may be down)', async () => {
    const run = await kioskctl(
      ['outbox', 'enqueue', '--card', demoGiftCards.active, '--amount', '1'],
      {},
      {
        KIOSK_API_BASE_URL: '',
        KIOSK_API_EMAIL: '',
      },
    );
    expect(run.code).toBe(outboxExitCodes.ok);
  });

  it('enqueue --wait prints the outcome: applied exits 0, refused exits 3', async () => {
    const ok = await kioskctl([
      'outbox',
      'enqueue',
      '--card',
      demoGiftCards.active,
      '--amount',
      '2',
      '--wait',
      '10',
    ]);
    expect(ok.code).toBe(outboxExitCodes.ok);
    expect(ok.stdout).toHaveLength(2);
    expect(json(ok.stdout[1])).toMatchObject({ outcome: { state: 'applied', newBalance: 112.5 } });

    // Accepted without the service (a card never read: within the 50.00 allowed on one), then
    // the same request with --wait: the service refuses it. (With the service reachable at
    // enqueue, the card read at 4.50 refuses it on the spot: exit 6, see offline-cards.)
    const requestId = randomUUID();
    const lowBalance = ['outbox', 'enqueue', '--card', demoGiftCards.lowBalance, '--amount', '50'];
    const stored = await kioskctl(
      [...lowBalance, '--request-id', requestId],
      {},
      {
        KIOSK_API_BASE_URL: '',
      },
    );
    expect(stored.code).toBe(outboxExitCodes.ok);
    const refused = await kioskctl([...lowBalance, '--request-id', requestId, '--wait', '10']);
    expect(refused.code).toBe(outboxExitCodes.apiError);
    expect(json(refused.stdout[1])).toMatchObject({
      outcome: { state: 'refused', lastErrorCode: 'INSUFFICIENT_BALANCE' },
    });
  });

  it.each([
    [['outbox', 'enqueue', '--card', 'gift_card_1', '--amount', '1.234'], 'USAGE'],
    [['outbox', 'enqueue', '--card', 'gift_card_1', '--amount', '1e3'], 'USAGE'],
    [['outbox', 'enqueue', '--amount', '3'], 'USAGE'],
    [['outbox', 'enqueue', '--card', 'gift_card_1', '--amount', '0'], 'OUTBOX_INVALID_DEBIT'],
    [['outbox', 'list', '--state', 'bogus'], 'USAGE'],
    [['outbox', 'show', 'abc'], 'USAGE'],
    [['outbox', 'show', '42'], 'OUTBOX_NOT_FOUND'],
    [['outbox', 'list', '--card', 'x'], 'USAGE'],
    [['outbox', 'frobnicate'], 'USAGE'],
    [['outbox', 'list', '--bogus'], 'USAGE'],
    [['outbox', 'enqueue', '--card', 'gift_card_1', '--amount', '1', '--request-id', 'R'], 'USAGE'],
    [['outbox', 'list', '--request-id', randomUUID()], 'USAGE'],
  ])('refuses %j locally with exit 2 and stores nothing', async (args, code) => {
    const run = await kioskctl(args);
    expect(run.code).toBe(outboxExitCodes.invalidRequest);
    expect(json(run.stderr[0])).toMatchObject({ error: { code } });
    expect(run.stdout).toEqual([]);
  });

  it('enqueue --request-id R twice: one debit; the second run prints it, exit 0; settled, with its outcome', async () => {
    const requestId = randomUUID();
    const enqueue = (amount: string, ...more: string[]) =>
      kioskctl([
        'outbox',
        'enqueue',
        '--card',
        demoGiftCards.active,
        '--amount',
        amount,
        '--reference',
        'till-7',
        '--request-id',
        requestId,
        ...more,
      ]);
    const first = await enqueue('4');
    expect(first.code).toBe(outboxExitCodes.ok);
    expect(json(first.stdout[0])).toMatchObject({ id: 1, requestId, replayed: false });
    // The SSH session dropped before the line came back: the technician runs it again.
    const again = await enqueue('4.00');
    expect(again.code).toBe(outboxExitCodes.ok);
    expect(again.stdout).toEqual([JSON.stringify({ ...json(first.stdout[0]), replayed: true })]);
    expect(json((await kioskctl(['outbox', 'list'])).stdout[0])['debits']).toHaveLength(1);

    // Once the service applied it, the same command prints the outcome and its receipt.
    await kioskctl(['outbox', 'drain', '--until-empty', '--timeout', '10']);
    const settled = await enqueue('4', '--wait', '5');
    expect(settled.code).toBe(outboxExitCodes.ok);
    expect(json(settled.stdout[0])).toMatchObject({ id: 1, state: 'applied', replayed: true });
    expect(json(settled.stdout[1])).toMatchObject({
      outcome: {
        id: 1,
        requestId,
        state: 'applied',
        newBalance: 110.5,
        reply: { kind: 'receipt' },
      },
    });
    expect(sb.control.ledger()).toHaveLength(1);
  });

  it('the same --request-id with another amount or card exits 2 REQUEST_ID_REUSED, nothing stored', async () => {
    const requestId = randomUUID();
    const base = ['outbox', 'enqueue', '--request-id', requestId];
    await kioskctl([...base, '--card', demoGiftCards.active, '--amount', '4']);
    for (const other of [
      ['--card', demoGiftCards.active, '--amount', '5'],
      ['--card', demoGiftCards.lowBalance, '--amount', '4'],
    ]) {
      const run = await kioskctl([...base, ...other]);
      expect(run.code).toBe(outboxExitCodes.invalidRequest);
      expect(json(run.stderr[0])).toMatchObject({ error: { code: 'REQUEST_ID_REUSED' } });
      expect(run.stdout).toEqual([]);
    }
    expect(json((await kioskctl(['outbox', 'list'])).stdout[0])['debits']).toHaveLength(1);
  });

  // Three real processes at once: seconds on a busy machine, never the 5 s default.
  it(
    'three kioskctl processes enqueuing the same request id at once store one debit',
    { timeout: 60_000 },
    async () => {
      const requestId = randomUUID();
      // The database created first: this is about the request id's race, not three processes
      // creating one database's schema at once (seen failing once: the FTS5 table mid-creation).
      const created = await kioskctlProcess(['outbox', 'list'], { KIOSK_DATA_DIR: data.dir });
      expect(created.code, created.stderr).toBe(outboxExitCodes.ok);
      const runs = await Promise.all(
        [1, 2, 3].map(() =>
          kioskctlProcess(
            [
              'outbox',
              'enqueue',
              '--card',
              demoGiftCards.active,
              '--amount',
              '3',
              '--request-id',
              requestId,
            ],
            { KIOSK_DATA_DIR: data.dir },
          ),
        ),
      );
      for (const run of runs) expect(run.code, run.stderr).toBe(outboxExitCodes.ok);
      const lines = runs.map((run) => json(run.stdout.trim()));
      expect(lines.map((line) => line['replayed']).sort()).toEqual([false, true, true]);
      expect(new Set(lines.map((line) => line['idempotencyKey'])).size).toBe(1);
      expect(json((await kioskctl(['outbox', 'list'])).stdout[0])['debits']).toHaveLength(1);
    },
  );

  it('needs a data directory', async () => {
    const run = await runOutboxCommand(['outbox', 'list'], {
      io: { stdout: () => {}, stderr: () => {}, env: {} },
    });
    expect(run).toBe(outboxExitCodes.invalidRequest);
  });

  it('a limit refusal exits 6 and says which limit and by how much', async () => {
    const run = await kioskctl(
      ['outbox', 'enqueue', '--card', demoGiftCards.active, '--amount', '80'],
      {
        limits: { maxPendingAmountPerCard: 50 },
      },
    );
    expect(run.code).toBe(outboxExitCodes.notAccepted);
    expect(json(run.stderr[0])).toMatchObject({ error: { code: 'OUTBOX_LIMIT_EXCEEDED' } });
    expect(run.stderr[0]).toContain('maxPendingAmountPerCard');
    expect(run.stderr[0]).toContain('30.00 EUR over');
  });

  it('applies the offline limits an administrator saved in the kiosk settings, as the app does', async () => {
    writeFileSync(
      join(data.dir, SETTINGS_FILE),
      JSON.stringify({ offlineLimits: { maxOfflineDebitAmount: 10, maxAgeMs: 60_000 } }),
    );
    const offline = { KIOSK_API_BASE_URL: '', KIOSK_API_EMAIL: '' };
    const refused = await kioskctl(
      ['outbox', 'enqueue', '--card', demoGiftCards.active, '--amount', '20'],
      {},
      offline,
    );
    expect(refused.code).toBe(outboxExitCodes.notAccepted);
    expect(json(refused.stderr[0])).toMatchObject({ error: { code: 'OUTBOX_LIMIT_EXCEEDED' } });
    expect(refused.stderr[0]).toContain('maxOfflineDebitAmount is 10.00 EUR');
    // The saved limit wins over the embedder's default; the others still apply.
    const overEmbedder = await kioskctl(
      ['outbox', 'enqueue', '--card', demoGiftCards.active, '--amount', '20'],
      { limits: { maxOfflineDebitAmount: 100 } },
      offline,
    );
    expect(overEmbedder.code).toBe(outboxExitCodes.notAccepted);

    // drain expires by the saved maximum age (one minute, on the service's clock), not the
    // default 72 h. A first drain meets the service unavailable: the debit is attempted and
    // dated on the service's clock; two minutes later (on the service) it has expired.
    const clock = new ShiftedClock();
    const accepted = await kioskctl(
      ['outbox', 'enqueue', '--card', demoGiftCards.active, '--amount', '5'],
      { clock },
      offline,
    );
    expect(accepted.code).toBe(outboxExitCodes.ok);
    sb.control.addFault({ kind: 'unavailable', route: 'debitGiftCard', count: 1_000 });
    const first = await kioskctl(['outbox', 'drain'], { clock });
    expect(json(first.stdout[0])).toMatchObject({ applied: 0, expired: 0 });
    sb.control.clearFaults();
    sb.control.advanceClock(2 * 60_000);
    clock.advance(2 * 60_000);
    // A 503 may have reached the service: "never applied" needs evidence. Usages never verified
    // by a contract check prove nothing: the debit is held for a person, never expired.
    const unproven = await kioskctl(['outbox', 'drain', '--until-empty', '--timeout', '10'], {
      clock,
    });
    expect(unproven.code).toBe(outboxExitCodes.apiError);
    expect(json(unproven.stdout[0])).toMatchObject({ result: 'held', applied: 0, expired: 0 });
    const held = json((await kioskctl(['outbox', 'list'], { clock })).stdout[0]) as {
      debits: Record<string, unknown>[];
    };
    expect(held.debits[0]).toMatchObject({
      state: 'pending',
      heldReason: { code: 'DEBIT_OUTCOME_UNKNOWN' },
    });
    expect(sb.control.ledger()).toEqual([]);
    // Once a contract check verified the usages, "absent" from them is evidence: at its next
    // check (ten minutes later) the held debit expires.
    recordUsageVerdict(new Outbox({ db: data.open() }));
    sb.control.advanceClock(11 * 60_000);
    clock.advance(11 * 60_000);
    const drain = await kioskctl(['outbox', 'drain', '--until-empty', '--timeout', '10'], {
      clock,
    });
    expect(json(drain.stdout[0])).toMatchObject({ result: 'empty', applied: 0, expired: 1 });
    expect(sb.control.ledger()).toEqual([]);
  });

  it('require_online with the service unreachable exits 6 and stores nothing', async () => {
    const run = await kioskctl(
      [
        'outbox',
        'enqueue',
        '--card',
        demoGiftCards.active,
        '--amount',
        '1',
        '--policy',
        'require_online',
      ],
      {},
      {
        KIOSK_API_BASE_URL: 'http://127.0.0.1:9',
      },
    );
    expect(run.code).toBe(outboxExitCodes.notAccepted);
    expect(json(run.stderr[0])).toMatchObject({ error: { code: 'OUTBOX_OFFLINE' } });
    expect((await kioskctl(['outbox', 'list'])).stdout).toEqual(['{"debits":[]}']);
  });

  it('list, show and cancel; cancel of an attempted debit exits 7', async () => {
    await kioskctl(['outbox', 'enqueue', '--card', demoGiftCards.active, '--amount', '1']);
    await kioskctl(['outbox', 'enqueue', '--card', demoGiftCards.active, '--amount', '2']);
    const list = json((await kioskctl(['outbox', 'list', '--state', 'pending'])).stdout[0]);
    expect((list['debits'] as unknown[]).length).toBe(2);
    const show = json((await kioskctl(['outbox', 'show', '2'])).stdout[0]);
    expect(show).toMatchObject({
      id: 2,
      amount: 2,
      state: 'pending',
      attempts: 0,
      giftCardId: demoGiftCards.active,
    });

    const cancel = await kioskctl(['outbox', 'cancel', '2']);
    expect(cancel.code).toBe(outboxExitCodes.ok);
    expect(json(cancel.stdout[0])).toMatchObject({ id: 2, state: 'cancelled' });

    data.open().connection.prepare(`UPDATE outbox_debits SET attempts = 1 WHERE id = 1`).run();
    const refused = await kioskctl(['outbox', 'cancel', '1']);
    expect(refused.code).toBe(outboxExitCodes.conflict);
    expect(json(refused.stderr[0])).toMatchObject({ error: { code: 'OUTBOX_NOT_CANCELLABLE' } });
  });

  it('drain --until-empty sends everything and reports; exit 7 while another process holds the sender lease', async () => {
    await kioskctl(['outbox', 'enqueue', '--card', demoGiftCards.active, '--amount', '1']);
    // The service unreachable: the inactive card is not read, the service refuses it later.
    await kioskctl(
      ['outbox', 'enqueue', '--card', demoGiftCards.inactive, '--amount', '1'],
      {},
      {
        KIOSK_API_BASE_URL: '',
      },
    );
    const drain = await kioskctl(['outbox', 'drain', '--until-empty', '--timeout', '10']);
    expect(drain.code).toBe(outboxExitCodes.ok);
    expect(json(drain.stdout[0])).toMatchObject({
      result: 'empty',
      applied: 1,
      refused: 1,
      summary: { openCount: 0 },
    });
    expect(sb.control.ledger()).toHaveLength(1);

    // The kiosk app holds the lease.
    const outbox = new Outbox({ db: data.open() });
    const kiosk = new OutboxSender({
      outbox,
      gateway: sb.gateway(sb.client()),
      owner: 'kiosk-app:1:x',
    });
    kiosk.start();
    try {
      const blocked = await kioskctl(['outbox', 'drain']);
      expect(blocked.code).toBe(outboxExitCodes.conflict);
      expect(json(blocked.stdout[0])).toMatchObject({
        result: 'lease-held',
        leaseOwner: 'kiosk-app:1:x',
      });
    } finally {
      await kiosk.stop();
    }
  });

  it('drain --until-empty exits 4 when the service does not take the debits in time', async () => {
    sb.control.addFault({ kind: 'unavailable', route: 'debitGiftCard' });
    await kioskctl(['outbox', 'enqueue', '--card', demoGiftCards.active, '--amount', '1']);
    const drain = await kioskctl(['outbox', 'drain', '--until-empty', '--timeout', '0.3']);
    expect(drain.code).toBe(outboxExitCodes.network);
    expect(json(drain.stdout[0])).toMatchObject({
      result: 'timeout',
      summary: { openCount: 1 },
    });
    sb.control.clearFaults();
  });

  it('a database from a newer build exits 8, untouched', async () => {
    data.open().connection.exec('PRAGMA user_version = 999');
    const run = await kioskctl(['outbox', 'list']);
    expect(run.code).toBe(outboxExitCodes.storage);
    expect(json(run.stderr[0])).toMatchObject({ error: { code: 'STORAGE_SCHEMA_TOO_NEW' } });
  });

  it('a debit held for its body: drain exits 3, list shows why; resume with the fixed profile rebuilds it under a new key and sends it once', async () => {
    const wrong = IntegrationProfile.parse({
      ...defaultProfile,
      giftCardDebit: { body: { ...defaultProfile.giftCardDebit.body, amount: 'value' } },
    });
    // Through the global flag, as a technician passes it: the body is written in its shape.
    const wrongFile = join(data.dir, 'wrong-profile.json');
    writeFileSync(wrongFile, JSON.stringify(wrong));
    const enqueued = await kioskctl([
      '--profile',
      wrongFile,
      'outbox',
      'enqueue',
      '--card',
      demoGiftCards.active,
      '--amount',
      '3',
    ]);
    expect(enqueued.code).toBe(outboxExitCodes.ok);
    const { id, idempotencyKey } = json(enqueued.stdout[0]) as {
      id: number;
      idempotencyKey: string;
    };

    const drained = await kioskctl(['outbox', 'drain', '--until-empty', '--profile', wrongFile]);
    expect(drained.code).toBe(outboxExitCodes.apiError);
    expect(json(drained.stdout[0])).toMatchObject({ result: 'paused' });
    const listed = json((await kioskctl(['outbox', 'list'])).stdout[0]) as {
      debits: Record<string, unknown>[];
    };
    expect(listed.debits).toHaveLength(1);
    expect(listed.debits[0]).toMatchObject({
      state: 'pending',
      heldReason: { code: 'DEBIT_REQUEST_REFUSED' },
      keys: [{ idempotencyKey, replacedAt: null }],
    });
    expect(sb.control.ledger()).toEqual([]);

    // No flag: the default profile, the sandbox's shapes.
    const resumed = await kioskctl(['outbox', 'resume']);
    expect(resumed.code).toBe(outboxExitCodes.ok);
    expect(json(resumed.stdout[0])).toMatchObject({
      rebuilt: 1,
      newKeys: 1,
      drain: { result: 'empty' },
    });
    const shown = json((await kioskctl(['outbox', 'show', String(id)])).stdout[0]) as {
      idempotencyKey: string;
      keys: { idempotencyKey: string; replacedAt: string | null }[];
    };
    expect(shown).toMatchObject({ state: 'applied', heldReason: null });
    expect(shown.keys.map((key) => key.idempotencyKey)).toEqual([
      idempotencyKey,
      shown.idempotencyKey,
    ]);
    expect(shown.keys[0]!.replacedAt).not.toBeNull();
    expect(sb.control.ledger().map((entry) => entry.idempotencyKey)).toEqual([
      shown.idempotencyKey,
    ]);
  });

  it('--help prints the usage with the exit codes', async () => {
    const run = await kioskctl(['outbox', '--help']);
    expect(run.code).toBe(0);
    expect(run.stdout.join('\n')).toContain('exit codes');
  });
});
