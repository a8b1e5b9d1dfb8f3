import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SETTINGS_FILE } from '../../../electron/kiosk/settings-store.ts';
import { Outbox } from '../../../electron/outbox/outbox.ts';
import { openDatabase } from '../../../electron/storage/index.ts';
import { kioskSchema } from '../../../electron/schema.ts';
import { demoGiftCards } from '../../../sandbox/data/demo.ts';
import { type RunningSandbox, startSandbox } from '../../../sandbox/index.ts';
import { defaultProfile } from '../../../shared/profile/index.ts';
import { inProcess } from './support.ts';
import { startWireRecorder, type WireRecorder } from './wire-recorder.ts';

/**
 * The integration profile an administrator saved in Setup (the data directory's settings file) is
 * the one every kioskctl door uses, as the kiosk app does: `outbox enqueue`, `drain`, `resume` and
 * `contract check` write, send and read with it, and say so. Against the sandbox's alternate
 * dialect, which refuses the default body (400): the bodies are checked on the wire, through a
 * relay that records them.
 */

const alternateProfile = new URL(
  '../../../sandbox/dialects/alternate.profile.json',
  import.meta.url,
).pathname;
const alternateName = (JSON.parse(readFileSync(alternateProfile, 'utf8')) as { name: string }).name;

let sandbox: RunningSandbox;
let wire: WireRecorder;
let env: Record<string, string>;
let dir: string;
let defaultFile: string;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, dialect: 'alternate', control: true, products: 10 });
  wire = await startWireRecorder(sandbox.baseUrl);
  const account = sandbox.accounts.find((a) => a.email === 'kiosk-all@sandbox.test')!;
  env = {
    KIOSK_API_BASE_URL: wire.baseUrl,
    KIOSK_API_EMAIL: account.email,
    KIOSK_API_PASSWORD: account.password,
  };
});
afterAll(async () => {
  await wire.close();
  await sandbox.close();
});
beforeEach(() => {
  sandbox.control!.reset();
  wire.requests.length = 0;
  dir = mkdtempSync(join(tmpdir(), 'kiosk-setup-profile-'));
  // Saved in Setup, as the app's settings store writes it: only what the administrator chose.
  writeFileSync(
    join(dir, SETTINGS_FILE),
    `${JSON.stringify({ profilePath: alternateProfile }, null, 2)}\n`,
  );
  defaultFile = join(dir, 'default-profile.json');
  writeFileSync(defaultFile, JSON.stringify(defaultProfile));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const kioskctl = (argv: readonly string[], more: Record<string, string> = {}) =>
  inProcess(['--data-dir', dir, ...argv], { ...env, ...more });

const json = (text: string) => JSON.parse(text) as Record<string, unknown>;
const lines = (text: string) => text.trim().split('\n').map(json);

/** The debits that went over the wire for this card. */
const debitsSent = (giftCardId: string) =>
  wire.requests.filter(
    (request) =>
      request.path === `/v1/gift-cards/${encodeURIComponent(giftCardId)}` &&
      request.idempotencyKey !== undefined,
  );

const fromSetup = { name: alternateName, source: 'settings', path: alternateProfile };

describe("kioskctl with Setup's profile saved", { timeout: 30_000 }, () => {
  it('outbox enqueue writes the body in its shape and drain sends exactly those bytes; both say which profile', async () => {
    const enqueued = await kioskctl([
      'outbox',
      'enqueue',
      '--card',
      demoGiftCards.active,
      '--amount',
      '2.50',
      '--reference',
      'till-1',
    ]);
    expect(enqueued.stderr).toBe('');
    expect(enqueued.code).toBe(0);
    const receipt = json(enqueued.stdout) as { id: number; idempotencyKey: string };
    expect(receipt).toMatchObject({ state: 'pending', profile: fromSetup });

    const drained = await kioskctl(['outbox', 'drain', '--until-empty', '--timeout', '10']);
    expect(drained.code).toBe(0);
    expect(json(drained.stdout)).toMatchObject({
      result: 'empty',
      applied: 1,
      profile: fromSetup,
    });

    const [sent, ...more] = debitsSent(demoGiftCards.active);
    expect(more).toEqual([]);
    expect(sent!.idempotencyKey).toBe(receipt.idempotencyKey);
    const body = JSON.parse(sent!.body) as { memo: string };
    // The alternate dialect's shape, not the default's {amount, currency, reference}.
    expect(body).toEqual({ debit: { value: 2.5 }, memo: body.memo });
    expect(body.memo).toMatch(/^till-1\//);
    expect(sandbox.control!.ledger(demoGiftCards.active).map((entry) => entry.amount)).toEqual([
      2.5,
    ]);
  });

  it('outbox resume rebuilds with it only the row held for its body, names it, and leaves a row waiting for its retry as it was', async () => {
    // Held: written and sent with the default profile (--profile wins over Setup's), refused 400.
    const stored = await kioskctl(
      ['outbox', 'enqueue', '--card', demoGiftCards.lowBalance, '--amount', '1.50'],
      { KIOSK_API_BASE_URL: '', KIOSK_API_PROFILE: defaultFile },
    );
    expect(stored.code).toBe(0);
    const held = json(stored.stdout) as { id: number; idempotencyKey: string };
    const refused = await kioskctl(['outbox', 'drain', '--until-empty', '--profile', defaultFile]);
    expect(refused.code).toBe(3);
    expect(json(refused.stdout)).toMatchObject({
      result: 'paused',
      profile: { source: 'flag', path: defaultFile },
    });

    // Waiting for its retry: sent once in the default shape, the answer lost, due in 5 minutes.
    const db = openDatabase({ dataDir: dir, schema: kioskSchema });
    let retry;
    try {
      const outbox = new Outbox({ db });
      const { debit } = outbox.enqueue({ giftCardId: demoGiftCards.active, amount: 1 });
      const now = Date.now();
      const sending = outbox.store.markSending(debit.id, 0, now)!.debit;
      outbox.store.rescheduleAttempt(
        debit.id,
        sending.attempts,
        {
          nextAttemptAt: now + 5 * 60_000,
          error: { code: 'TIMEOUT', message: 'no answer' },
          mayHaveReached: true,
        },
        now,
      );
      retry = outbox.get(debit.id);
    } finally {
      db.close();
    }

    const resumed = await kioskctl(['outbox', 'resume', '--timeout', '10']);
    expect(resumed.stderr).toBe('');
    expect(resumed.code).toBe(0);
    const report = json(resumed.stdout) as {
      debits: { id: number; idempotencyKey: string }[];
    };
    expect(report).toMatchObject({
      profile: fromSetup,
      rebuilt: 1,
      newKeys: 1,
      debits: [{ id: held.id, reason: 'DEBIT_REQUEST_REFUSED', previousKey: held.idempotencyKey }],
      drain: { applied: 1 },
    });
    const newKey = report.debits[0]!.idempotencyKey;
    expect(newKey).not.toBe(held.idempotencyKey);

    // On the wire: the default body refused under the old key, then Setup's shape under the new.
    const sent = debitsSent(demoGiftCards.lowBalance);
    expect(sent.map((request) => request.idempotencyKey)).toEqual([held.idempotencyKey, newKey]);
    expect(JSON.parse(sent[0]!.body)).toMatchObject({ amount: 1.5, currency: 'EUR' });
    expect(JSON.parse(sent[1]!.body)).toMatchObject({ debit: { value: 1.5 } });
    expect(sandbox.control!.ledger(demoGiftCards.lowBalance)).toHaveLength(1);

    // The row waiting for its retry: same key, same bytes, nothing sent.
    const shown = lines(
      (await kioskctl(['outbox', 'show', String(retry.id)])).stdout,
    )[0] as unknown as { idempotencyKey: string; requestBody: string; keys: unknown[] };
    expect(shown.idempotencyKey).toBe(retry.idempotencyKey);
    expect(shown.requestBody).toBe(retry.requestBody);
    expect(shown.keys).toHaveLength(1);
    expect(debitsSent(demoGiftCards.active)).toEqual([]);
  });

  it('contract check reads with it and says so; the flag and KIOSK_API_PROFILE come before it', async () => {
    const check = await kioskctl(['contract', 'check', '--json']);
    expect(check.code).toBe(0);
    expect(json(check.stdout)).toMatchObject({ ok: true, profile: fromSetup });
    const text = await kioskctl(['contract', 'check']);
    expect(text.stdout.split('\n')[0]).toContain(
      `profile: ${alternateName} (settings: ${alternateProfile})`,
    );

    // The default profile on this service: it sends paging the service refuses, and a refused
    // read (exit 11) wins over the values the kiosk needs not being found (9).
    const flag = await kioskctl(['contract', 'check', '--json', '--profile', defaultFile]);
    expect(flag.code).toBe(11);
    expect(json(flag.stdout)).toMatchObject({ ok: false, profile: { source: 'flag' } });
    const environment = await kioskctl(['contract', 'check', '--json'], {
      KIOSK_API_PROFILE: defaultFile,
    });
    expect(environment.code).toBe(11);
    expect(json(environment.stdout)).toMatchObject({ profile: { source: 'environment' } });
  });
});
