import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, expect, test } from 'vitest';
import type { DebitView } from '../../../shared/ipc/gift-cards.ts';
import { App } from '../../../renderer/App.tsx';
import { debit, outboxSummary } from '../support/fixtures.ts';
import { ok } from '../support/fake-kiosk.ts';
import { renderKiosk, type RenderedKiosk } from '../support/render-kiosk.tsx';

let rendered: RenderedKiosk | undefined;
afterEach(() => {
  rendered?.stop();
  cleanup();
});

const refused = debit({
  id: 7,
  giftCardId: 'gift_card_44a4a857-b84c-4793-aded-875bcf6df2a6',
  amount: 20,
  reference: 'sale-42/0123456789abcdef',
  acceptedOffline: true,
  state: 'refused',
  attempts: 1,
  lastError: { code: 'INSUFFICIENT_BALANCE', message: 'balance too low' },
  needsAttention: true,
});

function withAttention(initial: DebitView[]) {
  let attention = initial;
  return {
    getOutboxSummary: () => ok(outboxSummary),
    listDebits: (request: { view: string }) =>
      ok({ debits: request.view === 'attention' ? attention : [] }),
    resolveDebit: (request: { debitId: number }) => {
      attention = attention.filter((entry) => entry.id !== request.debitId);
      return ok({ ...refused, needsAttention: false, acknowledged: true });
    },
  };
}

test('a debit refused after the fact stays in red on every screen until resolved another way', async () => {
  rendered = await renderKiosk(<App />, { handlers: withAttention([refused]) });
  const alert = await screen.findByTestId('attention-alert');
  expect(alert.getAttribute('role')).toBe('alert');
  expect(alert.textContent).toContain('€20.00');
  // Never read on this kiosk: said so, never the end of the internal id, which looks like digits.
  expect(alert.textContent).toContain('card not read on this kiosk');
  expect(alert.textContent).not.toContain('f2a6');
  expect(alert.textContent).toContain('sale sale-42 ·');
  expect(alert.textContent).toMatch(/Reason: .*balance/i);

  const user = userEvent.setup();
  await user.click(screen.getByRole('button', { name: /Customers/ }));
  const stillThere = screen.getByTestId('attention-alert');

  // No method chosen beforehand: "collected another way" cannot record a method nobody gave.
  for (const method of ['Cash', 'Bank card', 'Other'])
    expect(
      (within(stillThere).getByRole('radio', { name: method }) as HTMLInputElement).checked,
    ).toBe(false);
  const collected = within(stillThere).getByRole('button', { name: 'Collected another way' });
  expect((collected as HTMLButtonElement).disabled).toBe(true);
  await user.click(collected);
  expect(rendered.kiosk.callsOf('resolveDebit')).toEqual([]);
  await user.click(within(stillThere).getByRole('radio', { name: 'Bank card' }));
  await user.click(collected);
  expect(rendered.kiosk.callsOf('resolveDebit')).toEqual([
    { debitId: 7, resolution: { kind: 'collected_other_way', method: 'card' } },
  ]);
  await waitFor(() => expect(screen.queryByTestId('attention-alert')).toBeNull());
});

test('"could not collect" is recorded too; the masked number is shown when main knows it', async () => {
  rendered = await renderKiosk(<App />, {
    locale: 'fr',
    handlers: withAttention([{ ...refused, maskedNumber: '**** 9088' }]),
  });
  const alert = await screen.findByTestId('attention-alert');
  expect(alert.textContent).toContain('carte **** 9088');
  await userEvent
    .setup()
    .click(within(alert).getByRole('button', { name: 'Impossible à encaisser' }));
  expect(rendered.kiosk.callsOf('resolveDebit')).toEqual([
    { debitId: 7, resolution: { kind: 'could_not_collect' } },
  ]);
  await waitFor(() => expect(screen.queryByTestId('attention-alert')).toBeNull());
});

test('the end-of-day report lists the day’s debits: state, offline mark, resolution', async () => {
  const resolved = {
    ...refused,
    needsAttention: false,
    acknowledged: true,
    staffResolution: {
      kind: 'collected_other_way' as const,
      method: 'cash' as const,
      at: '2026-03-14T18:00:00.000Z',
    },
  };
  const applied = debit({ id: 8, state: 'applied', reference: 'sale-43/fedcba9876543210' });
  rendered = await renderKiosk(<App />, {
    handlers: {
      getDayReport: (request) => ok({ date: request.date, debits: [resolved, applied] }),
    },
  });
  const user = userEvent.setup();
  await user.click(screen.getByRole('button', { name: /Documents/ }));
  const report = screen.getByTestId('day-report');
  const day = within(report).getByLabelText('Day');
  await user.clear(day);
  await user.type(day, '2026-03-14');
  await user.click(within(report).getByRole('button', { name: 'Show' }));
  expect(rendered.kiosk.callsOf('getDayReport')).toEqual([{ date: '2026-03-14' }]);
  const rows = await within(report).findAllByTestId('day-report-row');
  expect(rows.map((row) => row.dataset.state)).toEqual(['refused', 'applied']);
  expect(rows[0]!.textContent).toContain('sale-42');
  expect(rows[0]!.textContent).toContain('taken offline');
  expect(rows[0]!.textContent).toContain('Collected another way · Cash');
  expect(rows[1]!.textContent).not.toContain('taken offline');
});
