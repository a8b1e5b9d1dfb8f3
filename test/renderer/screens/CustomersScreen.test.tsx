import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, expect, test } from 'vitest';
import { CustomersScreen } from '../../../renderer/screens/CustomersScreen.tsx';
import type { SearchCustomersRequest } from '../../../shared/ipc/customers.ts';
import { customer } from '../support/fixtures.ts';
import { fail, ok } from '../support/fake-kiosk.ts';
import { renderKiosk, type RenderedKiosk } from '../support/render-kiosk.tsx';

let rendered: RenderedKiosk | undefined;
afterEach(() => {
  rendered?.stop();
  cleanup();
});

const claire = customer('customer_claire', 'Claire', 'Moreau');
const julien = customer('customer_julien', 'Julien', 'Moreau');

const page = (data: ReturnType<typeof customer>[]) =>
  ok({ data, pagination: { page: 1, limit: 20, total: data.length, hasNextPage: false } });

/** The sandbox's rule: every criterion given must match (names ignoring case). */
function moreauSearch(request: SearchCustomersRequest) {
  const matches = [claire, julien].filter(
    (c) =>
      request.email === 'famille.moreau@example.com' &&
      (request.lastName === undefined ||
        request.lastName.toLowerCase() === c.lastName?.toLowerCase()) &&
      (request.firstName === undefined ||
        request.firstName.toLowerCase() === c.firstName?.toLowerCase()),
  );
  return page(matches);
}

const moreauHandlers = {
  searchCustomers: moreauSearch,
  getCustomer: (request: { customerId: string }) =>
    ok(request.customerId === claire.uuid ? claire : julien),
};

async function search(email: string, lastName: string) {
  const user = userEvent.setup();
  await user.type(screen.getByLabelText('E-mail address (exact)'), email);
  await user.type(screen.getByRole('textbox', { name: 'Last name' }), lastName);
  await user.click(screen.getByRole('button', { name: 'Search' }));
  return user;
}

test('several matches are listed, none is opened, and a further detail must confirm one', async () => {
  rendered = await renderKiosk(<CustomersScreen />, { handlers: moreauHandlers });
  const user = await search('famille.moreau@example.com', 'Moreau');

  const matches = await screen.findByTestId('customer-matches');
  expect(
    within(matches)
      .getAllByTestId('customer-match')
      .map((m) => m.textContent),
  ).toEqual([expect.stringContaining('Claire Moreau'), expect.stringContaining('Julien Moreau')]);
  expect(screen.getByRole('alert').textContent).toContain('The kiosk does not choose one');
  // Nothing was opened: no record read, no history, and no match is a button to pick.
  expect(rendered.kiosk.callsOf('getCustomer')).toEqual([]);
  expect(screen.queryByTestId('customer-detail')).toBeNull();
  expect(within(matches).queryByRole('button', { name: /Claire/ })).toBeNull();

  // The detail already used is not offered again; the first name confirms.
  const confirm = within(matches).getByRole('group', { name: 'Which detail' });
  expect(within(confirm).queryByRole('button', { name: 'Last name' })).toBeNull();
  await user.click(within(confirm).getByRole('button', { name: 'First name' }));
  await user.type(within(matches).getByRole('textbox', { name: 'First name' }), 'Claire');
  await user.click(within(matches).getByRole('button', { name: 'Confirm' }));

  const detail = await screen.findByTestId('customer-detail');
  expect(within(detail).getByRole('heading').textContent).toBe('Claire Moreau');
  expect(rendered.kiosk.callsOf('searchCustomers').at(-1)).toEqual({
    email: 'famille.moreau@example.com',
    lastName: 'Moreau',
    firstName: 'Claire',
    limit: 20,
  });
  expect(rendered.kiosk.callsOf('getCustomer')).toEqual([
    { customerId: 'customer_claire', includeContact: true },
  ]);
});

