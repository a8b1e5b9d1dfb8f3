import { act, cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, expect, test } from 'vitest';
import { DocumentsScreen } from '../../../renderer/screens/DocumentsScreen.tsx';
import { debit, printJob } from '../support/fixtures.ts';
import { ok } from '../support/fake-kiosk.ts';
import { renderKiosk, type RenderedKiosk } from '../support/render-kiosk.tsx';

let rendered: RenderedKiosk | undefined;
afterEach(() => {
  rendered?.stop();
  cleanup();
});

test('the day report prints through main in the kiosk’s language, and its job is followed', async () => {
  const refused = debit({ id: 7, state: 'refused', reference: 'sale-42/0123456789abcdef' });
  rendered = await renderKiosk(<DocumentsScreen />, {
    locale: 'fr',
    handlers: {
      getDayReport: (request) => ok({ date: request.date, debits: [refused] }),
      printDayReport: (request) =>
        ok(printJob({ id: 'job-day', kind: 'day-report', reference: request.date })),
    },
  });
  const user = userEvent.setup();
  const report = screen.getByTestId('day-report');
  // Nothing to print before a report is on screen.
  expect(within(report).queryByRole('button', { name: 'Imprimer ce rapport' })).toBeNull();
  const day = within(report).getByLabelText('Jour');
  await user.clear(day);
  await user.type(day, '2026-03-14');
  await user.click(within(report).getByRole('button', { name: 'Afficher' }));
  await within(report).findByTestId('day-report-row');

  await user.click(within(report).getByRole('button', { name: 'Imprimer ce rapport' }));
  const [call] = rendered.kiosk.callsOf('printDayReport');
  expect(call).toMatchObject({
    date: '2026-03-14',
    labels: {
      locale: 'fr-FR',
      title: 'Rapport de fin de journée : débits de cartes cadeaux',
      offline: 'pris hors ligne',
      states: { refused: 'Refusé' },
      methods: { card: 'Carte bancaire' },
    },
  });
  expect(call).not.toHaveProperty('printer');

  const job = await within(report).findByTestId('print-job');
  expect(job.dataset['state']).toBe('queued');
  await act(async () => {
    rendered?.kiosk.emit(
      'printJobChanged',
      printJob({
        id: 'job-day',
        kind: 'day-report',
        reference: '2026-03-14',
        state: 'completed',
        updatedAt: '2026-03-14T10:00:02.000Z',
      }),
    );
  });
  expect(within(report).getByTestId('print-job').dataset['state']).toBe('completed');
});

test('the day report on screen: the day as French writes it, column headers, totals, no internal ids', async () => {
  const refused = debit({
    id: 7,
    state: 'refused',
    amount: 20,
    reference: 'sale-42/0123456789abcdef',
    maskedNumber: null,
  });
  const applied = debit({
    id: 8,
    state: 'applied',
    amount: 0.1,
    reference: 'kiosk/fedcba9876543210',
  });
  const applied2 = debit({ id: 9, state: 'applied', amount: 0.2, maskedNumber: '**** 9088' });
  rendered = await renderKiosk(<DocumentsScreen />, {
    locale: 'fr',
    handlers: {
      getDayReport: (request) => ok({ date: request.date, debits: [refused, applied, applied2] }),
    },
  });
  const user = userEvent.setup();
  const report = screen.getByTestId('day-report');
  const day = within(report).getByLabelText('Jour');
  // A day that does not exist is refused in words, and nothing is asked.
  await user.clear(day);
  await user.type(day, '31/02/2026');
  await user.click(within(report).getByRole('button', { name: 'Afficher' }));
  expect(within(report).getByRole('alert').textContent).toContain('jj/mm/aaaa');
  expect(rendered.kiosk.callsOf('getDayReport')).toEqual([]);

  await user.clear(day);
  await user.type(day, '14/03/2026');
  await user.click(within(report).getByRole('button', { name: 'Afficher' }));
  await user.click(within(report).getByRole('button', { name: 'Jour précédent' }));
  expect(rendered.kiosk.callsOf('getDayReport')).toEqual([
    { date: '2026-03-14' },
    { date: '2026-03-13' },
  ]);
  expect((day as HTMLInputElement).value).toBe('13/03/2026');

  await within(report).findAllByTestId('day-report-row');
  expect(
    within(report)
      .getAllByRole('columnheader')
      .map((cell) => cell.textContent),
  ).toEqual(['Heure', 'Montant', 'Carte', 'Vente', 'État', 'Hors ligne', 'Règlement']);
  const [first, second, third] = within(report).getAllByTestId('day-report-row');
  expect(first!.textContent).toContain('jamais lue sur cette borne');
  expect(first!.textContent).toContain('sale-42');
  expect(first!.textContent).not.toContain('0123456789abcdef');
  expect(second!.textContent).toContain('non indiquée');
  expect(third!.textContent).toContain('**** 9088');
  // Totals by state, applied and refused never added together; 0,10 + 0,20 is 0,30.
  const totals = within(report).getAllByTestId('day-report-total');
  expect(totals.map((row) => row.dataset['state'])).toEqual(['applied', 'refused']);
  expect(totals[0]!.textContent).toMatch(/Débits : 2.*0,30\s€/);
  expect(totals[1]!.textContent).toMatch(/Débits : 1.*20,00\s€/);
});
