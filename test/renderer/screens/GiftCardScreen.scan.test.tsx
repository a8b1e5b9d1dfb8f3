import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, expect, test } from 'vitest';
import { GiftCardScreen } from '../../../renderer/screens/GiftCardScreen.tsx';
import { serviceCard } from '../support/fixtures.ts';
import { fail, ok } from '../support/fake-kiosk.ts';
import { renderKiosk, type RenderedKiosk } from '../support/render-kiosk.tsx';

let rendered: RenderedKiosk | undefined;
afterEach(() => {
  rendered?.stores.giftCard.getState().clear();
  rendered?.stop();
  cleanup();
  window.sessionStorage.clear();
  window.localStorage.clear();
});

test('a scan ends with Enter and is looked up as a code; digits typed next are the amount; another code replaces it', async () => {
  rendered = await renderKiosk(<GiftCardScreen />, {
    handlers: {
      getGiftCard: (request) =>
        'code' in request && request.code === 'GC-2'
          ? ok(serviceCard({ id: 'gift_card_2', maskedNumber: '**** 0002' }))
          : ok(serviceCard({ id: 'gift_card_1', maskedNumber: '**** 0001' })),
    },
  });
  const field = screen.getByLabelText<HTMLInputElement>('Card number (type or scan)');
  expect(field.getAttribute('aria-describedby')).toBeTruthy();
  expect(document.getElementById(field.getAttribute('aria-describedby')!)?.textContent).toContain(
    'as printed on the card, or scan its barcode',
  );
  // The screen opens ready for a scanner: the field has the focus.
  expect(document.activeElement).toBe(field);

  // A keyboard-wedge scanner: the characters, then Enter; nobody touches the screen.
  const user = userEvent.setup();
  await user.keyboard('GC-1{Enter}');
  await screen.findByText('Card **** 0001');
  expect(rendered.kiosk.callsOf('getGiftCard')).toEqual([{ code: 'GC-1' }]);
  // Found: the focus is on the amount, so digits typed next are the amount, never the card (a
  // scan is caught before any field by the kiosk's scanner: test/e2e/scanner.spec.ts).
  const amount = screen.getByLabelText<HTMLInputElement>('Amount to debit');
  await waitFor(() => expect(document.activeElement).toBe(amount));
  await user.keyboard('7');
  expect(amount.value).toBe('7');
  expect(field.value).toBe('GC-1');

  await user.clear(field);
  await user.type(field, 'GC-2{Enter}');
  await screen.findByText('Card **** 0002');
  expect(field.value).toBe('GC-2');
  expect(rendered.kiosk.callsOf('getGiftCard')).toEqual([{ code: 'GC-1' }, { code: 'GC-2' }]);
  // The debit goes to the service's id, not to the code as scanned.
  expect(rendered.stores.giftCard.getState().card?.id).toBe('gift_card_2');
});

test('a code the service’s scan rule does not recognise says so, and is selected for the next scan', async () => {
  rendered = await renderKiosk(<GiftCardScreen />, {
    handlers: {
      getGiftCard: () =>
        fail({ code: 'GIFT_CARD_CODE_UNRECOGNISED', message: 'does not match the scan rule' }),
    },
  });
  const field = screen.getByLabelText<HTMLInputElement>('Card number (type or scan)');
  await userEvent.setup().keyboard('hello{Enter}');
  expect((await screen.findByRole('alert')).textContent).toContain(
    'This is not a gift-card number of this service',
  );
  await waitFor(() => expect([field.selectionStart, field.selectionEnd]).toEqual([0, 5]));
});
