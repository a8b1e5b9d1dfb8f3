import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  ambiguousEmail,
  demoCustomers,
  demoGiftCards,
  demoProducts,
  demoSales,
  demoSav,
} from '../../../sandbox/data/demo.ts';
import type { MessageName, RequestOf } from '../../../shared/ipc/index.ts';
import { type KioskFixture, send, startKioskFixture } from './support.ts';

/**
 * Every read the kiosk makes, from every screen and from the catalogue sync, sent to the strict
 * `minimal` dialect with its profile: a service that refuses (400) any query parameter the
 * specification does not list for the route. None may be refused: what the kiosk sends comes
 * from the spec or from the profile (docs/integrating.md, "What the kiosk sends and requires").
 */

const minimalProfile = new URL('../../../sandbox/dialects/minimal.profile.json', import.meta.url)
  .pathname;

interface Logged {
  readonly route: string | null;
  readonly status: number;
}

describe('every read the kiosk makes, against a service that shows only the spec', () => {
  let fixture: KioskFixture;
  const replies: Logged[] = [];
  beforeAll(async () => {
    fixture = await startKioskFixture({
      dialect: 'minimal',
      services: { profileFile: minimalProfile },
      sandboxLog: (line) => {
        const entry = JSON.parse(line) as { msg?: string; route?: string | null; status?: number };
        if (entry.msg === 'request' && typeof entry.status === 'number')
          replies.push({ route: entry.route ?? null, status: entry.status });
      },
    });
  }, 60_000);
  afterAll(() => fixture?.close());

  /** The 400s since the test began (one screen's refusal does not fail the others). */
  let from = 0;
  beforeEach(() => {
    from = replies.length;
  });
  const refused = () => replies.slice(from).filter((reply) => reply.status === 400);

  async function read<N extends MessageName>(name: N, request: RequestOf<N>) {
    const result = await send(fixture, name, request);
    expect(result.ok ? null : result.error, name).toBeNull();
    return result.ok ? result.value : undefined;
  }

  it('confirming one of several matches with a detail the service does not take: the kiosk checks it on the matches', async () => {
    const both = await read('searchCustomers', { email: ambiguousEmail.email });
    expect(both?.data.map((match) => match.firstName).sort()).toEqual(['Claire', 'Julien']);
    const one = await read('searchCustomers', {
      email: ambiguousEmail.email,
      firstName: ' julien ',
    });
    expect(one?.data.map((match) => `${match.firstName} ${match.lastName}`)).toEqual([
      'Julien Moreau',
    ]);
    const none = await read('searchCustomers', { email: ambiguousEmail.email, firstName: 'Zoé' });
    expect(none?.data).toEqual([]);
    expect(refused()).toEqual([]);
  });

  it('a service that searches by e-mail alone: the form offers it alone, and no search goes out without it', async () => {
    expect(await read('customerSearchCriteria', {})).toEqual({ criteria: [] });
    const sent = replies.length;
    const result = await send(fixture, 'searchCustomers', { lastName: 'Moreau' });
    // A search with none of its criteria sent would list every customer: refused before the wire.
    expect(result.ok ? null : result.error.code).toBe('CUSTOMER_CRITERION_NOT_TAKEN');
    expect(replies.length).toBe(sent);
  });

  it('the customer screens: search (several matches), detail with contact, history, credits', async () => {
    const matches = await read('searchCustomers', { email: ambiguousEmail.email });
    expect(matches?.data.length).toBeGreaterThan(1);
    // Confirming one match: the criteria this service does not take are not sent.
    await read('searchCustomers', {
      email: ambiguousEmail.email,
      lastName: 'Moreau',
      firstName: 'Claire',
      page: 1,
      limit: 20,
    });
    const customer = await read('getCustomer', {
      customerId: demoCustomers.main,
      includeContact: true,
    });
    expect(customer?.email).toEqual(expect.any(String));
    await read('getCustomerHistory', { customerId: demoCustomers.main });
    await read('getCustomerHistory', {
      customerId: demoCustomers.main,
      families: ['sales', 'sav'],
    });
    await read('listCustomerCredits', { customerId: demoCustomers.main, page: 1, limit: 20 });
    await read('listCustomerCredits', { customerId: demoCustomers.main, types: ['gift_card'] });
    expect(refused()).toEqual([]);
  });

  it('the sale, invoice, SAV and document screens', async () => {
    await read('getSale', { saleId: demoSales.withInvoice });
    await read('getInvoice', { saleId: demoSales.withInvoice });
    await read('getSav', { savId: demoSav.closed });
    await read('getSavLog', { savId: demoSav.closed, page: 1, limit: 20 });
    await read('findDocument', { number: 'no-such-number-42' });
    expect(refused()).toEqual([]);
  });

  it('the gift-card screen: a card with its (empty) usages', async () => {
    const card = await read('getGiftCard', {
      giftCardId: demoGiftCards.active,
      include: ['usages'],
    });
    expect(card).toBeDefined();
    expect(refused()).toEqual([]);
  });

  it('the catalogue: full sync, change feed, shops, live search and product', async () => {
    const { catalogSync } = fixture.services.parts;
    const full = await catalogSync.sync({ full: true });
    expect(full.fullSync).not.toBeNull();
    const control = fixture.sandbox.control!;
    control.advanceActivity(30);
    control.advanceClock(31_000);
    const feed = await catalogSync.sync({});
    expect(feed.window?.changes).toBeGreaterThan(0);
    await read('listShops', {});
    await read('searchProducts', { text: 'a', fresh: true });
    await read('getProduct', { productId: demoProducts.availableEverywhere, fresh: true });
    expect(refused()).toEqual([]);
  });

  it('reached the service for every route it reads', () => {
    const routes = new Set(replies.filter((reply) => reply.status === 200).map((r) => r.route));
    for (const route of [
      '/v1/customers/search',
      '/v1/customers/:customerId',
      '/v1/customers/:customerId/history',
      '/v1/customers/:customerId/credits',
      '/v1/sales/:saleId',
      '/v1/sales/:saleId/invoice',
      '/v1/sav/:savId',
      '/v1/sav/:savId/log',
      '/v1/gift-cards/:giftCardId',
      '/v1/catalog/products',
      '/v1/catalog/changes',
      '/v1/shops',
    ])
      expect([...routes], route).toContain(route);
  });
});
