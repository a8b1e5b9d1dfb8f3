import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { demoGiftCards } from '../../../sandbox/data/demo.ts';
import { type RunningSandbox, startSandbox } from '../../../sandbox/index.ts';
import { CommerceApiClient } from '../../../electron/api/client.ts';
import { CatalogSyncService } from '../../../electron/catalog/index.ts';
import { statusExitCodes } from '../../../electron/cli/status-command.ts';
import {
  Outbox,
  OutboxSender,
  createApiGateway,
  outboxClientRetry,
} from '../../../electron/outbox/index.ts';
import { createRedactingLogger } from '../../../electron/logging/index.ts';
import { openDatabase } from '../../../electron/storage/index.ts';
import { kioskSchema } from '../../../electron/schema.ts';
import { type PrivateCups, startPrivateCups } from '../../support/cups.ts';
import { type Run, inProcess, kioskctl } from './support.ts';

/**
 * `kioskctl status` as a technician runs it: a real process against the real sandbox over HTTP,
 * a real kiosk database in a temp data directory, a private CUPS scheduler. One test per exit
 * code, each putting the kiosk in that trouble for real (a debit the service refused or held, a
 * stopped sandbox, a mirror synchronised days ago on the service's clock, a stopped queue).
 */

interface Account {
  readonly email: string;
  readonly password: string;
  readonly scopes: readonly string[];
}

interface Report {
  readonly verdict: string;
  readonly exitCode: number;
  readonly problems: readonly { class: string; code: string; message: string; next: string }[];
  readonly service: { connectivity: string; clock: { offsetMs: number } | null };
  readonly credentials: { source: string | null; state: string };
  readonly sender: { state: string; held: readonly { id: number; code: string }[] };
  readonly attention: {
    count: number;
    amount: number;
    debits: readonly { id: number; state: string; amount: number; code: string | null }[];
  };
  readonly mirror: { ready: boolean; stale: boolean; ageMs: number | null; measuredOn: string };
  readonly printers: {
    printing: string;
    printer: string | null;
    printers: readonly { name: string }[];
    error: { code: string } | null;
  };
  readonly lastErrors: readonly { source: string; code: string }[];
}

const DAY = 24 * 60 * 60 * 1000;
let sandbox: RunningSandbox;
let full: Account;
let cups: PrivateCups;
let root: string;
/** A data directory whose mirror was just synchronised, copied by every test. */
let synced: string;

beforeAll(async () => {
  [sandbox, cups] = await Promise.all([startSandbox({ products: 30 }), startPrivateCups()]);
  full = accountWith(sandbox, (scopes) => scopes.includes('gift-cards:write'));
  root = await mkdtemp(join(tmpdir(), 'kioskctl-status-'));
  synced = join(root, 'synced');
  await syncMirror(synced, sandbox.baseUrl, full);
}, 60_000);

afterAll(async () => {
  await Promise.all([sandbox?.close(), cups?.stop()]);
  if (root) await rm(root, { recursive: true, force: true });
});

function accountWith(running: RunningSandbox, wanted: (scopes: readonly string[]) => boolean) {
  const found = [...running.accounts]
    .sort((a, b) => b.scopes.length - a.scopes.length)
    .find((account) => wanted(account.scopes));
  if (!found) throw new Error('no sandbox account fits');
  return found as Account;
}

async function syncMirror(dataDir: string, baseUrl: string, account: Account): Promise<void> {
  const database = openDatabase({ dataDir, schema: kioskSchema });
  const client = new CommerceApiClient({ baseUrl, credentials: async () => account });
  try {
    await new CatalogSyncService({ database, source: client }).sync({ full: true });
  } finally {
    client.close();
    database.close();
  }
}

let copies = 0;
async function kioskDir(): Promise<string> {
  const dir = join(root, `kiosk-${++copies}`);
  await cp(synced, dir, { recursive: true });
  return dir;
}

