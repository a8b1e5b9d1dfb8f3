import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, expect, test, vi } from 'vitest';
import { App } from '../../../renderer/App.tsx';
import type { IpcResult } from '../../../shared/ipc/errors.ts';
import { SETUP_IDLE_MS, SetupScreen } from '../../../renderer/screens/SetupScreen.tsx';
import { applyChanges, outboxSummary, settings, settingsReply } from '../support/fixtures.ts';
import { fail, ok } from '../support/fake-kiosk.ts';
import { renderKiosk, type RenderedKiosk } from '../support/render-kiosk.tsx';

let rendered: RenderedKiosk | undefined;
afterEach(() => {
  rendered?.stop();
  cleanup();
  vi.useRealTimers();
});

async function typePin(pin: string, user = userEvent.setup()) {
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

test('a wrong PIN says how many tries are left', async () => {
  rendered = await renderKiosk(<SetupScreen />, {
    handlers: {
      checkAdminPin: () =>
        fail({
          code: 'ADMIN_PIN_INVALID',
          message: 'wrong',
          details: { triesLeft: 2, retryAfterMs: 0, nextTryAt: '2026-03-02T09:00:00.000Z' },
        }),
    },
  });
  await typePin('9999');
  const alert = await screen.findByRole('alert');
  expect(alert.textContent).toContain('Wrong PIN.');
  expect(alert.textContent).toContain('Tries left before setup locks: 2.');
});

test('the wrong PIN that locks setup says when the next try is allowed, in both languages', async () => {
  const nextTryAt = '2026-03-02T09:00:30.000Z';
  const details = { triesLeft: 0, retryAfterMs: 30_000, nextTryAt };
  const clockTime = (tag: string) =>
    new Intl.DateTimeFormat(tag, { timeStyle: 'medium' }).format(new Date(nextTryAt));
  for (const [locale, tag, title, next] of [
    ['en', 'en-IE', 'Wrong PIN.', 'Next try allowed at'],
    ['fr', 'fr-FR', 'Code incorrect.', 'Prochain essai possible à'],
  ] as const) {
    rendered = await renderKiosk(<SetupScreen />, {
      locale,
      handlers: {
        checkAdminPin: () => fail({ code: 'ADMIN_PIN_INVALID', message: 'wrong', details }),
      },
    });
    const setup = rendered.stores.setup.getState();
    setup.setPinEntry('9999');
    await act(() => setup.unlock());
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(title);
    expect(alert.textContent).toContain(`${next} ${clockTime(tag)}.`);
    rendered.stop();
    cleanup();
  }
});

test('a locked-out PIN after a restart of main says when the next try is allowed', async () => {
  const nextTryAt = '2026-03-02T09:14:05.000Z';
  rendered = await renderKiosk(<SetupScreen />, {
    handlers: {
      checkAdminPin: () =>
        fail({
          code: 'ADMIN_PIN_LOCKED',
          message: 'locked',
          details: { triesLeft: 0, retryAfterMs: 845_000, nextTryAt },
        }),
    },
  });
  await typePin('1234');
  const alert = await screen.findByRole('alert');
  expect(alert.textContent).toContain('Too many wrong PINs');
  expect(alert.textContent).toContain(
    `Next try allowed at ${new Intl.DateTimeFormat('en-IE', { timeStyle: 'medium' }).format(new Date(nextTryAt))}.`,
  );
});

test('a PIN try that main cannot record keeps setup locked, saying why', async () => {
  rendered = await renderKiosk(<SetupScreen />, {
    handlers: {
      checkAdminPin: () => fail({ code: 'ADMIN_PIN_UNAVAILABLE', message: 'disk full' }),
    },
  });
  await typePin('1234');
  expect((await screen.findByRole('alert')).textContent).toContain(
    'The kiosk cannot record PIN tries right now',
  );
  expect(screen.queryByRole('heading', { name: 'This kiosk' })).toBeNull();
});

test('setup locks itself after 2 minutes without a touch, and forgets a PIN half typed', async () => {
  // Fake time also follows real time: Testing Library waits on a timer of its own.
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'], shouldAdvanceTime: true });
  const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
  rendered = await renderKiosk(<SetupScreen />);
  await typePin('1234', user);
  await screen.findByRole('heading', { name: 'This kiosk' });

  // Each touch starts the two minutes again.
  await act(() => vi.advanceTimersByTimeAsync(SETUP_IDLE_MS - 30_000));
  await user.click(screen.getByRole('heading', { level: 1, name: 'Setup' }));
  await act(() => vi.advanceTimersByTimeAsync(SETUP_IDLE_MS - 30_000));
  expect(rendered.stores.setup.getState().unlockedWith).toBe('1234');
  expect(screen.getByRole('heading', { name: 'This kiosk' })).toBeTruthy();

  await act(() => vi.advanceTimersByTimeAsync(30_000));
  expect(rendered.stores.setup.getState().unlockedWith).toBeNull();
  expect(screen.getByRole('button', { name: 'Unlock' })).toBeTruthy();
  expect(screen.getByRole('status').textContent).toBe(
    'Setup locked itself after 2 mins without use.',
  );

  // A PIN typed but not sent is not left on the keypad either.
  const keypad = screen.getByRole('group', { name: 'Numeric keypad' });
  for (const digit of '12') await user.click(within(keypad).getByRole('button', { name: digit }));
  expect(rendered.stores.setup.getState().pinEntry).toBe('12');
  expect(screen.queryByRole('status')).toBeNull();
  await act(() => vi.advanceTimersByTimeAsync(SETUP_IDLE_MS));
  expect(rendered.stores.setup.getState().pinEntry).toBe('');
});

test('setup locks again when staff leave it', async () => {
  rendered = await renderKiosk(<App />);
  const user = userEvent.setup();
  const nav = screen.getByRole('navigation', { name: 'Screens' });
  await user.click(within(nav).getByRole('button', { name: 'Setup' }));
  await typePin('1234', user);
  await screen.findByRole('heading', { name: 'This kiosk' });

  await user.click(within(nav).getByRole('button', { name: 'Availability' }));
  expect(rendered.stores.setup.getState().unlockedWith).toBeNull();
  await user.click(within(nav).getByRole('button', { name: 'Setup' }));
  expect(screen.getByRole('button', { name: 'Unlock' })).toBeTruthy();
  expect(screen.queryByRole('heading', { name: 'This kiosk' })).toBeNull();
});

test('a PIN check answered after setup was left opens nothing', async () => {
  let answer: (value: IpcResult<{ valid: boolean }>) => void = () => undefined;
  rendered = await renderKiosk(<SetupScreen />, {
    handlers: {
      checkAdminPin: () =>
        new Promise((resolve) => {
          answer = resolve;
        }),
    },
  });
  await typePin('1234');
  act(() => rendered!.stores.setup.getState().lock());
  await act(async () => answer(ok({ valid: true })));
  expect(rendered.stores.setup.getState().unlockedWith).toBeNull();
  expect(rendered.stores.setup.getState().checkingPin).toBe(false);
});

const noCredentials = { configured: false, backend: null, writable: true, problem: null };

test('idle return, scanner timing and the on-screen keyboard: checked as typed, saved with the PIN', async () => {
  rendered = await renderKiosk(<SetupScreen />, {
    handlers: {
      updateSettings: (r) => ok(settingsReply(applyChanges(settings, r.changes))),
    },
  });
  const user = await typePin('1234');
  await screen.findByRole('heading', { name: 'This kiosk' });
  const idle = screen.getByLabelText(
    'Back to the start screen after this many seconds untouched (0: never)',
  );
  const save = screen.getByRole('button', { name: 'Save' });
  await user.clear(idle);
  await user.type(idle, '10');
  // Under 30 s (and not 0) would pull the screen from under a customer being served.
  expect(idle.getAttribute('aria-invalid')).toBe('true');
  expect(save).toHaveProperty('disabled', true);
  await user.clear(idle);
  await user.type(idle, '120');
  await user.click(
    within(screen.getByRole('group', { name: 'On-screen keyboard' })).getByRole('button', {
      name: 'Always',
    }),
  );
  await user.click(save);
  expect(rendered.kiosk.callsOf('updateSettings')).toEqual([
    { adminPin: '1234', changes: { idleReturnSeconds: 120, onScreenKeyboard: 'on' } },
  ]);
});

test('provisioned credentials are shown as they are: no field to edit, no Save that cannot work', async () => {
  rendered = await renderKiosk(<SetupScreen />, {
    handlers: {
      getSettings: () =>
        ok(
          settingsReply(
            {},
            { credentials: { configured: true, backend: 'file', writable: false, problem: null } },
          ),
        ),
    },
  });
  await typePin('1234');
  await screen.findByRole('heading', { name: 'This kiosk' });
  expect(screen.getByTestId('credentials-status').textContent).toBe(
    'Credentials are stored (file).',
  );
  expect(screen.getByTestId('credentials-read-only').textContent).toContain('provisioned');
  expect(screen.queryByLabelText('Account e-mail')).toBeNull();
  expect(screen.queryByLabelText('Account password')).toBeNull();
  expect(screen.queryByRole('button', { name: 'Save credentials' })).toBeNull();
});

test('unlocked: settings saved with the PIN, language applied, credentials write-only, connection test', async () => {
  rendered = await renderKiosk(<SetupScreen />, {
    handlers: {
      getSettings: () => ok(settingsReply({}, { credentials: noCredentials })),
      updateSettings: (r) =>
        ok(settingsReply(applyChanges(settings, r.changes), { credentials: noCredentials })),
    },
  });
  const user = await typePin('1234');
  await screen.findByRole('heading', { name: 'This kiosk' });

  await user.selectOptions(screen.getByRole('combobox', { name: 'Kiosk’s shop' }), 'shop_lyon');
  await user.click(
    within(screen.getByRole('group', { name: 'Language the kiosk starts in' })).getByRole(
      'button',
      {
        name: 'Français',
      },
    ),
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

test('the service: the demo sandbox or an http(s) base URL, saved for the next start', async () => {
  let saved = settings;
  rendered = await renderKiosk(<SetupScreen />, {
    handlers: {
      getSettings: () => ok(settingsReply(saved)),
      updateSettings: (r) => {
        saved = applyChanges(saved, r.changes);
        return ok(settingsReply(saved));
      },
    },
  });
  const user = await typePin('1234');
  const form = await screen.findByTestId('service-form');
  expect(within(form).getByTestId('service-in-use').textContent).toBe(
    'Demo sandbox, built into the kiosk (http://127.0.0.1:4010)',
  );
  const choice = within(form).getByRole('group', { name: 'Service to use' });
  expect(
    within(choice).getByRole('button', { name: 'Demo sandbox' }).getAttribute('aria-pressed'),
  ).toBe('true');
  const save = within(form).getByRole('button', { name: 'Save service' });
  expect((save as HTMLButtonElement).disabled).toBe(true);

  await user.click(within(choice).getByRole('button', { name: 'Commerce API at an address' }));
  const url = within(form).getByLabelText('API base URL');
  await user.type(url, 'ftp://commerce.example.com');
  expect(url.getAttribute('aria-invalid')).toBe('true');
  expect(form.textContent).toContain(
    'Enter an address starting with https:// (http:// only for this computer',
  );
  expect((save as HTMLButtonElement).disabled).toBe(true);

  await user.clear(url);
  await user.type(url, 'https://commerce.example.com/api');
  expect(url.getAttribute('aria-invalid')).toBe('false');
  expect(form.textContent).toContain('takes effect the next time the kiosk starts');
  await user.click(save);
  expect(rendered.kiosk.callsOf('updateSettings')).toEqual([
    { adminPin: '1234', changes: { apiBaseUrl: 'https://commerce.example.com/api' } },
  ]);
  expect((await within(form).findByTestId('restart-required')).textContent).toBe(
    'Saved: the kiosk will use https://commerce.example.com/api from its next start.',
  );
  // This run still shows the service in use.
  expect(within(form).getByTestId('service-in-use').textContent).toContain('Demo sandbox');

  // And back to the sandbox: nothing left to restart for.
  await user.click(within(choice).getByRole('button', { name: 'Demo sandbox' }));
  await user.click(save);
  expect(rendered.kiosk.callsOf('updateSettings').at(-1)).toEqual({
    adminPin: '1234',
    changes: { apiBaseUrl: null },
  });
  await waitFor(() => expect(within(form).queryByTestId('restart-required')).toBeNull());
});

test('the offline limits: edited in euros, a count and hours; only the changed ones are sent', async () => {
  let saved = settings;
  rendered = await renderKiosk(<SetupScreen />, {
    handlers: {
      getSettings: () => ok(settingsReply(saved)),
      updateSettings: (r) => {
        saved = applyChanges(saved, r.changes);
        return ok(settingsReply(saved));
      },
      getOutboxSummary: () => ok({ ...outboxSummary, limits: saved.offlineLimits }),
    },
  });
  const user = await typePin('1234');
  const form = await screen.findByTestId('limits-form');
  const perDebit = within(form).getByLabelText('Largest debit while offline (€)');
  const maxAge = within(form).getByLabelText('Longest wait before a debit expires (hours)');
  expect((perDebit as HTMLInputElement).value).toBe('150');
  expect((maxAge as HTMLInputElement).value).toBe('72');
  const save = within(form).getByRole('button', { name: 'Save limits' });
  expect((save as HTMLButtonElement).disabled).toBe(true);

  await user.clear(perDebit);
  await user.type(perDebit, '12,345');
  expect(perDebit.getAttribute('aria-invalid')).toBe('true');
  expect(form.textContent).toContain('Enter an amount in euros, two decimals at most');
  expect((save as HTMLButtonElement).disabled).toBe(true);

  await user.clear(perDebit);
  await user.type(perDebit, '80,5');
  await user.clear(maxAge);
  await user.type(maxAge, '24');
  await user.click(save);
  expect(rendered.kiosk.callsOf('updateSettings')).toEqual([
    {
      adminPin: '1234',
      changes: { offlineLimits: { maxOfflineDebitAmount: 80.5, maxAgeMs: 24 * 3_600_000 } },
    },
  ]);
  expect(await screen.findByText('Settings saved.')).toBeTruthy();
  // Main applied them to the outbox at once: its summary, read again, shows them.
  await waitFor(() =>
    expect(within(form).getByTestId('offline-limits').textContent).toContain(
      'At most €80.50 per debit while offline',
    ),
  );
  // Saved: nothing left to send (the French comma was the same 80.50).
  expect((save as HTMLButtonElement).disabled).toBe(true);
  expect(form.textContent).toContain('New limits apply from the next gift-card debit');
});

test('a language switched from the status bar is said beside the language the kiosk starts in', async () => {
  rendered = await renderKiosk(<SetupScreen />, {
    handlers: { getSettings: () => ok(settingsReply({ locale: 'en' })) },
  });
  await typePin('1234');
  await screen.findByRole('heading', { name: 'This kiosk' });
  expect(screen.queryByTestId('session-language')).toBeNull();
  await act(async () => rendered!.stores.locale.getState().setLocale('fr'));
  expect(screen.getByTestId('session-language').textContent).toBe(
    'Langue de cette session (choisie depuis la barre d’état) : Français. La borne démarre dans la langue choisie ici.',
  );
  expect(
    within(screen.getByRole('group', { name: 'Langue de la borne au démarrage' }))
      .getByRole('button', { name: 'English' })
      .getAttribute('aria-pressed'),
  ).toBe('true');
});
