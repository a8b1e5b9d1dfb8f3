import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, expect, test } from 'vitest';
import { SetupScreen } from '../../../renderer/screens/SetupScreen.tsx';
import type { CredentialStatus } from '../../../shared/ipc/status.ts';
import { ok } from '../support/fake-kiosk.ts';
import { settingsReply, status } from '../support/fixtures.ts';
import { renderKiosk, type RenderedKiosk } from '../support/render-kiosk.tsx';

/**
 * What setup says about the integration account when main refused to use it: a kiosk that has
 * credentials but no API base URL (locked on setup, no demo), and an account that belongs to
 * another API than the one set in setup. Main decides; the screen explains, in both languages.
 */

let rendered: RenderedKiosk | undefined;
afterEach(() => {
  rendered?.stop();
  cleanup();
});

const lockedCredentials: CredentialStatus = {
  configured: true,
  backend: 'file',
  writable: false,
  origin: null,
  problem: { code: 'API_BASE_URL_REQUIRED', message: 'credentials are configured (file)...' },
};

/** Main's replies on a kiosk started locked on setup: no demo, a placeholder service. */
function lockedKiosk(locale: 'en' | 'fr' = 'en') {
  return renderKiosk(<SetupScreen />, {
    locale,
    handlers: {
      getSettings: () =>
        ok(
          settingsReply(
            { locale, apiBaseUrl: 'http://127.0.0.1:0' },
            { credentials: lockedCredentials, sandboxAvailable: false, restartRequired: false },
          ),
        ),
      getStatus: () =>
        ok({
          ...status,
          demo: false,
          apiOrigin: 'http://127.0.0.1:0',
          credentials: lockedCredentials,
        }),
    },
  });
}

async function unlock(user = userEvent.setup()) {
  const keypad = screen.getByRole('group', { name: /keypad|clavier/i });
  for (const digit of '1234') await user.click(within(keypad).getByRole('button', { name: digit }));
  await user.click(screen.getByRole('button', { name: /Unlock|Déverrouiller/ }));
  return user;
}

test('locked on setup: says why before any PIN, in English and French', async () => {
  for (const [locale, title, detail] of [
    ['en', 'No demo: this kiosk has real credentials', 'KIOSK_API_BASE_URL'],
    ['fr', 'Pas de démo : cette borne a de vrais identifiants', 'KIOSK_API_BASE_URL'],
  ] as const) {
    rendered = await lockedKiosk(locale);
    const notice = await screen.findByTestId('setup-required');
    expect(notice.textContent).toContain(title);
    expect(notice.textContent).toContain('(file)');
    expect(notice.textContent).toContain(detail);
    // Still locked: the PIN keypad, not the settings.
    expect(screen.queryByTestId('service-form')).toBeNull();
    rendered.stop();
    cleanup();
  }
  rendered = undefined;
});

test('locked on setup, unlocked: the base URL field starts empty and no service is named', async () => {
  rendered = await lockedKiosk();
  await screen.findByTestId('setup-required');
  await unlock();
  const form = await screen.findByTestId('service-form');
  expect((within(form).getByLabelText('API base URL') as HTMLInputElement).value).toBe('');
  expect(within(form).queryByTestId('service-in-use')).toBeNull();
  expect(form.textContent).not.toContain('127.0.0.1:0');
});

test('an account of another API: setup says whose it is and asks for this one', async () => {
  const otherApi: CredentialStatus = {
    configured: true,
    backend: 'keytar',
    writable: true,
    origin: 'https://old.example.com',
    problem: { code: 'CREDENTIALS_ORIGIN_MISMATCH', message: 'belongs to another API' },
  };
  rendered = await renderKiosk(<SetupScreen />, {
    handlers: {
      getSettings: () =>
        ok(
          settingsReply(
            { apiBaseUrl: 'https://new.example.com/api' },
            { credentials: otherApi, restartRequired: true },
          ),
        ),
    },
  });
  await unlock();
  const notice = await screen.findByTestId('credentials-other-api');
  expect(notice.textContent).toContain('https://old.example.com');
  expect(notice.textContent).toContain('https://new.example.com/api');
  expect(screen.queryByTestId('setup-required')).toBeNull();
});
