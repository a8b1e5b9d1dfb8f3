import { act, cleanup, screen } from '@testing-library/react';
import { afterEach, expect, test } from 'vitest';
import { OutboxDebits } from '../../../renderer/components/OutboxDebits.tsx';
import type { Locale } from '../../../renderer/i18n/locale.ts';
import { debit } from '../support/fixtures.ts';
import { ok } from '../support/fake-kiosk.ts';
import { renderKiosk, type RenderedKiosk } from '../support/render-kiosk.tsx';

let rendered: RenderedKiosk | undefined;
afterEach(() => {
  rendered?.stop();
  cleanup();
});

/** A debit held as "outcome unknown": main's hold code, shown in the staff's language. */
const held = debit({
  id: 9,
  state: 'pending',
  attempts: 1,
  heldReason: { code: 'DEBIT_OUTCOME_UNKNOWN', message: 'an attempt may have reached...' },
  outcomeUnknown: {
    since: '2026-11-23T18:00:00.000Z',
    reason: 'USAGES_UNVERIFIED',
    balanceBefore: { amount: 114.5, at: '2026-11-23T17:59:00.000Z' },
    balanceNow: { amount: 109.5, at: '2026-11-24T19:00:00.000Z' },
  },
});

test.each([
  ['en', /Outcome unknown: the service may have taken this debit/],
  ['fr', /Issue inconnue : le service a peut-être pris ce débit/],
] as const)(
  'a debit of unknown outcome says so in the pending list (%s)',
  async (locale: Locale, text) => {
    rendered = await renderKiosk(<OutboxDebits />, {
      locale,
      handlers: {
        listDebits: (request: { view: string }) =>
          ok({ debits: request.view === 'open' ? [held] : [] }),
      },
    });
    await act(() => rendered!.stores.outbox.getState().refresh());
    const note = await screen.findByTestId('held-reason');
    expect(note.textContent).toMatch(text);
  },
);
