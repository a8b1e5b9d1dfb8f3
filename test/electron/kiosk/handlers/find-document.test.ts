import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findDocument } from '../../../../electron/kiosk/document-finder.ts';
import type { MessageName, RequestOf } from '../../../../shared/ipc/index.ts';
import { defaultProfile } from '../../../../shared/profile/index.ts';
import { demoSales, demoSav } from '../../../../sandbox/data/demo.ts';
import { type KioskFixture, replyTo, startKioskFixture } from '../support.ts';

/**
 * Documents found by the number on the receipt, through the router to the sandbox over HTTP:
 * the numbers follow the sandbox's clock, so each test asks the service what they are.
 */

let fixture: KioskFixture;
beforeAll(async () => {
  fixture = await startKioskFixture();
}, 60_000);
afterAll(() => fixture?.close());

const call = <N extends MessageName>(name: N, request: RequestOf<N>) =>
  replyTo(fixture, name, request);

describe('findDocument', { timeout: 30_000 }, () => {
  it('finds a sale by its printed number, typed in lower case with spaces', async () => {
    const sale = await call('getSale', { saleId: demoSales.withInvoice });
    expect(sale.number).toMatch(/^V-/);
    expect(await call('findDocument', { number: ` ${sale.number!.toLowerCase()} ` })).toEqual({
      found: 'sale',
      saleId: demoSales.withInvoice,
      number: sale.number,
      hasInvoice: true,
    });
  });

  it('finds an invoice by its number, and a SAV case by its number', async () => {
    const invoice = await call('getInvoice', { saleId: demoSales.withInvoice });
    expect(invoice.number).toMatch(/^F-/);
    expect(await call('findDocument', { number: invoice.number! })).toEqual({
      found: 'invoice',
      saleId: demoSales.withInvoice,
      number: invoice.number,
    });
    const sav = await call('getSav', { savId: demoSav.inRepair });
    expect(await call('findDocument', { number: sav.number! })).toEqual({
      found: 'sav',
      savId: demoSav.inRepair,
      number: sav.number,
    });
  });

  it('says when a sale has no invoice yet', async () => {
    const sale = await call('getSale', { saleId: demoSales.partiallyPaid });
    expect(await call('findDocument', { number: sale.number! })).toMatchObject({
      found: 'sale',
      saleId: demoSales.partiallyPaid,
      hasInvoice: false,
    });
  });

  it('opens by identifier too', async () => {
    expect(await call('findDocument', { number: demoSav.closed })).toMatchObject({
      found: 'sav',
      savId: demoSav.closed,
    });
  });

  it('says plainly when nothing has the number, and whether the search was complete', async () => {
    expect(await call('findDocument', { number: 'V-1999-000001' })).toEqual({
      found: 'none',
      complete: true,
    });
    // Bounded: one page of five sales cannot cover the sandbox's history, and says so.
    const partial = await findDocument(
      fixture.services.parts.client,
      defaultProfile,
      'V-1999-000001',
      { maxPages: 1, pageSize: 5, maxInvoiceReads: 2 },
    );
    expect(partial).toEqual({ found: 'none', complete: false });
  });
});
