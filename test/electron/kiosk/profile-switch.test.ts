import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MessageName, RequestOf } from '../../../shared/ipc/contract.ts';
import {
  ambiguousEmail,
  demoCustomers,
  demoGiftCards,
  demoSales,
} from '../../../sandbox/data/demo.ts';
import { ADMIN_PIN, type KioskFixture, replyTo, send, startKioskFixture } from './support.ts';

/**
 * The kiosk on a service that shapes every 'not shown' record its own way (the alternate
 * dialect), deployed first with the default profile: reads degrade to "not provided" and a
 * debit is held, never failed. An administrator then gives the right profile in setup: the
 * held debit is rebuilt, sent, and applied exactly once.
 */

const alternateProfile = new URL(
  '../../../sandbox/dialects/alternate.profile.json',
  import.meta.url,
).pathname;

let fixture: KioskFixture;
beforeAll(async () => {
  fixture = await startKioskFixture({ dialect: 'alternate' });
});
afterAll(() => fixture.close());

const call = <N extends MessageName>(name: N, request: RequestOf<N>) =>
  send(fixture, name, request);
const value = <N extends MessageName>(name: N, request: RequestOf<N>) =>
  replyTo(fixture, name, request);

describe('the default profile on a service shaped another way', { timeout: 30_000 }, () => {
  it('reads degrade to "not provided", nothing breaks, and what the service gave is kept', async () => {
    const card = await value('getGiftCard', { giftCardId: demoGiftCards.active });
    expect(card).toMatchObject({ source: 'service', id: demoGiftCards.active, balance: null });
    // Its status word is not one the profile allows: the screen blocks a debit it cannot justify.
    expect(card).toMatchObject({ status: 'ACTIVE', debitable: false });
    if (card.source !== 'service') throw new Error('read from the service');
    expect(card.otherFields.map((field) => field.name)).toContain('funds.remaining');
    const customer = await value('getCustomer', { customerId: demoCustomers.main });
    expect(customer.id).toBe(demoCustomers.main);
    expect(customer.customerType).toBeNull();
    const sale = await value('getSale', { saleId: demoSales.withInvoice });
    expect(sale).toMatchObject({ id: demoSales.withInvoice, number: null, total: null });
  });

  it('a debit is held with an administrator message; the right profile and it is applied once', async () => {
    const { outbox, sender } = fixture.services.parts;
    // A card this kiosk never read: the active one was read above with a status word the
    // default profile does not allow, and the card checks refuse it on every debit.
    expect(
      await call('debitGiftCard', {
        requestId: randomUUID(),
        giftCardId: demoGiftCards.active,
        amount: 2.5,
        policy: 'prefer_online',
      }),
    ).toMatchObject({ ok: false, error: { code: 'OUTBOX_CARD_NOT_DEBITABLE' } });
    const reply = await value('debitGiftCard', {
      requestId: randomUUID(),
      giftCardId: demoGiftCards.lowBalance,
      amount: 2.5,
      policy: 'prefer_online',
    });
    await sender.drain({ untilEmpty: true, timeoutMs: 5_000 }).catch(() => undefined);
    const held = outbox.get(reply.debit.id);
    expect(held.state).toBe('pending');
    expect(sender.status.paused?.code).toBe('DEBIT_REQUEST_REFUSED');
    const listed = await value('listDebits', { view: 'open' });
    expect(listed.debits[0]?.heldReason?.message).toMatch(/administrator/);
    expect(fixture.sandbox.control!.ledger(demoGiftCards.lowBalance)).toEqual([]);

    // Setup refuses a file that does not load, and nothing changes.
    const broken = join(fixture.dataDir, 'broken-profile.json');
    writeFileSync(broken, '{"profileVersion": 1}');
    expect(
      await call('updateSettings', { adminPin: ADMIN_PIN, changes: { profilePath: broken } }),
    ).toMatchObject({ ok: false, error: { code: 'IPC_INVALID_REQUEST' } });
    expect((await value('getSettings', {})).profile.source).toBe('default');

    const saved = await value('updateSettings', {
      adminPin: ADMIN_PIN,
      changes: { profilePath: alternateProfile },
    });
    expect(saved.profile).toMatchObject({
      source: 'settings',
      path: alternateProfile,
      error: null,
    });
    await sender.drain({ untilEmpty: true, timeoutMs: 5_000 });
    const applied = outbox.get(reply.debit.id);
    expect(applied.state).toBe('applied');
    const ledger = fixture.sandbox.control!.ledger(demoGiftCards.lowBalance);
    expect(ledger).toHaveLength(1);
    expect(ledger[0]?.amount).toBe(2.5);
    // The row keeps both keys it was sent under: the refused one and the one that applied.
    expect(outbox.keyHistory(reply.debit.id)).toHaveLength(2);
  });

  it('with its profile the reads are whole, and "Check the service" says everything resolves', async () => {
    const card = await value('getGiftCard', { giftCardId: demoGiftCards.active });
    expect(card).toMatchObject({ balance: expect.any(Number), debitable: true });
    // A list this service does not page: the kiosk sends no paging parameter (it would be refused).
    const matches = await value('searchCustomers', { email: ambiguousEmail.email, limit: 5 });
    expect(matches.data.map((customer) => customer.lastName)).toEqual(['Moreau', 'Moreau']);
    const report = await value('checkContract', {});
    expect(report.missingNeeded).toEqual([]);
    expect(report.ok).toBe(true);
  });
});
