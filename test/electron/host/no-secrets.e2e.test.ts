import { randomUUID } from 'node:crypto';
import { appendFileSync, existsSync } from 'node:fs';
import { mkdtemp, readFile, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createApiClient } from '../../../electron/api/client.ts';
import { type BrowserHost, startBrowserHost } from '../../../electron/host/browser-host.ts';
import { fixedCredentials } from '../../../electron/kiosk/credential-store.ts';
import {
  type WiredKioskServices,
  createKioskServices,
} from '../../../electron/kiosk/kiosk-services.ts';
import { createRedactingLogger } from '../../../electron/logging/redacting-logger.ts';
import { loadLoopbackClient, pageFetch, streamWatchingFetch } from './loopback-client.ts';
import {
  ambiguousEmail,
  demoCustomers,
  demoGiftCards,
  demoSales,
  demoSav,
} from '../../../sandbox/data/demo.ts';
import { type RunningSandbox, startSandbox } from '../../../sandbox/index.ts';
import type { KioskApi } from '../../../shared/ipc/contract.ts';
import type { SyncEvent } from '../../../shared/ipc/events.ts';
import { makeRendererFixture, type RendererFixture } from './renderer-fixture.ts';

const BUILT_RENDERER = resolve(import.meta.dirname, '../../../dist/renderer');
const ADMIN_PIN = '7315';

