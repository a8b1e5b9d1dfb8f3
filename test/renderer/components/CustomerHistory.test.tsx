import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, expect, test } from 'vitest';
import { CustomerHistory } from '../../../renderer/components/CustomerHistory.tsx';
import { asView } from '../support/fixtures.ts';
import { renderKiosk, type RenderedKiosk } from '../support/render-kiosk.tsx';

let rendered: RenderedKiosk | undefined;
afterEach(() => {
  rendered?.stop();
  cleanup();
});

const entry = (uuid: string, number: string, date: string | null) => ({
  uuid,
  number,
  ...(date === null ? {} : { date }),
  status: 'completed',
  totalInclTax: 10,
  currency: 'EUR',
});

test('sales and cases are listed newest first, whatever order the service gives; undated ones last', async () => {
  // The sandbox lists oldest first, as many services do.
  const history = asView('customerHistory', {
    sales: [
      entry('sale_old', 'V-2024-000001', '2024-02-01T10:00:00.000Z'),
      entry('sale_undated', 'V-0000-000000', null),
      entry('sale_new', 'V-2026-000003', '2026-03-01T10:00:00.000Z'),
      entry('sale_mid', 'V-2025-000002', '2025-06-01T10:00:00.000Z'),
    ],
    sav: [
      entry('sav_old', 'SAV-2024-00001', '2024-05-01T10:00:00.000Z'),
      entry('sav_new', 'SAV-2026-00002', '2026-01-01T10:00:00.000Z'),
    ],
  });
  rendered = await renderKiosk(
    <CustomerHistory
      history={history}
      historyError={null}
      credits={[]}
      creditsError={null}
      savLog={null}
      sale={null}
      onPrint={() => {}}
      onReadLog={() => {}}
      onCloseLog={() => {}}
      onOpenSale={() => {}}
      onCloseSale={() => {}}
    />,
  );
  const numbers = (testId: string) =>
    within(screen.getByTestId(testId))
      .getAllByRole('listitem')
      .map((item) => /No\. (\S+)/.exec(item.textContent ?? '')?.[1]);
  expect(numbers('history-sales')).toEqual([
    'V-2026-000003',
    'V-2025-000002',
    'V-2024-000001',
    'V-0000-000000',
  ]);
  expect(numbers('history-sav')).toEqual(['SAV-2026-00002', 'SAV-2024-00001']);
});

test('Print invoice sits in the row of a sale known to have one, and prints that sale', async () => {
  const history = asView('customerHistory', {
    sales: [
      entry('sale_billed', 'V-2026-000010', '2026-03-01T10:00:00.000Z'),
      entry('sale_unbilled', 'V-2026-000011', '2026-03-02T10:00:00.000Z'),
      entry('sale_unread', 'V-2026-000012', '2026-03-03T10:00:00.000Z'),
    ],
  });
  const printed: unknown[] = [];
  rendered = await renderKiosk(
    <CustomerHistory
      history={history}
      historyError={null}
      credits={[]}
      creditsError={null}
      savLog={null}
      sale={null}
      invoices={{ sale_billed: true, sale_unbilled: false }}
      onPrint={(document) => printed.push(document)}
      onReadLog={() => {}}
      onCloseLog={() => {}}
      onOpenSale={() => {}}
      onCloseSale={() => {}}
    />,
  );
  const sales = screen.getByTestId('history-sales');
  expect(
    within(sales)
      .getAllByRole('button', { name: /^Print invoice of sale/ })
      .map((button) => button.getAttribute('aria-label')),
  ).toEqual(['Print invoice of sale V-2026-000010']);
  await userEvent
    .setup()
    .click(within(sales).getByRole('button', { name: 'Print invoice of sale V-2026-000010' }));
  expect(printed).toEqual([{ kind: 'invoice', reference: 'sale_billed', number: 'V-2026-000010' }]);
});
