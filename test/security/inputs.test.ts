import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../electron/cli/kioskctl.ts';
import { type BrowserHost, startBrowserHost } from '../../electron/host/browser-host.ts';
import { Outbox } from '../../electron/outbox/index.ts';
import { kioskSchema } from '../../electron/schema.ts';
import { type KioskDatabase, openDatabase } from '../../electron/storage/index.ts';
import { demoCustomers, demoGiftCards, demoProducts } from '../../sandbox/data/demo.ts';
import { KIOSK_PAGE, type KioskFixture, startKioskFixture } from '../electron/kiosk/support.ts';

/**
 * One rule per input, whatever the door: the IPC message (Electron), the same message over the
 * loopback browser host (HTTP), `kioskctl`, and the outbox itself. Each attack here got through
 * one door or another before: a lone UTF-16 surrogate in an id (an internal error on lookup, a
 * debit stored under another card id, a search matching every product), and a reference with a
 * line break or an e-mail address accepted by kioskctl while the IPC message refused it.
 */

const TOKEN = 'security-inputs-token-0123456789abcdefghij';
const LONE = '\ud800';
const kioskctlPath = fileURLToPath(new URL('../../electron/cli/kioskctl.ts', import.meta.url));

let fixture: KioskFixture;
let host: BrowserHost;
let rendererDir: string;
let cliDir: string;
let cliDb: KioskDatabase;

beforeAll(async () => {
  fixture = await startKioskFixture({ services: { host: 'browser' } });
  rendererDir = mkdtempSync(join(tmpdir(), 'kiosk-security-renderer-'));
  cliDir = mkdtempSync(join(tmpdir(), 'kiosk-security-cli-'));
  host = await startBrowserHost({ services: fixture.services, rendererDir, token: TOKEN });
  cliDb = openDatabase({ dataDir: cliDir, schema: kioskSchema });
}, 60_000);

afterAll(async () => {
  cliDb?.close();
  await host?.close();
  await fixture?.close();
  rmSync(rendererDir, { recursive: true, force: true });
  rmSync(cliDir, { recursive: true, force: true });
});

/** The Electron door: the router as the preload reaches it. */
function viaIpc(name: string, payload: unknown) {
  return fixture.router.handle(`kiosk:${name}`, payload, KIOSK_PAGE);
}

/**
 * The HTTP door, with the body as raw JSON text: `"\ud800"` is valid JSON (and valid UTF-8 on the
 * wire) and parses back into a lone surrogate, which is how a page or a script sends one.
 */
async function viaHttp(name: string, payload: unknown): Promise<unknown> {
  const response = await fetch(`${host.origin}/ipc/${name}`, {
    method: 'POST',
    headers: { origin: host.origin, 'x-kiosk-token': TOKEN, 'content-type': 'application/json' },
    body: JSON.stringify(payload),
  });
  return response.json();
}

async function kioskctlInProcess(argv: readonly string[], env: Record<string, string> = {}) {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, {
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
    env,
  });
  return { code, stdout, stderr };
}

function errorCodeOf(stderr: string): unknown {
  return (JSON.parse(stderr.trim().split('\n').at(-1)!) as { error: { code: unknown } }).error.code;
}

const refused = { ok: false, error: { code: 'IPC_INVALID_REQUEST' } };
const kioskOutbox = () => fixture.services.parts.outbox;

describe('ids and texts are well-formed Unicode at every door', () => {
  const attacks: readonly (readonly [string, Record<string, unknown>])[] = [
    ['getGiftCard', { giftCardId: `${demoGiftCards.active}${LONE}` }],
    [
      'debitGiftCard',
      {
        requestId: randomUUID(),
        giftCardId: `${demoGiftCards.active.slice(0, -1)}${LONE}`,
        amount: 1,
        policy: 'prefer_online',
      },
    ],
    ['getCustomer', { customerId: `${demoCustomers.main}${LONE}` }],
    ['getProduct', { productId: `${demoProducts.availableEverywhere}${LONE}` }],
    ['searchProducts', { text: LONE }],
    ['searchProducts', { text: 'glacons', shopId: `shop_${LONE}` }],
    ['getSale', { saleId: `sale_${LONE}` }],
    ['searchCustomers', { email: 'famille.moreau@example.com', lastName: `Moreau${LONE}` }],
    ['previewDocument', { kind: 'invoice', reference: `sale_${LONE}` }],
  ];

  it.each(attacks)(
    '%s %j: refused by the IPC and HTTP doors; nothing sent, nothing stored',
    async (name, payload) => {
      const sent = fixture.requestCount();
      expect(await viaIpc(name, payload)).toMatchObject(refused);
      expect(await viaHttp(name, payload)).toMatchObject(refused);
      expect(fixture.requestCount()).toBe(sent);
      expect(kioskOutbox().list()).toEqual([]);
    },
  );

  it('kioskctl api: a lone surrogate in a debit body is refused locally, nothing sent', async () => {
    const account = fixture.sandbox.accounts.find((a) => a.email === 'kiosk-all@sandbox.test')!;
    const env = {
      KIOSK_API_BASE_URL: fixture.sandbox.baseUrl,
      KIOSK_API_EMAIL: account.email,
      KIOSK_API_PASSWORD: account.password,
    };
    const sent = fixture.requestCount();
    for (const body of [
      { amount: 1, currency: 'EUR', reference: `till-3${LONE}` },
      { amount: 1, currency: 'EUR', shopId: `shop_${LONE}` },
    ]) {
      const run = await kioskctlInProcess(
        [
          'api',
          'debitGiftCard',
          '--param',
          `giftCardId=${demoGiftCards.active}`,
          '--idempotency-key',
          randomUUID(),
          '--body',
          JSON.stringify(body),
        ],
        env,
      );
      expect(run.code).toBe(2);
      expect(errorCodeOf(run.stderr)).toBe('INVALID_REQUEST');
    }
    expect(fixture.requestCount()).toBe(sent);
    expect(fixture.sandbox.control!.ledger()).toEqual([]);
  });

  it('the outbox itself refuses a card id no UTF-8 can store (it would file the debit under U+FFFD)', () => {
    const outbox = new Outbox({ db: cliDb });
    expect(() => outbox.enqueue({ giftCardId: `gift_card_${LONE}`, amount: 1 })).toThrow(
      expect.objectContaining({ code: 'OUTBOX_INVALID_DEBIT' }),
    );
    expect(outbox.list()).toEqual([]);
  });
});