/** Enqueues one debit and lets a sender (the kiosk's own code) drain it with `account`. */
async function debitOnce(dataDir: string, account: Account, card: string, amount: number) {
  const db = openDatabase({ dataDir, schema: kioskSchema });
  const client = new CommerceApiClient({
    baseUrl: sandbox.baseUrl,
    credentials: async () => account,
    retry: outboxClientRetry,
  });
  try {
    const outbox = new Outbox({ db });
    outbox.enqueue({ giftCardId: card, amount });
    const sender = new OutboxSender({
      outbox,
      gateway: createApiGateway(client, () => outbox.profile),
    });
    return await sender.drain({ untilEmpty: false, timeoutMs: 30_000 });
  } finally {
    client.close();
    db.close();
  }
}

function envOf(dataDir: string, more: Record<string, string> = {}): Record<string, string> {
  return {
    KIOSK_DATA_DIR: dataDir,
    KIOSK_API_BASE_URL: sandbox.baseUrl,
    KIOSK_API_EMAIL: full.email,
    KIOSK_API_PASSWORD: full.password,
    KIOSK_CUPS_SERVER: cups.server,
    ...more,
  };
}

async function statusJson(env: Record<string, string>, flags: readonly string[] = []) {
  const run = await kioskctl(['status', '--json', ...flags], env);
  expect(run.stderr).toBe('');
  const lines = run.stdout.trim().split('\n');
  expect(lines).toHaveLength(1);
  return { run, report: JSON.parse(lines[0]!) as Report };
}

/** Nothing a status prints may carry the account's secrets or a card number. */
function expectNoSecrets(run: Run): void {
  const output = run.stdout + run.stderr;
  expect(output).not.toContain(full.password);
  expect(output).not.toContain(full.email);
  for (const card of Object.values(demoGiftCards)) expect(output).not.toContain(card);
}

