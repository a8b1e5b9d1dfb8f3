import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, expect, test } from 'vitest';
import { SaleDetail } from '../../../renderer/components/SaleDetail.tsx';
import { asView } from '../support/fixtures.ts';
import { renderKiosk, type RenderedKiosk } from '../support/render-kiosk.tsx';

/** A sale from a service whose records the profile only partly finds: shown, never broken. */

let rendered: RenderedKiosk | undefined;
afterEach(() => {
  rendered?.stop();
  cleanup();
});

test('values the profile cannot find read "not provided by the service"; the rest is listed', async () => {
  // Shaped another way than the default profile expects: no totals, lines under `items`.
  const sale = asView('sale', {
    uuid: 'sale_1',
    reference: 'V-2026-001',
    grandTotal: 499.9,
    items: [{ name: 'Lave-linge', qty: 1, lineTotal: 499.9 }],
    cashier: 'Anne',
  });
  expect(sale).toMatchObject({ total: null, lines: null, hasInvoice: null });
  rendered = await renderKiosk(
    <SaleDetail
      view={{ saleId: 'sale_1', sale, error: null }}
      number="V-2026-001"
      onPrint={() => {}}
    />,
  );
  const detail = screen.getByTestId('sale-detail');
  expect(detail.textContent).toContain('Total not provided by the service');
  // Whether it has an invoice is not said: printing is offered, the invoice route decides.
  expect(within(detail).getByRole('button', { name: /invoice/i })).toBeTruthy();
  const others = within(detail).getByTestId('other-fields');
  expect(others.tagName).toBe('DETAILS');
  expect(others.textContent).toContain('grandTotal');
  expect(others.textContent).toContain('cashier');
  expect(others.textContent).toContain('Anne');
});

test('in French too', async () => {
  const sale = asView('sale', { uuid: 'sale_1', amountPaid: 10 });
  rendered = await renderKiosk(
    <SaleDetail view={{ saleId: 'sale_1', sale, error: null }} number="V-1" onPrint={() => {}} />,
    { locale: 'fr' },
  );
  expect(screen.getByTestId('sale-detail').textContent).toContain('non fourni par le service');
});

test('the gift card a sale was paid with can be used; the credit note cannot', async () => {
  const sale = asView('sale', {
    uuid: 'sale_1',
    number: 'V-2026-002',
    creditsUsed: [
      { creditId: 'credit_note_1', type: 'credit_note', amount: 20, currency: 'EUR' },
      { creditId: 'gift_card_1', type: 'gift_card', amount: 35.5, currency: 'EUR' },
    ],
  });
  // Main names no card for a credit note (the profile's gift-card words decide).
  const credits = (sale.credits ?? []).map((credit) =>
    credit.type === 'gift_card' ? credit : { ...credit, giftCardId: null },
  );
  const used: string[] = [];
  rendered = await renderKiosk(
    <SaleDetail
      view={{ saleId: 'sale_1', sale: { ...sale, credits }, error: null }}
      number="V-2026-002"
      onPrint={() => {}}
      onUseCard={(id) => used.push(id)}
    />,
  );
  const list = screen.getByTestId('sale-credits');
  expect(
    within(list)
      .getAllByRole('listitem')
      .map((item) => item.textContent),
  ).toEqual(['credit_note: €20.00', 'Gift card: €35.50Use this card']);
  within(list).getByRole('button', { name: 'Use this card: Gift card' }).click();
  expect(used).toEqual(['gift_card_1']);
});
