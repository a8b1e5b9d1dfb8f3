import { act, cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, expect, test, vi } from 'vitest';
import type { DebitEvidence } from '../../../shared/ipc/gift-cards.ts';
import { OutboxDebits } from '../../../renderer/components/OutboxDebits.tsx';
import { UnknownOutcomeActions } from '../../../renderer/components/UnknownOutcomeActions.tsx';
import type { Locale } from '../../../renderer/i18n/locale.ts';
import { debit } from '../support/fixtures.ts';
import { ok } from '../support/fake-kiosk.ts';
import { renderKiosk, type RenderedKiosk } from '../support/render-kiosk.tsx';

let rendered: RenderedKiosk | undefined;
afterEach(() => {
  rendered?.stop();
  cleanup();
});

/** A debit of 5.00 held as "outcome unknown": the card read at 114.50 before it. */
const held = debit({
  id: 9,
  amount: 5,
  state: 'pending',
  attempts: 2,
  heldReason: { code: 'DEBIT_OUTCOME_UNKNOWN', message: 'an attempt may have reached...' },
  outcomeUnknown: {
    since: '2026-11-23T18:00:00.000Z',
    reason: 'USAGES_UNVERIFIED',
    balanceBefore: { amount: 114.5, at: '2026-11-23T17:59:00.000Z' },
    balanceNow: null,
  },
});

const evidence: DebitEvidence = {
  debit: held,
  keys: [
    {
      key: '3f2a9c1e',
      firstUsedAt: '2026-11-23T17:59:30.000Z',
      replacedAt: '2026-11-23T18:30:00.000Z',
    },
    { key: '7b04d2aa', firstUsedAt: null, replacedAt: null },
  ],
  firstAttemptAt: '2026-11-23T17:59:30.000Z',
  balanceNow: { amount: 109.5, at: '2026-11-24T19:00:00.000Z' },
};

function props(overrides: Partial<Parameters<typeof UnknownOutcomeActions>[0]> = {}) {
  return {
    debit: held,
    evidence: undefined,
    loading: false,
    busy: false,
    onShowEvidence: vi.fn(),
    onResolve: vi.fn(),
    ...overrides,
  };
}

test('before the evidence is read, nobody can decide: only "read the card" is offered', async () => {
  const given = props();
  rendered = await renderKiosk(<UnknownOutcomeActions {...given} />);
  const user = userEvent.setup();
  await user.type(screen.getByLabelText('Your name or staff number'), 'Claire');
  expect(screen.getByRole('button', { name: 'Applied' })).toHaveProperty('disabled', true);
  expect(screen.getByRole('button', { name: 'Not applied, send again' })).toHaveProperty(
    'disabled',
    true,
  );
  await user.click(
    screen.getByRole('button', { name: 'Read the card and show what the kiosk knows' }),
  );
  expect(given.onShowEvidence).toHaveBeenCalledTimes(1);
  expect(given.onResolve).not.toHaveBeenCalled();
});

test('the evidence: balance before and now, every key with its times; each action says who', async () => {
  const given = props({ evidence });
  rendered = await renderKiosk(<UnknownOutcomeActions {...given} />);
  const group = screen.getByRole('group', { name: 'What became of the debit of €5.00?' });
  expect(within(group).getByTestId('balance-before').textContent).toMatch(/^€114\.50, read /u);
  expect(within(group).getByTestId('balance-now').textContent).toMatch(/^€109\.50, read /u);
  const keys = within(group)
    .getAllByRole('listitem')
    .map((item) => item.textContent);
  expect(keys).toHaveLength(2);
  expect(keys[0]).toMatch(/^key 3f2a9c1e… · first sent .+ · replaced .+$/u);
  expect(keys[1]).toBe('key 7b04d2aa… · never sent');

  const user = userEvent.setup();
  const applied = within(group).getByRole('button', { name: 'Applied' });
  // No name, no decision: who said so is recorded with it.
  expect(applied).toHaveProperty('disabled', true);
  await user.type(within(group).getByLabelText('Your name or staff number'), '  Claire B ');
  await user.click(applied);
  expect(given.onResolve).toHaveBeenLastCalledWith('applied', 'Claire B');
  await user.click(within(group).getByRole('button', { name: 'Not applied, send again' }));
  expect(given.onResolve).toHaveBeenLastCalledWith('not_applied', 'Claire B');
});

test('a balance that could not be read now is said so, and busy disables the actions', async () => {
  rendered = await renderKiosk(
    <UnknownOutcomeActions
      {...props({ evidence: { ...evidence, balanceNow: null }, busy: true })}
    />,
  );
  expect(screen.getByTestId('balance-now').textContent).toBe(
    'not known: the service could not be reached',
  );
  const user = userEvent.setup();
  await user.type(screen.getByLabelText('Your name or staff number'), 'Claire');
  expect(screen.getByRole('button', { name: 'Applied' })).toHaveProperty('disabled', true);
});

test.each([
  ['en', 'Not applied, send again', 'Your name or staff number'],
  ['fr', 'Non appliqué, renvoyer', 'Votre nom ou matricule'],
] as const)('in the staff’s language (%s)', async (locale: Locale, action, name) => {
  rendered = await renderKiosk(<UnknownOutcomeActions {...props({ evidence })} />, { locale });
  expect(screen.getByRole('button', { name: action })).toBeDefined();
  expect(screen.getByLabelText(name)).toBeDefined();
});

test('in the pending list: the evidence read from main, then staff’s word sent with who, and the list read again', async () => {
  let open = [held];
  rendered = await renderKiosk(<OutboxDebits />, {
    handlers: {
      listDebits: (request: { view: string }) =>
        ok({ debits: request.view === 'open' ? open : [] }),
      getDebitEvidence: () => ok(evidence),
      resolveUnknownDebit: () => {
        open = [];
        return ok({ ...held, state: 'applied', heldReason: null });
      },
    },
  });
  await act(() => rendered!.stores.outbox.getState().refresh());
  const user = userEvent.setup();
  await user.click(
    await screen.findByRole('button', { name: 'Read the card and show what the kiosk knows' }),
  );
  expect(rendered.kiosk.callsOf('getDebitEvidence')).toEqual([{ debitId: 9 }]);
  expect((await screen.findByTestId('balance-now')).textContent).toMatch(/€109\.50/u);

  await user.type(screen.getByLabelText('Your name or staff number'), 'Claire');
  const listed = rendered.kiosk.callsOf('listDebits').length;
  await user.click(screen.getByRole('button', { name: 'Applied' }));
  expect(rendered.kiosk.callsOf('resolveUnknownDebit')).toEqual([
    { debitId: 9, outcome: 'applied', by: 'Claire' },
  ]);
  expect(rendered.kiosk.callsOf('listDebits').length).toBeGreaterThan(listed);
  expect(await screen.findByText('No debit is waiting.')).toBeDefined();
  // Decided: its evidence is dropped with it.
  expect(rendered.stores.outbox.getState().evidence).toEqual({});
});
