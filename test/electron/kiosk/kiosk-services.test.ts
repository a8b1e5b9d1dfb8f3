import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ipcErrorCodes,
  type IpcResult,
  type MessageName,
  type ReplyOf,
  type RequestOf,
} from '../../../shared/ipc/index.ts';
import type { EventName, EventPayloadOf } from '../../../shared/ipc/contract.ts';
import { SettingsStore } from '../../../electron/kiosk/settings-store.ts';
import { defaultOfflineLimits } from '../../../electron/outbox/limits.ts';
import {
  ambiguousEmail,
  demoCustomers,
  demoGiftCards,
  demoProducts,
  demoSales,
  demoSav,
} from '../../../sandbox/data/demo.ts';
import { ADMIN_PIN, KIOSK_PAGE, type KioskFixture, startKioskFixture } from './support.ts';

describe('the kiosk services behind the router (real sandbox, real SQLite)', () => {
  let fixture: KioskFixture;
  const events: { event: EventName; payload: unknown }[] = [];

  async function call<N extends MessageName>(
    name: N,
    request: RequestOf<N>,
  ): Promise<IpcResult<ReplyOf<N>>> {
    return (await fixture.router.handle(`kiosk:${name}`, request, KIOSK_PAGE)) as IpcResult<
      ReplyOf<N>
    >;
  }
  async function value<N extends MessageName>(name: N, request: RequestOf<N>): Promise<ReplyOf<N>> {
    const result = await call(name, request);
    if (!result.ok) throw new Error(`${name}: ${result.error.code} ${result.error.message}`);
    return result.value;
  }

  beforeAll(async () => {
    fixture = await startKioskFixture();
    fixture.services.events.subscribe(
      <E extends EventName>(event: E, payload: EventPayloadOf<E>) => {
        events.push({ event, payload });
      },
    );
  }, 60_000);
  afterAll(() => fixture?.close());

  it('reaches the sandbox (so a request count that stays put means nothing was sent)', async () => {
    const before = fixture.requestCount();
    await value('testConnection', {});
    expect(fixture.requestCount()).toBeGreaterThan(before);
  });

  it('status: demo flag, versions, where the credentials are', async () => {
    const status = await value('getStatus', {});
    expect(status).toMatchObject({
      demo: true,
      host: 'electron',
      apiOrigin: fixture.sandbox.baseUrl,
      versions: { api: 'v1', node: process.versions.node },
      credentials: { configured: true, backend: 'sandbox', writable: false },
    });
    expect(await value('testConnection', {})).toMatchObject({
      ok: true,
      apiVersion: expect.any(String),
      error: null,
    });
  });

  it("status: the app version is the package's", async () => {
    const pkg = JSON.parse(
      await readFile(new URL('../../../package.json', import.meta.url), 'utf8'),
    ) as { version: string };
    expect((await value('getStatus', {})).versions.app).toBe(pkg.version);
  });

  it('catalogue: syncs, then answers search, product, shops and status from the mirror', async () => {
    expect(await value('syncNow', { full: true })).toEqual({ started: true, joined: false });
    const synced = () =>
      events.some(
        (entry) =>
          entry.event === 'syncProgress' && (entry.payload as { type: string }).type === 'synced',
      );
    for (let i = 0; i < 400 && !synced(); i++)
      await new Promise((resolve) => setTimeout(resolve, 25));
    const failures = events.filter(
      (entry) =>
        entry.event === 'syncProgress' && (entry.payload as { type: string }).type === 'failed',
    );
    expect(synced(), JSON.stringify(failures)).toBe(true);
    expect(
      events.some(
        (entry) =>
          entry.event === 'syncProgress' && (entry.payload as { type: string }).type === 'progress',
      ),
    ).toBe(true);
    const status = await value('getSyncStatus', {});
    expect(status).toMatchObject({ ready: true, syncing: null, access: { mode: 'mirror' } });

    const search = await value('searchProducts', { text: 'glacons' });
    expect(search.source).toBe('mirror');
    expect(search.hits.map((hit) => hit.uuid)).toContain(demoProducts.promoted);

    const product = await value('getProduct', { productId: demoProducts.availableEverywhere });
    expect(product.product.uuid).toBe(demoProducts.availableEverywhere);
    expect(product.shops.length).toBeGreaterThan(1);

    const shops = await value('listShops', {});
    expect(shops.source).toBe('mirror');
    expect(shops.shops.length).toBeGreaterThan(0);

    expect(await call('getProduct', { productId: 'prod_0000000000000000' })).toMatchObject({
      ok: false,
      error: { code: 'CATALOG_PRODUCT_NOT_FOUND' },
    });
  });

  it('customers: exact e-mail, narrowed by a second criterion, detail, history, credits', async () => {
    // The e-mail alone: both customers who share it, none chosen.
    const found = await value('searchCustomers', { email: ambiguousEmail.email });
    expect(found.data.map((customer) => customer.id).sort()).toEqual(
      [...ambiguousEmail.customerIds].sort(),
    );
    // Still both with the shared last name; one with the first name.
    expect(
      (await value('searchCustomers', { email: ambiguousEmail.email, lastName: 'Moreau' })).data,
    ).toHaveLength(2);
    const julien = await value('searchCustomers', {
      email: ambiguousEmail.email,
      firstName: 'Julien',
    });
    expect(julien.data.map((customer) => customer.id)).toHaveLength(1);
    expect(ambiguousEmail.customerIds as readonly string[]).toContain(julien.data[0]?.id);
    expect((await value('searchCustomers', { email: 'nobody@example.com' })).data).toEqual([]);
    // Never without a criterion (a name alone is one the sandbox takes: handlers/customers.test.ts).
    expect(
      await call('searchCustomers', { limit: 20 } as RequestOf<'searchCustomers'>),
    ).toMatchObject({
      ok: false,
      error: { code: ipcErrorCodes.invalidRequest },
    });
    const customer = await value('getCustomer', {
      customerId: demoCustomers.main,
      includeContact: true,
    });
    expect(customer.email).toMatch(/@/);
    const bare = await value('getCustomer', { customerId: demoCustomers.main });
    expect(bare.email).toBeNull();
    expect(
      (await value('getCustomerHistory', { customerId: demoCustomers.main, families: ['sales'] }))
        .sales?.length,
    ).toBeGreaterThan(0);
    expect(
      (await value('listCustomerCredits', { customerId: demoCustomers.main })).data.length,
    ).toBeGreaterThan(0);
    expect(await call('getCustomer', { customerId: 'customer_nope' })).toMatchObject({
      ok: false,
      error: { code: 'RESOURCE_NOT_FOUND', details: { kind: 'NotFound', status: 404 } },
    });
  });

  it('sales, invoices and SAV', async () => {
    expect((await value('getSale', { saleId: demoSales.withInvoice })).id).toBe(
      demoSales.withInvoice,
    );
    expect((await value('getInvoice', { saleId: demoSales.withInvoice })).number).toMatch(/^F-/);
    expect((await value('getSav', { savId: demoSav.inRepair })).status).toBe('in_repair');
    expect((await value('getSavLog', { savId: demoSav.closed })).data.length).toBeGreaterThan(1);
  });

  it('gift cards: look-up, a debit applied through the outbox, its events, the summary', async () => {
    const card = await value('getGiftCard', { giftCardId: demoGiftCards.active });
    expect(card).toMatchObject({ balance: 114.5 });
    expect(JSON.stringify(card)).not.toMatch(/\d{12,}/);

    fixture.services.parts.sender.start();
    const debit = await value('debitGiftCard', {
      requestId: crypto.randomUUID(),
      giftCardId: demoGiftCards.active,
      amount: 2,
      reference: 'V-2026-1',
      policy: 'prefer_online',
      waitMs: 10_000,
    });
    expect(debit).toMatchObject({
      settled: true,
      delivery: 'send-now',
      debit: { state: 'applied', newBalance: 112.5 },
    });
    expect(debit.debit.reference.startsWith('V-2026-1/')).toBe(true);
    expect(debit.debit.reply?.kind).toBe('receipt');

    const states = events
      .filter((entry) => entry.event === 'outboxChanged')
      .map((entry) => entry.payload as { type: string; to?: string });
    expect(states.map((entry) => entry.type)).toContain('accepted');
    expect(states.some((entry) => entry.type === 'state-changed' && entry.to === 'applied')).toBe(
      true,
    );

    const recent = await value('listDebits', { view: 'recent', limit: 5 });
    expect(recent.debits[0]?.id).toBe(debit.debit.id);
    expect(await call('cancelDebit', { debitId: debit.debit.id })).toMatchObject({
      ok: false,
      error: { code: 'OUTBOX_NOT_CANCELLABLE' },
    });
    expect(await call('cancelDebit', { debitId: 999_999 })).toMatchObject({
      ok: false,
      error: { code: 'OUTBOX_NOT_FOUND' },
    });

    const refused = await value('debitGiftCard', {
      requestId: crypto.randomUUID(),
      giftCardId: demoGiftCards.lowBalance,
      amount: 50,
      policy: 'prefer_online',
      waitMs: 10_000,
    });
    expect(refused.debit.state).toBe('refused');
    // Refused within the counter's wait: the reply shows it in front of the customer, so main took
    // it as seen and nothing needs attention (issue 37, 5).
    expect(refused.debit).toMatchObject({ acknowledged: true });
    expect((await value('listDebits', { view: 'attention' })).debits).toEqual([]);

    const summary = await value('getOutboxSummary', {});
    expect(summary).toMatchObject({
      openCount: 0,
      sender: { running: true },
      limits: { maxPendingCount: 50 },
    });
    expect(await value('sendOutboxNow', {})).toMatchObject({ sender: { running: true } });
  });

  it('printing: the preview is the verified PDF; a missing print service is a typed error', async () => {
    const preview = await value('previewDocument', {
      kind: 'invoice',
      reference: demoSales.withInvoice,
    });
    expect(Buffer.from(preview.pdfBase64, 'base64').subarray(0, 5).toString()).toBe('%PDF-');
    expect(preview.documentNumber).not.toBeNull();
    const printers = await call('listPrinters', {});
    expect(printers.ok).toBe(false);
    if (!printers.ok) expect(printers.error.code).toMatch(/^PRINT_/);
    expect(await call('getPrintJob', { jobId: 'no-such-job' })).toMatchObject({
      ok: false,
      error: { code: 'PRINT_JOB_UNKNOWN' },
    });
    expect(await value('listPrintJobs', {})).toEqual({ jobs: [] });
  });

  it('settings: PIN-protected, persisted; credentials are write-only and here read-only', async () => {
    // A wrong PIN is an error that says how many tries are left (and when the next is).
    expect(await call('checkAdminPin', { pin: '0000' })).toMatchObject({
      ok: false,
      error: { code: ipcErrorCodes.adminPinInvalid, details: { triesLeft: 4, retryAfterMs: 0 } },
    });
    expect(await value('checkAdminPin', { pin: ADMIN_PIN })).toEqual({ valid: true });
    expect(
      await call('updateSettings', { adminPin: '0000', changes: { locale: 'en' } }),
    ).toMatchObject({
      ok: false,
      error: { code: ipcErrorCodes.adminPinInvalid },
    });
    const updated = await value('updateSettings', {
      adminPin: ADMIN_PIN,
      changes: { locale: 'en', shopId: 'shop_lyon-part-dieu', printer: 'Kiosk_Printer' },
    });
    expect(updated.settings).toEqual({
      locale: 'en',
      shopId: 'shop_lyon-part-dieu',
      printer: 'Kiosk_Printer',
      paperSize: null,
      apiBaseUrl: null,
      offlineLimits: defaultOfflineLimits,
      profilePath: null,
      idleReturnSeconds: 90,
      scanMaxGapMs: 40,
      onScreenKeyboard: 'auto',
    });
    expect(
      SettingsStore.open(fixture.dataDir, {
        locale: 'fr',
        shopId: null,
        printer: null,
        paperSize: null,
        apiBaseUrl: null,
        offlineLimits: defaultOfflineLimits,
        profilePath: null,
        idleReturnSeconds: 90,
        scanMaxGapMs: 40,
        onScreenKeyboard: 'auto',
      }).current,
    ).toEqual(updated.settings);
    expect((await value('getSettings', {})).settings.locale).toBe('en');

    const write = await call('setCredentials', {
      adminPin: ADMIN_PIN,
      email: 'new@example.com',
      password: 'p4ss',
    });
    expect(write).toMatchObject({ ok: false, error: { code: 'CREDENTIALS_READ_ONLY' } });
    expect(JSON.stringify(write)).not.toContain('p4ss');
  });
});
