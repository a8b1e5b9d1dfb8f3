import { act, cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, expect, test } from 'vitest';
import { App } from '../../renderer/App.tsx';
import { debit, outboxSummary, settingsReply, status } from './support/fixtures.ts';
import { ok } from './support/fake-kiosk.ts';
import { renderKiosk, type RenderedKiosk } from './support/render-kiosk.tsx';

let rendered: RenderedKiosk | undefined;
afterEach(() => {
  rendered?.stop();
  cleanup();
});

test('at start-up the kiosk speaks its settings’ language, not the browser’s', async () => {
  // The page starts in the browser's language (English here); main's settings say French (its
  // default is the system language, unless the settings file says otherwise).
  rendered = await renderKiosk(<App />, {
    locale: 'en',
    handlers: { getSettings: () => ok(settingsReply({ locale: 'fr' })) },
  });
  expect(
    await screen.findByRole('heading', { level: 1, name: 'Disponibilité des produits' }),
  ).toBeTruthy();
  expect(document.documentElement.lang).toBe('fr');
  expect(rendered.stores.locale.getState().locale).toBe('fr');
});

test('switching the language changes every text, the formats and the page language', async () => {
  rendered = await renderKiosk(<App />, {
    handlers: {
      // Open counts the one being sent too: it is not added again.
      getOutboxSummary: () =>
        ok({ ...outboxSummary, openCount: 2, sendingCount: 1, openAmount: 1234.5 }),
    },
  });
  expect(await screen.findByRole('heading', { level: 1 })).toHaveProperty(
    'textContent',
    'Product availability',
  );
  expect((await screen.findByTestId('outbox-indicator')).textContent).toContain(
    'Debits waiting: 2 (€1,234.50)',
  );
  expect(document.documentElement.lang).toBe('en');

  const user = userEvent.setup();
  const languages = screen.getByRole('group', { name: 'Language' });
  await user.click(within(languages).getByRole('button', { name: 'Français' }));

  expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Disponibilité des produits');
  expect(screen.getByRole('navigation', { name: 'Écrans' })).toBeTruthy();
  expect(
    screen.getByTestId('outbox-indicator').textContent?.replace(/[\u202f\u00a0]/g, ' '),
  ).toContain('Débits en attente : 2 (1 234,50 €)');
  expect(document.documentElement.lang).toBe('fr');
  expect(
    within(screen.getByRole('group', { name: 'Langue' }))
      .getByRole('button', { name: 'Français' })
      .getAttribute('aria-pressed'),
  ).toBe('true');

  await user.click(screen.getByRole('button', { name: /Carte cadeau/ }));
  expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Carte cadeau');
  expect(screen.getByLabelText('Numéro de carte (saisir ou scanner)')).toBeTruthy();
});

test('the status bar: demo badge, connectivity from events, a warning when a debit needs attention', async () => {
  rendered = await renderKiosk(<App />, {
    handlers: {
      getOutboxSummary: () =>
        ok({
          ...outboxSummary,
          // Being sent, and counted in openCount: one debit, '1' everywhere (issue 37, 6).
          openCount: 1,
          sendingCount: 1,
          openAmount: 12.5,
          oldestOpenAgeMs: 5 * 60_000,
          attention: { refused: 1, failed: 0, expired: 0, total: 1 },
        }),
      listDebits: (r) =>
        ok({ debits: r.view === 'open' ? [debit({ amount: 12.5, acceptedOffline: true })] : [] }),
    },
  });
  expect((await screen.findByTestId('demo-badge')).textContent).toContain('Demo');
  const indicator = await screen.findByTestId('outbox-indicator');
  expect(indicator.className).toContain('status-warning');
  expect(indicator.textContent).toContain('Debits waiting: 1 (€12.50)');
  expect(indicator.textContent).toContain('oldest 5 min');
  expect(indicator.textContent).toContain('needs attention: 1');
  expect(screen.getByTestId('catalog-as-of').textContent).toMatch(/^Catalogue as of /);
  expect(screen.getByTestId('printer-state').textContent).toBe('kiosk-pdf: ready');
  // A debit kept offline shows in the banner even before connectivity says offline.
  expect((await screen.findByTestId('offline-banner')).textContent).toContain(
    'Gift-card debits kept on this kiosk, not yet confirmed by the service: 1 (€12.50).',
  );

  await act(async () => {
    rendered?.kiosk.emit('connectivityChanged', {
      from: 'online',
      to: 'offline',
      source: 'health',
      detail: 'NETWORK_ERROR',
      at: status.startedAt,
    });
  });
  expect(screen.getByTestId('connectivity').textContent).toContain('Offline');
  const banner = screen.getByTestId('offline-banner');
  expect(banner.textContent).toContain('Offline: the service cannot be reached.');
  expect(banner.textContent).toContain(
    'Still working: product availability from the local catalogue',
  );
  expect(banner.textContent).toContain(
    'Not available until the connection is back: customer lookup',
  );
});

test('every control has an accessible name and a touch-sized class', async () => {
  rendered = await renderKiosk(<App />);
  await screen.findByText('Products found: 2');
  for (const button of screen.getAllByRole('button')) {
    expect(
      button.textContent?.trim() || button.getAttribute('aria-label'),
      button.outerHTML,
    ).toBeTruthy();
  }
  for (const field of [...document.querySelectorAll('input, select')]) {
    expect(
      field.id && document.querySelector(`label[for="${field.id}"]`),
      field.outerHTML,
    ).toBeTruthy();
  }
});
