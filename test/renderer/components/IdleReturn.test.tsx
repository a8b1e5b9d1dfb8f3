import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, expect, test, vi } from 'vitest';
import { App } from '../../../renderer/App.tsx';
import { customer, settingsReply } from '../support/fixtures.ts';
import { ok } from '../support/fake-kiosk.ts';
import { renderKiosk, type RenderedKiosk } from '../support/render-kiosk.tsx';

/** An unattended kiosk forgets the customer it showed: after a countdown anyone can see. */

let rendered: RenderedKiosk | undefined;
afterEach(() => {
  rendered?.stop();
  cleanup();
  vi.useRealTimers();
});

const helene = customer('customer_helene', 'Hélène', 'Lefèvre');

async function openCustomer() {
  rendered = await renderKiosk(<App />, {
    handlers: {
      getSettings: () => ok(settingsReply({ idleReturnSeconds: 30 })),
      searchCustomers: () => ok({ data: [helene], hasNextPage: false }),
      getCustomer: () => ok(helene),
    },
  });
  vi.useFakeTimers({
    toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'],
  });
  await act(async () => {
    rendered!.stores.navigation.getState().go('customers');
    await rendered!.stores.customers.getState().search({ email: 'helene@example.com' });
    // An invoice opened for printing carries the customer's name and address too.
    void rendered!.stores.documents
      .getState()
      .open({ kind: 'invoice', reference: 'sale_1', number: 'V-2026-001' });
  });
  expect(screen.getByTestId('customer-detail').textContent).toContain('Hélène Lefèvre');
}

test('untouched for the set time, the kiosk counts down, then shows its start screen with no customer left', async () => {
  await openCustomer();
  await act(() => vi.advanceTimersByTimeAsync(19_000));
  expect(screen.queryByTestId('idle-countdown')).toBeNull();
  await act(() => vi.advanceTimersByTimeAsync(1_500));
  expect(screen.getByTestId('idle-countdown').textContent).toContain('in 10 s');
  await act(() => vi.advanceTimersByTimeAsync(5_000));
  expect(screen.getByTestId('idle-countdown').textContent).toContain('in 5 s');

  await act(() => vi.advanceTimersByTimeAsync(5_000));
  expect(screen.queryByTestId('idle-countdown')).toBeNull();
  expect(rendered!.stores.navigation.getState().screen).toBe('availability');
  expect(rendered!.stores.customers.getState()).toMatchObject({ customer: null, criteria: null });
  expect(rendered!.stores.documents.getState()).toMatchObject({ document: null, preview: null });
  expect(document.body.textContent).not.toContain('Lefèvre');
  expect(document.body.textContent).not.toContain('helene@example.com');
});

test('one touch during the countdown keeps everything, and the wait starts again', async () => {
  await openCustomer();
  await act(() => vi.advanceTimersByTimeAsync(25_000));
  expect(screen.getByTestId('idle-countdown')).toBeTruthy();
  fireEvent.pointerDown(document.body);
  await act(() => vi.advanceTimersByTimeAsync(0));
  expect(screen.queryByTestId('idle-countdown')).toBeNull();
  await act(() => vi.advanceTimersByTimeAsync(15_000));
  expect(screen.getByTestId('customer-detail').textContent).toContain('Hélène Lefèvre');
  expect(rendered!.stores.navigation.getState().screen).toBe('customers');
});

test('0 in the settings: never', async () => {
  rendered = await renderKiosk(<App />, {
    handlers: { getSettings: () => ok(settingsReply({ idleReturnSeconds: 0 })) },
  });
  vi.useFakeTimers({
    toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'],
  });
  act(() => rendered!.stores.navigation.getState().go('customers'));
  await act(() => vi.advanceTimersByTimeAsync(3_600_000));
  expect(screen.queryByTestId('idle-countdown')).toBeNull();
  expect(rendered.stores.navigation.getState().screen).toBe('customers');
});
