import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, expect, test } from 'vitest';
import { SetupScreen } from '../../../renderer/screens/SetupScreen.tsx';
import type { ContractReport } from '../../../shared/profile/index.ts';
import { ok } from '../support/fake-kiosk.ts';
import { NOW, settingsReply } from '../support/fixtures.ts';
import { renderKiosk, type RenderedKiosk } from '../support/render-kiosk.tsx';

/** Setup's integration profile: which one is in force, pointing at a file, "Check the service". */

let rendered: RenderedKiosk | undefined;
afterEach(() => {
  rendered?.stop();
  cleanup();
});

async function unlock(user = userEvent.setup()) {
  const keypad = screen.getByRole('group', { name: /keypad/i });
  for (const digit of '1234') await user.click(within(keypad).getByRole('button', { name: digit }));
  await user.click(screen.getByRole('button', { name: 'Unlock' }));
  return user;
}

const incomplete: ContractReport = {
  profileName: 'commerce-kiosk sandbox (default dialect)',
  checkedAt: NOW,
  ok: false,
  operations: [
    {
      operationId: 'getGiftCard',
      status: 200,
      outcome: 'ok',
      note: null,
      values: [
        {
          record: 'giftCard',
          field: 'balance',
          needed: true,
          status: 'missing',
          path: null,
          typeFound: null,
          suggestions: ['funds.remaining'],
        },
      ],
      unusedFields: ['funds.remaining'],
    },
  ],
  missingNeeded: ['giftCard.balance'],
  notChecked: [],
  refused: [],
  debitBodyUndecided: [],
};

test('an unusable profile file is said plainly; a saved path goes to main; the check names what is missing', async () => {
  rendered = await renderKiosk(<SetupScreen />, {
    handlers: {
      getSettings: () =>
        ok(
          settingsReply(
            {},
            {
              profile: {
                name: 'commerce-kiosk sandbox (default dialect)',
                source: 'default',
                path: '/etc/kiosk/profile.json',
                error: { code: 'PROFILE_INVALID', message: 'records.giftCard: bad path' },
              },
            },
          ),
        ),
      updateSettings: (request) =>
        ok(settingsReply({ profilePath: request.changes.profilePath ?? null })),
      checkContract: () => ok(incomplete),
    },
  });
  const user = await unlock();
  const form = await screen.findByTestId('profile-form');
  expect(within(form).getByTestId('profile-unusable').textContent).toContain(
    'records.giftCard: bad path',
  );
  const field = within(form).getByLabelText(/Profile file/);
  await user.type(field, 'relative/profile.json');
  expect(within(form).getByText(/absolute path of the file/)).toBeTruthy();
  expect(within(form).getByRole('button', { name: 'Use this profile' })).toHaveProperty(
    'disabled',
    true,
  );
  await user.clear(field);
  await user.type(field, '/etc/kiosk/alternate.json');
  await user.click(within(form).getByRole('button', { name: 'Use this profile' }));
  expect(rendered.kiosk.callsOf('updateSettings')).toEqual([
    { adminPin: '1234', changes: { profilePath: '/etc/kiosk/alternate.json' } },
  ]);

  await user.click(within(form).getByRole('button', { name: 'Check the service' }));
  const report = await within(form).findByTestId('contract-report');
  expect(report.textContent).toContain('Not found with this profile: giftCard.balance');
  expect(report.textContent).toContain('funds.remaining');
});

test("the check's title counts what is missing, what was refused and what was not checked", async () => {
  const report: ContractReport = {
    ...incomplete,
    operations: [
      ...incomplete.operations,
      {
        operationId: 'listSav',
        status: 400,
        outcome: 'error',
        note: 'unknown parameter page',
        values: [],
        unusedFields: [],
      },
    ],
    refused: ['listSav: 400'],
    notChecked: ['giftCardUsage.reference', 'giftCardUsage.amount'],
  };
  rendered = await renderKiosk(<SetupScreen />, {
    handlers: { checkContract: () => ok(report) },
  });
  const user = await unlock();
  const form = await screen.findByTestId('profile-form');
  await user.click(within(form).getByRole('button', { name: 'Check the service' }));
  const shown = await within(form).findByTestId('contract-report');
  expect(shown.querySelector('.notice-title')?.textContent).toBe(
    'Needed and not found: 1 · Reads refused: 1 · Not checked, the service gave no example: 2',
  );
  expect(shown.textContent).toContain('Not found with this profile: giftCard.balance');
  expect(shown.textContent).toContain('refused these reads as the kiosk makes them: listSav: 400');
});

test('a check that passes with values not checked says how many', async () => {
  rendered = await renderKiosk(<SetupScreen />, {
    handlers: {
      checkContract: () =>
        ok({
          ...incomplete,
          ok: true,
          operations: [],
          missingNeeded: [],
          notChecked: ['savLogEntry.at'],
        }),
    },
  });
  const user = await unlock();
  const form = await screen.findByTestId('profile-form');
  await user.click(within(form).getByRole('button', { name: 'Check the service' }));
  const shown = await within(form).findByTestId('contract-report');
  expect(shown.querySelector('.notice-title')?.textContent).toBe(
    'Everything the kiosk needs is found with this profile. Not checked, the service gave no example: 1.',
  );
  expect(shown.className).toContain('notice-ok');
});
