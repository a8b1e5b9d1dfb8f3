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