describe('a debit reference follows one rule at every door', { timeout: 60_000 }, () => {
  /** Each door's verdict on one reference, and what was stored when it accepted. */
  async function verdicts(reference: string) {
    const ipc = await viaIpc('debitGiftCard', {
      requestId: randomUUID(),
      giftCardId: demoGiftCards.active,
      amount: 0.01,
      reference,
      policy: 'prefer_online',
    });
    const cli = await kioskctlInProcess([
      'outbox',
      'enqueue',
      '--data-dir',
      cliDir,
      '--card',
      demoGiftCards.active,
      '--amount',
      '0.01',
      '--reference',
      reference,
    ]);
    let outbox: string;
    try {
      outbox = new Outbox({ db: cliDb }).enqueue({
        giftCardId: demoGiftCards.active,
        amount: 0.01,
        reference,
      }).debit.reference;
    } catch (error) {
      outbox = (error as { code: string }).code;
    }
    return { ipc, cli, outbox };
  }

  it.each([
    ['a line break', 'a\nb'],
    ['a carriage return', 'till\r3'],
    ['an e-mail address', 'ann.moreau@example.com'],
    ['a tab', 'till\t3'],
    ['a lone surrogate', `till-3${LONE}`],
    ['48 characters', 'x'.repeat(48)],
    ['nothing but spaces', '   '],
    ['a quote', 'till "3"'],
  ])('%s: refused by IPC, kioskctl and the outbox; nothing stored', async (_, reference) => {
    const stored = () => [new Outbox({ db: cliDb }).list().length, kioskOutbox().list().length];
    const before = stored();
    const { ipc, cli, outbox } = await verdicts(reference);
    expect(ipc).toMatchObject(refused);
    expect(cli.code).toBe(2);
    expect(outbox).toBe('OUTBOX_INVALID_DEBIT');
    expect(stored()).toEqual(before);
  });

  it.each([
    ['till-3', 'till-3'],
    ['Sale #42 / 3:1_a.b', 'Sale #42 / 3:1_a.b'],
    [' till-3 ', 'till-3'],
    ['x'.repeat(47), 'x'.repeat(47)],
  ])('%j: accepted by every door, stored as %j', async (reference, stored) => {
    const { ipc, cli, outbox } = await verdicts(reference);
    const prefix = `${stored}/`;
    expect(ipc).toMatchObject({ ok: true });
    const ipcReference = (ipc as { value: { debit: { reference: string } } }).value.debit.reference;
    expect(ipcReference.startsWith(prefix)).toBe(true);
    expect(ipcReference.slice(prefix.length)).toMatch(/^[0-9a-f]{16}$/);
    expect(cli.code).toBe(0);
    const cliId = (JSON.parse(cli.stdout.split('\n')[0]!) as { id: number }).id;
    expect(new Outbox({ db: cliDb }).get(cliId).reference.startsWith(prefix)).toBe(true);
    expect(outbox.startsWith(prefix)).toBe(true);
  });

  it('kioskctl outbox enqueue --reference "$(printf \'a\\nb\')" exits 2 and stores nothing', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'kiosk-security-newline-'));
    try {
      const run = (args: readonly string[]) =>
        new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
          const child = spawn(process.execPath, [kioskctlPath, ...args], {
            env: { PATH: process.env['PATH'] ?? '', KIOSK_DATA_DIR: dataDir },
            stdio: ['ignore', 'pipe', 'pipe'],
          });
          let stdout = '';
          let stderr = '';
          child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
          child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
          child.on('error', reject);
          child.on('close', (code) => resolve({ code, stdout, stderr }));
        });
      const enqueue = await run([
        'outbox',
        'enqueue',
        '--card',
        demoGiftCards.active,
        '--amount',
        '12.50',
        '--reference',
        'a\nb',
      ]);
      expect(enqueue.code).toBe(2);
      expect(errorCodeOf(enqueue.stderr)).toBe('USAGE');
      expect(enqueue.stdout).toBe('');
      const list = await run(['outbox', 'list']);
      expect(list.code).toBe(0);
      expect(JSON.parse(list.stdout)).toEqual({ debits: [] });
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('a debit amount follows one rule at every door', () => {
  it.each([
    ['0', 0],
    ['100000.01', 100_000.01],
  ])('%s EUR: refused by IPC, kioskctl and the outbox', async (text, amount) => {
    const ipc = await viaIpc('debitGiftCard', {
      requestId: randomUUID(),
      giftCardId: demoGiftCards.active,
      amount,
      policy: 'prefer_online',
    });
    expect(ipc).toMatchObject(refused);
    const cli = await kioskctlInProcess([
      'outbox',
      'enqueue',
      '--data-dir',
      cliDir,
      '--card',
      demoGiftCards.active,
      '--amount',
      text,
    ]);
    expect(cli.code).toBe(2);
    expect(() =>
      new Outbox({ db: cliDb }).enqueue({ giftCardId: demoGiftCards.active, amount }),
    ).toThrow(expect.objectContaining({ code: 'OUTBOX_INVALID_DEBIT' }));
  });
});