test('a confirmation that matches nobody says so and opens nothing', async () => {
  rendered = await renderKiosk(<CustomersScreen />, { handlers: moreauHandlers });
  const user = await search('famille.moreau@example.com', 'Moreau');
  const matches = await screen.findByTestId('customer-matches');
  await user.click(within(matches).getByRole('button', { name: 'First name' }));
  await user.type(within(matches).getByRole('textbox', { name: 'First name' }), 'Paul');
  await user.click(within(matches).getByRole('button', { name: 'Confirm' }));
  expect((await screen.findByTestId('customer-none')).textContent).toBe(
    'No customer matches all the details given (Last name, First name). Check them with the customer.',
  );
  expect(rendered.kiosk.callsOf('getCustomer')).toEqual([]);
});

test('no match says so', async () => {
  rendered = await renderKiosk(<CustomersScreen />);
  await search('nobody@example.com', 'Nobody');
  expect((await screen.findByTestId('customer-none')).textContent).toBe(
    'No customer matches this e-mail address and the detail given (Last name).',
  );
});

test('one match opens the record; contact data only when the service sent it', async () => {
  const helene = customer('customer_helene', 'Hélène', 'Lefèvre', false);
  rendered = await renderKiosk(<CustomersScreen />, {
    handlers: {
      searchCustomers: () => page([helene]),
      getCustomer: () => ok(helene),
      getCustomerHistory: () =>
        ok({
          customerId: helene.uuid,
          sales: [
            {
              uuid: 'sale_1',
              number: 'V-2026-001',
              date: '2026-02-01T10:00:00.000Z',
              status: 'completed',
              shopId: null,
              totalInclTax: 499.9,
              currency: 'EUR',
            },
          ],
          sav: [
            {
              uuid: 'sav_1',
              number: 'SAV-12',
              date: '2026-02-03T10:00:00.000Z',
              status: 'in_repair',
              shopId: null,
              totalInclTax: null,
              currency: 'EUR',
            },
          ],
        }),
      getSavLog: () =>
        ok({
          data: [
            { at: '2026-02-03T10:00:00.000Z', status: 'in_repair', message: 'Pièce commandée' },
          ],
          pagination: { page: 1, limit: 100, total: 1, hasNextPage: false },
        }),
    },
  });
  const user = await search('helene@example.com', 'Lefèvre');
  const detail = await screen.findByTestId('customer-detail');
  expect(within(detail).queryByText('E-mail')).toBeNull();
  expect(within(detail).queryByText('Phone')).toBeNull();

  const sales = await screen.findByTestId('history-sales');
  expect(sales.textContent).toContain('No. V-2026-001');
  expect(sales.textContent).toContain('€499.90');
  expect(sales.textContent).toContain('Completed');

  await user.click(screen.getByRole('button', { name: 'Read log of case SAV-12' }));
  expect((await screen.findByTestId('sav-log')).textContent).toContain('Pièce commandée');

  await user.click(screen.getByRole('button', { name: 'Print invoice of sale V-2026-001' }));
  expect(rendered.stores.navigation.getState().screen).toBe('documents');
  expect(rendered.stores.documents.getState().document).toEqual({
    kind: 'invoice',
    reference: 'sale_1',
    number: 'V-2026-001',
  });
});

test('a 403 says which permission the account lacks', async () => {
  rendered = await renderKiosk(<CustomersScreen />, {
    handlers: {
      searchCustomers: () =>
        fail({
          code: 'FORBIDDEN',
          message: 'FORBIDDEN: scope customers:read required',
          details: { kind: 'Forbidden', status: 403, missingScopes: ['customers:read'] },
        }),
    },
  });
  await search('a@example.com', 'A');
  const alert = await screen.findByRole('alert');
  expect(alert.textContent).toContain('The kiosk’s account is not allowed to do this.');
  expect(alert.textContent).toContain(
    'It lacks the permission to read customers (customers:read).',
  );
});
