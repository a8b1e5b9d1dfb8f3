import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, expect, test } from 'vitest';
import { App } from '../../../renderer/App.tsx';
import { settingsReply, status } from '../support/fixtures.ts';
import { ok } from '../support/fake-kiosk.ts';
import { renderKiosk, type RenderedKiosk } from '../support/render-kiosk.tsx';

/** A touch-only kiosk types with the keyboard on its screen, into the field that has the focus. */

let rendered: RenderedKiosk | undefined;
afterEach(() => {
  rendered?.stop();
  cleanup();
});

async function customersWith(
  keyboard: 'auto' | 'on' | 'off',
  host: 'electron' | 'browser',
  locale: 'en' | 'fr' = 'en',
) {
  rendered = await renderKiosk(<App />, {
    locale,
    handlers: {
      getSettings: () => ok(settingsReply({ onScreenKeyboard: keyboard, locale })),
      getStatus: () => ok({ ...status, host }),
    },
  });
  rendered.stores.navigation.getState().go('customers');
  return userEvent.setup();
}

test('an e-mail field gets the e-mail layout; keys type into it and Enter searches', async () => {
  const user = await customersWith('on', 'browser');
  const field = await screen.findByLabelText('E-mail address (exact)');
  await user.click(field);
  const keyboard = await screen.findByTestId('on-screen-keyboard');
  expect(keyboard.dataset['layout']).toBe('email');
  for (const key of ['j', 'o', '@', 'x', '.com']) {
    await user.click(within(keyboard).getByRole('button', { name: key }));
  }
  await user.click(within(keyboard).getByRole('button', { name: 'Capital letter' }));
  await user.click(within(keyboard).getByRole('button', { name: 'A' }));
  await user.click(within(keyboard).getByRole('button', { name: 'Delete' }));
  expect(field).toHaveProperty('value', 'jo@x.com');
  // The field kept the focus all along: its caret is where staff left it.
  expect(document.activeElement).toBe(field);
  await user.click(within(keyboard).getByRole('button', { name: 'Enter' }));
  expect(rendered!.kiosk.callsOf('searchCustomers')).toEqual([{ email: 'jo@x.com', limit: 20 }]);
});

test('in French the letters are AZERTY; in English QWERTY', async () => {
  const user = await customersWith('on', 'browser', 'fr');
  await user.click(await screen.findByLabelText('Adresse e-mail (exacte)'));
  const keyboard = await screen.findByTestId('on-screen-keyboard');
  const rows = keyboard.querySelectorAll('.osk-row');
  expect(
    [...rows[1]!.querySelectorAll('button')]
      .slice(0, 6)
      .map((b) => b.textContent)
      .join(''),
  ).toBe('azerty');
  cleanup();
  rendered?.stop();
  const english = await customersWith('on', 'browser', 'en');
  await english.click(await screen.findByLabelText('E-mail address (exact)'));
  const qwerty = (await screen.findByTestId('on-screen-keyboard')).querySelectorAll('.osk-row');
  expect(
    [...qwerty[1]!.querySelectorAll('button')]
      .slice(0, 6)
      .map((b) => b.textContent)
      .join(''),
  ).toBe('qwerty');
});

test('auto: in the Electron kiosk window, not in a desktop browser; off: never', async () => {
  let user = await customersWith('auto', 'electron');
  await user.click(await screen.findByLabelText('E-mail address (exact)'));
  expect(await screen.findByTestId('on-screen-keyboard')).toBeTruthy();
  cleanup();
  rendered?.stop();
  for (const [keyboard, host] of [
    ['auto', 'browser'],
    ['off', 'electron'],
  ] as const) {
    user = await customersWith(keyboard, host);
    await user.click(await screen.findByLabelText('E-mail address (exact)'));
    expect(screen.queryByTestId('on-screen-keyboard')).toBeNull();
    cleanup();
    rendered?.stop();
  }
});