/** A 127.0.0.1 port nobody listens on. */
async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('kioskctl status', () => {
  test('0 healthy: one screen, a headline, aligned lines; no secret on it', async () => {
    const run = await kioskctl(['status'], envOf(await kioskDir()));
    expect(run.code, run.stdout + run.stderr).toBe(statusExitCodes.ok);
    const [headline, , ...rows] = run.stdout.split('\n');
    expect(headline).toMatch(/^HEALTHY {3}\(exit 0, /);
    for (const label of [
      'service',
      'credentials',
      'profile',
      'sender',
      'attention',
      'mirror',
      'printer',
    ])
      expect(
        rows.some((row) => row.startsWith(`  ${label.padEnd(13)} `)),
        label,
      ).toBe(true);
    expect(run.stdout).toMatch(/service {7}http:\/\/127\.0\.0\.1:\d+ {3}online {3}clock [+-]/);
    expect(run.stdout).toMatch(/credentials {3}environment {3}accepted/);
    expect(run.stdout).toMatch(/printer {7}kiosk-pdf {3}cups {3}idle/);
    expect(run.stdout).not.toMatch(/problems, most important first/);
    expectNoSecrets(run);
  }, 60_000);

  test('the error lines at the end of KIOSK_LOG join the last errors; other lines and a missing file are no trouble', async () => {
    const dir = await kioskDir();
    const logFile = join(dir, 'kiosk.log');
    let time = Date.parse('2026-11-20T10:00:00.000Z');
    const lines: string[] = [];
    const logger = createRedactingLogger({
      sink: (line) => lines.push(line),
      level: 'debug',
      now: () => (time += 60_000),
    });
    logger.info('catalog.sync.started', {});
    logger.error('catalog.sync.failed', { code: 'CATALOG_CONTRACT_VIOLATION' });
    logger.warn('api.retry.scheduled', { code: 'NETWORK_ERROR' });
    logger.error('browser_host.request_failed', { error: new Error('boom') });
    await writeFile(
      logFile,
      `${lines.slice(0, 2).join('\n')}\nnot json\n${lines.slice(2).join('\n')}\n{"level":"error","ev`,
    );

    const { run, report } = await statusJson(envOf(dir, { KIOSK_LOG: logFile }));
    expect(run.code).toBe(statusExitCodes.ok);
    expect(report.lastErrors.filter((error) => error.source === 'log')).toEqual([
      {
        source: 'log',
        code: 'browser_host.request_failed',
        message: '',
        at: '2026-11-20T10:04:00.000Z',
      },
      {
        source: 'log',
        code: 'CATALOG_CONTRACT_VIOLATION',
        message: 'catalog.sync.failed',
        at: '2026-11-20T10:02:00.000Z',
      },
    ]);

    const missing = await statusJson(envOf(dir, { KIOSK_LOG: join(dir, 'no-such.log') }));
    expect(missing.run.code).toBe(statusExitCodes.ok);
    expect(missing.report.lastErrors.filter((error) => error.source === 'log')).toEqual([]);
  }, 60_000);

  test('22 offline: the service does not answer', async () => {
    const baseUrl = `http://127.0.0.1:${await deadPort()}`;
    const { run, report } = await statusJson(
      envOf(await kioskDir(), { KIOSK_API_BASE_URL: baseUrl }),
    );
    expect(run.code).toBe(statusExitCodes.offline);
    expect(report.verdict).toBe('offline');
    expect(report.service).toMatchObject({ connectivity: 'offline', clock: null });
    expect(report.credentials.state).toBe('not-checked');
    expect(report.problems.map((problem) => problem.code)).toEqual(['SERVICE_UNREACHABLE']);
    // Offline, the mirror's age is measured on the kiosk's clock: just synchronised, fresh.
    expect(report.mirror).toMatchObject({ stale: false, measuredOn: 'kiosk' });
  }, 60_000);

  test('21 paused sender: a debit held after a 403 (the account without gift-cards:write), or the account rejected', async () => {
    const dir = await kioskDir();
    const noWrite = accountWith(
      sandbox,
      (scopes) => !scopes.includes('gift-cards:write') && scopes.includes('gift-cards:read'),
    );
    const drained = await debitOnce(dir, noWrite, demoGiftCards.active, 6);
    expect(drained.result).toBe('paused');

    const { run, report } = await statusJson(envOf(dir));
    expect(run.code).toBe(statusExitCodes.senderPaused);
    expect(report.verdict).toBe('sender-paused');
    expect(report.sender.state).toBe('paused');
    expect(report.sender.held).toEqual([expect.objectContaining({ code: 'DEBIT_SCOPE_MISSING' })]);
    expect(report.problems.map((problem) => problem.code)).toEqual(['SENDER_PAUSED']);
    expect(report.lastErrors[0]).toMatchObject({ source: 'outbox', code: 'DEBIT_SCOPE_MISSING' });
    expectNoSecrets(run);

    // An account the service rejects pauses the live sender too, whatever the rows say.
    const rejected = await statusJson(envOf(await kioskDir(), { KIOSK_API_PASSWORD: 'not-it' }));
    expect(rejected.run.code).toBe(statusExitCodes.senderPaused);
    expect(rejected.report.credentials).toMatchObject({ source: 'environment', state: 'rejected' });
    expect(rejected.report.sender.state).toBe('paused');
    expect(rejected.report.problems.map((problem) => problem.code)).toEqual([
      'CREDENTIALS_REJECTED',
    ]);
  }, 60_000);

  test('20 a debit refused after the fact, not resolved by staff', async () => {
    const dir = await kioskDir();
    const drained = await debitOnce(dir, full, demoGiftCards.lowBalance, 50);
    expect(drained.refused).toBe(1);

    const { run, report } = await statusJson(envOf(dir));
    expect(run.code).toBe(statusExitCodes.debitAttention);
    expect(report.verdict).toBe('debit-attention');
    expect(report.attention).toMatchObject({
      count: 1,
      amount: 50,
      debits: [{ state: 'refused', amount: 50, code: 'INSUFFICIENT_BALANCE' }],
    });
    expect(report.sender.state).toBe('idle');
    expect(report.problems[0]).toMatchObject({
      class: 'debit-attention',
      code: 'DEBITS_NEED_ATTENTION',
    });
    expectNoSecrets(run);
  }, 60_000);

  test('23 stale mirror: synchronised three days ago on the service clock', async () => {
    const past = await startSandbox({
      products: 30,
      control: true,
      now: new Date(Date.now() - 3 * DAY),
    });
    try {
      const dir = join(root, 'stale');
      await syncMirror(
        dir,
        past.baseUrl,
        accountWith(past, (scopes) => scopes.includes('gift-cards:write')),
      );
      // The service's clock moves on three days: the mirror is that old, the clocks agree.
      past.control!.advanceClock(3 * DAY);
      const { run, report } = await statusJson(envOf(dir, { KIOSK_API_BASE_URL: past.baseUrl }));
      expect(run.code).toBe(statusExitCodes.staleMirror);
      expect(report.verdict).toBe('stale-mirror');
      expect(report.mirror).toMatchObject({ ready: true, stale: true, measuredOn: 'service' });
      expect(report.mirror.ageMs).toBeGreaterThan(2.9 * DAY);
      expect(report.problems.map((problem) => problem.code)).toEqual(['MIRROR_STALE']);

      // A threshold beyond that age: healthy.
      const lenient = await statusJson(envOf(dir, { KIOSK_API_BASE_URL: past.baseUrl }), [
        '--stale-after',
        '4d',
      ]);
      expect(lenient.run.code).toBe(statusExitCodes.ok);
    } finally {
      await past.close();
    }
  }, 60_000);

  test("24 printer problem: the kiosk's printer is a stopped queue", async () => {
    const { run, report } = await statusJson(
      envOf(await kioskDir(), { KIOSK_PRINTER: cups.offlineQueue }),
    );
    expect(run.code).toBe(statusExitCodes.printer);
    expect(report.verdict).toBe('printer');
    expect(report.printers.printer).toBe(cups.offlineQueue);
    expect(report.problems).toEqual([
      expect.objectContaining({ class: 'printer', code: 'PRINTER_OFFLINE' }),
    ]);
    expect(report.problems[0]!.next).toContain(`cupsenable ${cups.offlineQueue}`);
  }, 60_000);

  test("0 with no printer configured: no CUPS on the machine and none named; printing 'not configured'", async () => {
    // A kiosk deployed without a printer: the CUPS tools are not installed (not on PATH here).
    const noCups = { PATH: '/nonexistent' };
    const { run, report } = await statusJson(envOf(await kioskDir(), noCups));
    expect(run.code, JSON.stringify(report.problems)).toBe(statusExitCodes.ok);
    expect(report.verdict).toBe('healthy');
    expect(report.printers).toMatchObject({ printing: 'not-configured', printer: null });
    expect(report.problems).toEqual([]);
    const screen = await kioskctl(['status'], envOf(await kioskDir(), noCups));
    expect(screen.code).toBe(statusExitCodes.ok);
    expect(screen.stdout).toMatch(/^ {2}printer {7}not configured/m);

    // The same machine with a printer named (KIOSK_PRINTER) is trouble: it cannot print.
    const named = await statusJson(envOf(await kioskDir(), { ...noCups, KIOSK_PRINTER: 'till' }));
    expect(named.run.code).toBe(statusExitCodes.printer);
    expect(named.report.printers).toMatchObject({ printing: 'configured', printer: 'till' });
    expect(named.report.problems.map((problem) => problem.code)).toEqual([
      'PRINT_SERVICE_UNAVAILABLE',
    ]);
  }, 60_000);

  test('24 a configured printer the print service cannot reach: CUPS down', async () => {
    const down = `127.0.0.1:${await deadPort()}`;
    const { run, report } = await statusJson(
      envOf(await kioskDir(), { KIOSK_CUPS_SERVER: down, KIOSK_PRINTER: cups.pdfQueue }),
    );
    expect(run.code).toBe(statusExitCodes.printer);
    expect(report.printers).toMatchObject({ printing: 'configured', printer: cups.pdfQueue });
    expect(report.problems.map((problem) => problem.code)).toEqual(['PRINT_SERVICE_UNAVAILABLE']);
  }, 60_000);

  test('25 clock: the kiosk is an hour behind the service', async () => {
    const ahead = await startSandbox({ products: 30, now: new Date(Date.now() + 60 * 60 * 1000) });
    try {
      const { run, report } = await statusJson(
        envOf(await kioskDir(), { KIOSK_API_BASE_URL: ahead.baseUrl }),
        ['--stale-after', '1d'],
      );
      expect(run.code).toBe(statusExitCodes.clock);
      expect(report.service.clock!.offsetMs).toBeGreaterThan(59 * 60 * 1000);
      expect(report.problems.map((problem) => problem.code)).toEqual(['CLOCK_OFFSET']);
    } finally {
      await ahead.close();
    }
  }, 60_000);

  test('several troubles: the one that matters most for money decides, every one is listed', async () => {
    const dir = await kioskDir();
    expect((await debitOnce(dir, full, demoGiftCards.lowBalance, 50)).refused).toBe(1);
    const baseUrl = `http://127.0.0.1:${await deadPort()}`;
    const { run, report } = await statusJson(
      envOf(dir, { KIOSK_API_BASE_URL: baseUrl, KIOSK_PRINTER: cups.noPaperQueue }),
    );
    expect(run.code).toBe(statusExitCodes.debitAttention);
    expect(report.exitCode).toBe(statusExitCodes.debitAttention);
    expect(report.problems.map((problem) => [problem.class, problem.code])).toEqual([
      ['debit-attention', 'DEBITS_NEED_ATTENTION'],
      ['offline', 'SERVICE_UNREACHABLE'],
      ['printer', 'PRINTER_OUT_OF_PAPER'],
    ]);
    expect(Object.keys(report)).toEqual([
      'verdict',
      'exitCode',
      'checkedAt',
      'problems',
      'service',
      'credentials',
      'profile',
      'sender',
      'attention',
      'mirror',
      'printers',
      'lastErrors',
    ]);

    // The screen gives the same verdict, and what to do for each problem.
    const screen = await kioskctl(
      ['status'],
      envOf(dir, { KIOSK_API_BASE_URL: baseUrl, KIOSK_PRINTER: cups.noPaperQueue }),
    );
    expect(screen.code).toBe(statusExitCodes.debitAttention);
    expect(screen.stdout.split('\n')[0]).toMatch(/^TROUBLE: debits need attention {3}\(exit 20, /);
    expect(screen.stdout.match(/^ {5}next: /gm)).toHaveLength(3);
  }, 60_000);

  test('2: a bad flag, no kiosk database, or nothing to reach the service with', async () => {
    const dir = await kioskDir();
    const badFlag = await inProcess(['status', '--stale-after', 'soon'], envOf(dir));
    expect(badFlag.code).toBe(statusExitCodes.invalidRequest);
    expect(JSON.parse(badFlag.stderr)).toMatchObject({ error: { code: 'USAGE' } });

    const empty = await inProcess(['status'], envOf(join(root, 'not-a-kiosk')));
    expect(empty.code).toBe(statusExitCodes.invalidRequest);
    expect(JSON.parse(empty.stderr)).toMatchObject({ error: { code: 'CONFIG' } });

    const unconfigured = await inProcess(['status', '--json'], {
      KIOSK_DATA_DIR: dir,
      KIOSK_CUPS_SERVER: cups.server,
    });
    expect(unconfigured.code).toBe(statusExitCodes.invalidRequest);
    const report = JSON.parse(unconfigured.stdout) as Report;
    expect(report.verdict).toBe('configuration');
    expect(report.service.connectivity).toBe('not-configured');
  }, 60_000);
});
