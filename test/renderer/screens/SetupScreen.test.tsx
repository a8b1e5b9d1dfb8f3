import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, expect, test } from 'vitest';
import { SetupScreen } from '../../../renderer/screens/SetupScreen.tsx';
import { settings } from '../support/fixtures.ts';
import { fail, ok } from '../support/fake-kiosk.ts';
import { renderKiosk, type RenderedKiosk } from '../support/render-kiosk.tsx';

let rendered: RenderedKiosk | undefined;
afterEach(() => {
  rendered?.stop();
  cleanup();
});

async function typePin(pin: string) {
  const user = userEvent.setup();
  const keypad = screen.getByRole('group', { name: 'Numeric keypad' });
  for (const digit of pin) await user.click(within(keypad).getByRole('button', { name: digit }));
  await user.click(screen.getByRole('button', { name: 'Unlock' }));
  return user;
}

test('a wrong PIN keeps setup locked', async () => {
  rendered = await renderKiosk(<SetupScreen />);
  await typePin('9999');
  expect((await screen.findByRole('alert')).textContent).toBe('Wrong PIN.');
  expect(screen.queryByRole('heading', { name: 'This kiosk' })).toBeNull();
});

test('a locked-out PIN says so in plain words', async () => {
  rendered = await renderKiosk(<SetupScreen />, {
    handlers: {
      checkAdminPin: () =>
        fail({ code: 'ADMIN_PIN_LOCKED', message: 'locked', details: { retryAfterMs: 60_000 } }),
    },
  });
  await typePin('1234');
  const alert = await screen.findByRole('alert');
  expect(alert.textContent).toContain('Too many wrong PINs');
  expect(alert.textContent).toContain('Try again in 1 min.');
});

const noCredentials = { configured: false, backend: null, writable: true, problem: null };

test('unlocked: settings saved with the PIN, language applied, credentials write-only, connection test', async () => {
  rendered = await renderKiosk(<SetupScreen />, {
    handlers: {
      getSettings: () => ok({ settings, adminPinConfigured: true, credentials: noCredentials }),
      updateSettings: (r) =>
        ok({
          settings: { ...settings, ...r.changes },
          adminPinConfigured: true,
          credentials: noCredentials,
        }),
    },
  });
  const user = await typePin('1234');
  await screen.findByRole('heading', { name: 'This kiosk' });

  await user.selectOptions(screen.getByRole('combobox', { name: 'Kiosk’s shop' }), 'shop_lyon');
  await user.click(
    within(screen.getByRole('group', { name: 'Kiosk language' })).getByRole('button', {
      name: 'Français',
    }),
  );
  await user.click(screen.getByRole('button', { name: 'Save' }));
  expect(rendered.kiosk.callsOf('updateSettings')).toEqual([
    { adminPin: '1234', changes: { shopId: 'shop_lyon', locale: 'fr' } },
  ]);
  // The saved language is the screen's language now.
  expect(await screen.findByRole('heading', { level: 1, name: 'Réglages' })).toBeTruthy();
  expect(rendered.stores.availability.getState().shopId).toBe('shop_lyon');

  expect(screen.getByTestId('credentials-status').textContent).toBe(
    'Aucun identifiant enregistré.',
  );
  await user.type(screen.getByLabelText('E-mail du compte'), 'kiosk@example.com');
  await user.type(screen.getByLabelText('Mot de passe du compte'), 's3cret');
  await user.click(screen.getByRole('button', { name: 'Enregistrer les identifiants' }));
  expect(rendered.kiosk.callsOf('setCredentials')).toEqual([
    { adminPin: '1234', email: 'kiosk@example.com', password: 's3cret' },
  ]);
  expect(await screen.findByText('Identifiants enregistrés.')).toBeTruthy();
  expect(screen.getByTestId('credentials-status').textContent).toBe(
    'Les identifiants sont enregistrés (keytar).',
  );
  // Write-only: the fields are emptied and the secret is nowhere on the page.
  expect((screen.getByLabelText('Mot de passe du compte') as HTMLInputElement).value).toBe('');
  expect(document.body.innerHTML).not.toContain('s3cret');

  await user.click(screen.getByRole('button', { name: 'Tester la connexion' }));
  expect((await screen.findByTestId('connection-test')).textContent).toContain(
    'Connecté : le service répond (API 1.0.0).',
  );

  await user.click(screen.getByRole('button', { name: 'Verrouiller les réglages' }));
  expect(screen.getByRole('button', { name: 'Déverrouiller' })).toBeTruthy();
  expect(rendered.stores.setup.getState().unlockedWith).toBeNull();
});