async function filesUnder(dir: string): Promise<string[]> {
  if (!existsSync(dir)) return [];
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

/**
 * After a full run through the browser host (router, real sandbox, real SQLite), nothing the
 * kiosk wrote — its log, its database files, its settings — nor the built renderer contains a
 * seeded password, a JWT, the host's token, or a customer's e-mail address or phone number.
 */
describe('no credentials, tokens or customer contact data at rest', () => {
  let sandbox: RunningSandbox;
  let dataDir: string;
  let logFile: string;
  let services: WiredKioskServices;
  let host: BrowserHost;
  let renderer: RendererFixture | undefined;
  let kiosk: KioskApi;
  let streamOpen: Promise<void>;
  const emails = new Set<string>();
  const phones = new Set<string>();
  const TOKEN = 'e2e-loopback-token-4f1b8c2d9e7a6b5c3d2e1f0a';

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, products: 60 });
    dataDir = await mkdtemp(join(tmpdir(), 'kiosk-e2e-'));
    logFile = join(dataDir, 'logs', 'kiosk.log');
    await import('node:fs/promises').then((fs) => fs.mkdir(join(dataDir, 'logs')));
    const logger = createRedactingLogger({
      level: 'debug',
      sink: (line) => appendFileSync(logFile, `${line}\n`),
    });

    // The seeded contact data, read once with the all-scopes account (kept in memory only).
    const all = sandbox.accounts.find((account) => account.email === 'kiosk-all@sandbox.test')!;
    const reader = createApiClient({ baseUrl: sandbox.baseUrl, credentials: async () => all });
    for await (const customer of reader.items('listCustomers', {
      query: { include: 'contact', limit: 500 },
    })) {
      const contact = customer['contact'] as { email?: string; phone?: string } | undefined;
      if (contact?.email) emails.add(contact.email);
      if (contact?.phone) phones.add(contact.phone);
    }
    reader.close();
    expect(emails.size).toBeGreaterThan(10);
    expect(phones.size).toBeGreaterThan(10);

    services = await createKioskServices({
      dataDir,
      api: { baseUrl: sandbox.baseUrl, demo: true },
      credentials: fixedCredentials(all, 'sandbox'),
      host: 'browser',
      adminPin: ADMIN_PIN,
      connectivityProbeMs: 0,
      printing: { backend: 'cups', cupsServer: '127.0.0.1:9' },
      logger,
    });
    if (!existsSync(join(BUILT_RENDERER, 'index.html'))) renderer = await makeRendererFixture();
    host = await startBrowserHost({
      services,
      rendererDir: renderer?.rendererDir ?? BUILT_RENDERER,
      token: TOKEN,
      logger,
    });
    services.start();
    const createLoopbackClient = await loadLoopbackClient();
    const watched = streamWatchingFetch(pageFetch(host.origin));
    streamOpen = watched.streamOpen;
    kiosk = createLoopbackClient({ origin: host.origin, token: TOKEN, fetch: watched.fetch });
  }, 60_000);

  afterAll(async () => {
    await host?.close();
    await services?.close();
    await sandbox?.close();
    await renderer?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('runs the whole kiosk surface', async () => {
    const syncEvents: SyncEvent[] = [];
    const off = kiosk.onSyncProgress((event) => syncEvents.push(event));
    const outboxEvents: unknown[] = [];
    const offOutbox = kiosk.onOutboxChanged((event) => outboxEvents.push(event));
    await streamOpen;

    expect((await kiosk.getStatus()).ok).toBe(true);
    expect(await kiosk.testConnection()).toMatchObject({ ok: true, value: { ok: true } });
    await kiosk.syncNow({ full: true });
    await vi.waitFor(
      () =>
        expect(
          syncEvents.some((event) => event.type === 'synced'),
          JSON.stringify(syncEvents.filter((event) => event.type === 'failed')),
        ).toBe(true),
      { timeout: 10_000, interval: 25 },
    );
    expect((await kiosk.searchProducts({ text: 'machine' })).ok).toBe(true);
    expect((await kiosk.listShops()).ok).toBe(true);

    const found = await kiosk.searchCustomers({ email: ambiguousEmail.email, lastName: 'Moreau' });
    expect(found).toMatchObject({ ok: true });
    const customer = await kiosk.getCustomer({
      customerId: demoCustomers.main,
      includeContact: true,
    });
    expect(customer.ok && customer.value.email).toBeTruthy();
    expect((await kiosk.getCustomerHistory({ customerId: demoCustomers.main })).ok).toBe(true);
    expect((await kiosk.listCustomerCredits({ customerId: demoCustomers.main })).ok).toBe(true);
    expect((await kiosk.getSale({ saleId: demoSales.withInvoice })).ok).toBe(true);
    expect((await kiosk.getInvoice({ saleId: demoSales.withInvoice })).ok).toBe(true);
    expect((await kiosk.getSav({ savId: demoSav.inRepair })).ok).toBe(true);
    expect((await kiosk.getSavLog({ savId: demoSav.inRepair })).ok).toBe(true);
    expect(
      (
        await kiosk.getGiftCard({
          giftCardId: demoGiftCards.active,
          include: ['customer', 'usages'],
        })
      ).ok,
    ).toBe(true);
    expect(
      await kiosk.debitGiftCard({
        requestId: crypto.randomUUID(),
        giftCardId: demoGiftCards.active,
        amount: 3,
        policy: 'prefer_online',
        waitMs: 10_000,
      }),
    ).toMatchObject({ ok: true, value: { debit: { state: 'applied' } } });
    expect(
      await kiosk.debitGiftCard({
        requestId: crypto.randomUUID(),
        giftCardId: demoGiftCards.lowBalance,
        amount: 40,
        policy: 'prefer_online',
        waitMs: 10_000,
      }),
    ).toMatchObject({ ok: true, value: { debit: { state: 'refused' } } });
    expect(
      (await kiosk.previewDocument({ kind: 'sav-slip', reference: demoSav.inRepair })).ok,
    ).toBe(true);
    await kiosk.listPrinters();
    await kiosk.printInvoice({ requestId: randomUUID(), saleId: demoSales.withInvoice });
    await kiosk.updateSettings({ adminPin: ADMIN_PIN, changes: { locale: 'en' } });
    await kiosk.setCredentials({
      adminPin: ADMIN_PIN,
      email: 'someone@example.com',
      password: 'Tr0ub4dor&3',
    });
    await kiosk.checkAdminPin({ pin: '0000' });
    // A customer search that fails, with contact data in the request, to be logged as a failure.
    await kiosk.searchCustomers({ email: [...emails][0]!, phone: [...phones][0]! });
    await kiosk.getCustomer({ customerId: 'customer_does-not-exist' });
    off();
    offOutbox();
    expect(outboxEvents.length).toBeGreaterThan(2);
  }, 60_000);

  it('left no secret in the log, the database files, the settings or the renderer', async () => {
    await host.close();
    await services.close();
    const passwords = [...sandbox.accounts.map((account) => account.password), 'Tr0ub4dor&3'];
    const files = [...(await filesUnder(dataDir)), ...(await filesUnder(BUILT_RENDERER))];
    expect(files.some((file) => file.endsWith('kiosk.sqlite'))).toBe(true);
    expect(files).toContain(logFile);
    expect((await stat(logFile)).size).toBeGreaterThan(0);

    const leaksIn = (label: string, text: string): string[] => {
      const found: string[] = [];
      const lower = text.toLowerCase();
      for (const password of passwords)
        if (text.includes(password)) found.push(`${label}: a password`);
      if (text.includes('eyJ')) found.push(`${label}: a JWT`);
      if (text.includes(TOKEN)) found.push(`${label}: the host token`);
      for (const email of emails)
        if (lower.includes(email.toLowerCase())) found.push(`${label}: an e-mail`);
      for (const phone of phones) if (text.includes(phone)) found.push(`${label}: a phone number`);
      return found;
    };
    // The scanner itself finds what it looks for (else an empty result would prove nothing).
    const canary = `${[...emails][0]} ${[...phones][0]} ${passwords[0]} eyJhbGciOi ${TOKEN}`;
    expect(leaksIn('canary', canary)).toHaveLength(5);

    const leaks: string[] = [];
    for (const file of files) leaks.push(...leaksIn(file, (await readFile(file)).toString('utf8')));
    expect(leaks).toEqual([]);
  });
});
