import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, expect, test, vi } from 'vitest';
import { CustomersScreen } from '../../../renderer/screens/CustomersScreen.tsx';
import type { Sale } from '../../../shared/api/sales.ts';
import type { SearchCustomersRequest } from '../../../shared/ipc/customers.ts';
import { asCredit, asView, customer } from '../support/fixtures.ts';
import { fail, ok } from '../support/fake-kiosk.ts';
import { renderKiosk, type RenderedKiosk } from '../support/render-kiosk.tsx';

let rendered: RenderedKiosk | undefined;
afterEach(() => {
  rendered?.stop();
  cleanup();
});

const claire = customer('customer_claire', 'Claire', 'Moreau');
const julien = customer('customer_julien', 'Julien', 'Moreau');

const page = (data: ReturnType<typeof customer>[]) => ok({ data, hasNextPage: false });

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
    ok(request.customerId === claire.id ? claire : julien),
};

async function search(email: string) {
  const user = userEvent.setup();
  await user.type(screen.getByLabelText('E-mail address (exact)'), email);
  await user.click(screen.getByRole('button', { name: 'Search' }));
  return user;
}

async function confirmWith(
  user: ReturnType<typeof userEvent.setup>,
  criterion: 'Last name' | 'First name',
  value: string,
) {
  const matches = screen.getByTestId('customer-matches');
  await user.click(
    within(within(matches).getByRole('group', { name: 'Which detail' })).getByRole('button', {
      name: criterion,
    }),
  );
  await user.type(within(matches).getByRole('textbox', { name: criterion }), value);
  await user.click(within(matches).getByRole('button', { name: 'Confirm' }));
}

test('the search form asks for the e-mail address and each detail the service searches by', async () => {
  rendered = await renderKiosk(<CustomersScreen />);
  const form = screen.getByRole('form', { name: 'Find a customer' });
  await within(form).findByLabelText('Last name');
  expect(
    within(form)
      .getAllByRole('textbox')
      .map((field) => field.getAttribute('type')),
  ).toEqual(['email', null, null, null, null]);
  expect(
    ['Last name', 'First name', 'Phone', 'Postal code'].map((label) =>
      within(form).getByLabelText(label),
    ),
  ).toHaveLength(4);
});

test('a service that searches by e-mail alone gets the e-mail field alone', async () => {
  rendered = await renderKiosk(<CustomersScreen />, {
    handlers: { customerSearchCriteria: () => ok({ criteria: [] }) },
  });
  await waitFor(() => expect(rendered!.kiosk.callsOf('customerSearchCriteria')).toHaveLength(1));
  const form = screen.getByRole('form', { name: 'Find a customer' });
  expect(
    within(form)
      .getAllByRole('textbox')
      .map((field) => field.getAttribute('type')),
  ).toEqual(['email']);
});

test('a name or a phone number is searched as such, never refused as "not an e-mail address"', async () => {
  rendered = await renderKiosk(<CustomersScreen />, { handlers: moreauHandlers });
  const user = userEvent.setup();
  await user.type(await screen.findByLabelText('Last name'), 'Moreau');
  await user.type(screen.getByLabelText('Phone'), '06 12 34 56 78');
  await user.click(screen.getByRole('button', { name: 'Search' }));
  expect(screen.queryByText(/not an e-mail address/)).toBeNull();
  expect(rendered.kiosk.callsOf('searchCustomers')).toEqual([
    { lastName: 'Moreau', phone: '06 12 34 56 78', limit: 20 },
  ]);
});

test('nothing given is said, and nothing is sent', async () => {
  rendered = await renderKiosk(<CustomersScreen />);
  await userEvent.setup().click(screen.getByRole('button', { name: 'Search' }));
  expect(screen.getByRole('alert').textContent).toBe(
    'Give the e-mail address or another detail to search by.',
  );
  expect(rendered.kiosk.callsOf('searchCustomers')).toEqual([]);
});

test('an e-mail shared by several customers lists them, opens none, and a further detail confirms one', async () => {
  rendered = await renderKiosk(<CustomersScreen />, { handlers: moreauHandlers });
  const user = await search('famille.moreau@example.com');
  // The e-mail alone went to main: no second criterion was asked up front.
  expect(rendered.kiosk.callsOf('searchCustomers')).toEqual([
    { email: 'famille.moreau@example.com', limit: 20 },
  ]);

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
  // Only a detail that tells them apart is offered: they share last name, phone and postal code.
  const confirm = within(matches).getByRole('group', { name: 'Which detail' });
  expect(
    within(confirm)
      .getAllByRole('button')
      .map((b) => b.textContent),
  ).toEqual(['First name']);
  expect(within(matches).queryByText(/Already used/)).toBeNull();

  await confirmWith(user, 'First name', 'Claire');
  const detail = await screen.findByTestId('customer-detail');
  expect(within(detail).getByRole('heading').textContent).toBe('Claire Moreau');
  expect(rendered.kiosk.callsOf('searchCustomers').at(-1)).toEqual({
    email: 'famille.moreau@example.com',
    firstName: 'Claire',
    limit: 20,
  });
  expect(rendered.kiosk.callsOf('getCustomer')).toEqual([
    { customerId: 'customer_claire', includeContact: true },
  ]);
});

test('a detail the list cannot show may still be shared: it opens nothing, and the next one decides', async () => {
  // Without contact data in the list, phone and postal code may or may not differ: offered.
  const claireBare = customer('customer_claire', 'Claire', 'Moreau', false);
  const julienBare = customer('customer_julien', 'Julien', 'Moreau', false);
  rendered = await renderKiosk(<CustomersScreen />, {
    handlers: {
      searchCustomers: (request: SearchCustomersRequest) =>
        page(
          [claireBare, julienBare].filter(
            (c) =>
              request.firstName === undefined ||
              request.firstName.toLowerCase() === c.firstName?.toLowerCase(),
          ),
        ),
      getCustomer: (request: { customerId: string }) =>
        ok(request.customerId === claireBare.id ? claireBare : julienBare),
    },
  });
  const user = await search('famille.moreau@example.com');
  const first = await screen.findByTestId('customer-matches');
  expect(
    within(within(first).getByRole('group', { name: 'Which detail' }))
      .getAllByRole('button')
      .map((b) => b.textContent),
  ).toEqual(['First name', 'Phone', 'Postal code']);
  await user.click(within(first).getByRole('button', { name: 'Phone' }));
  await user.type(within(first).getByRole('textbox', { name: 'Phone' }), '0612345678');
  await user.click(within(first).getByRole('button', { name: 'Confirm' }));

  // Still two: listed again, the phone now among the details used and not offered again.
  const matches = await screen.findByTestId('customer-matches');
  await within(matches).findByText('Already used: Phone.');
  expect(within(matches).getAllByTestId('customer-match')).toHaveLength(2);
  expect(
    within(within(matches).getByRole('group', { name: 'Which detail' })).queryByRole('button', {
      name: 'Phone',
    }),
  ).toBeNull();
  expect(rendered.kiosk.callsOf('getCustomer')).toEqual([]);

  await confirmWith(user, 'First name', 'Julien');
  expect(
    within(await screen.findByTestId('customer-detail')).getByRole('heading').textContent,
  ).toBe('Julien Moreau');
  expect(rendered.kiosk.callsOf('searchCustomers').at(-1)).toEqual({
    email: 'famille.moreau@example.com',
    phone: '0612345678',
    firstName: 'Julien',
    limit: 20,
  });
});

test('a confirmation that matches nobody keeps the matches, says so, and asks again', async () => {
  rendered = await renderKiosk(<CustomersScreen />, { handlers: moreauHandlers });
  const user = await search('famille.moreau@example.com');
  await screen.findByTestId('customer-matches');
  await confirmWith(user, 'First name', 'Paul');
  const matches = screen.getByTestId('customer-matches');
  expect((await within(matches).findByTestId('confirm-mismatch')).textContent).toBe(
    'None of these customers matches this detail (First name): check it with the customer and try again.',
  );
  // The list stays, and what was typed too, to correct it.
  expect(within(matches).getAllByTestId('customer-match')).toHaveLength(2);
  const field = within(matches).getByRole('textbox', { name: 'First name' });
  expect((field as HTMLInputElement).value).toBe('Paul');
  await user.clear(field);
  await user.type(field, 'Julien');
  await user.click(within(matches).getByRole('button', { name: 'Confirm' }));
  expect(
    within(await screen.findByTestId('customer-detail')).getByRole('heading').textContent,
  ).toBe('Julien Moreau');
  expect(rendered.kiosk.callsOf('searchCustomers').at(-1)).toEqual({
    email: 'famille.moreau@example.com',
    firstName: 'Julien',
    limit: 20,
  });
});

test('no match says so, and keeps the address as typed to check it with the customer', async () => {
  rendered = await renderKiosk(<CustomersScreen />);
  await search('nobody@example.com');
  expect((await screen.findByTestId('customer-none')).textContent).toBe(
    'No customer has this e-mail address. Check it with the customer.',
  );
  const field = screen.getByLabelText('E-mail address (exact)');
  expect(field).toHaveProperty('value', 'nobody@example.com');
  // The focus moves in an effect, after the form is back on screen.
  await waitFor(() => expect(document.activeElement).toBe(field));
  expect(rendered.kiosk.callsOf('getCustomer')).toEqual([]);
});

test('New search gives an empty field with the focus, ready for the next customer', async () => {
  rendered = await renderKiosk(<CustomersScreen />, { handlers: moreauHandlers });
  const user = await search('famille.moreau@example.com');
  await screen.findByTestId('customer-matches');
  await user.click(screen.getByRole('button', { name: 'New search' }));
  const field = screen.getByLabelText('E-mail address (exact)');
  expect(field).toHaveProperty('value', '');
  await waitFor(() => expect(document.activeElement).toBe(field));
});

/** A sale as getSale returns it; `hasInvoice` is what the history's entries do not tell. */
function sale(uuid: string, number: string, hasInvoice: boolean, remainingToPay = 0): Sale {
  return {
    uuid,
    number,
    date: '2026-02-01T10:00:00.000Z',
    shopId: null,
    status: hasInvoice ? 'completed' : 'partially_paid',
    customer: null,
    lines: [
      {
        label: 'Lave-linge 8 kg',
        reference: 'LL8',
        productId: null,
        itemId: null,
        quantity: 1,
        unitPriceInclTax: 499.9,
        totalInclTax: 499.9,
      },
    ],
    totals: { exclTax: 416.58, vat: 83.32, inclTax: 499.9, currency: 'EUR' },
    amountPaid: 499.9 - remainingToPay,
    remainingToPay,
    hasInvoice,
  };
}

test('one match opens the record; contact data only when the service sent it', async () => {
  const helene = customer('customer_helene', 'Hélène', 'Lefèvre', false);
  rendered = await renderKiosk(<CustomersScreen />, {
    handlers: {
      searchCustomers: () => page([helene]),
      getSale: (request) =>
        ok(
          request.saleId === 'sale_1'
            ? asView('sale', sale('sale_1', 'V-2026-001', true))
            : asView('sale', sale('sale_2', 'V-2026-002', false, 299.9)),
        ),
      getCustomer: () => ok(helene),
      getCustomerHistory: () =>
        ok(
          asView('customerHistory', {
            customerId: helene.id,
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
              {
                uuid: 'sale_2',
                number: 'V-2026-002',
                date: '2026-02-02T10:00:00.000Z',
                status: 'partially_paid',
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
        ),
      getSavLog: () =>
        ok({
          data: [
            asView('savLogEntry', {
              at: '2026-02-03T10:00:00.000Z',
              status: 'in_repair',
              message: 'Pièce commandée',
            }),
          ],
          hasNextPage: false,
        }),
    },
  });
  const user = await search('helene@example.com');
  const detail = await screen.findByTestId('customer-detail');
  expect(within(detail).queryByText('E-mail')).toBeNull();
  expect(within(detail).queryByText('Phone')).toBeNull();

  const sales = await screen.findByTestId('history-sales');
  expect(sales.textContent).toContain('No. V-2026-001');
  expect(sales.textContent).toContain('€499.90');
  expect(sales.textContent).toContain('Completed');

  await user.click(screen.getByRole('button', { name: 'Read log of case SAV-12' }));
  expect((await screen.findByTestId('sav-log')).textContent).toContain('Pièce commandée');

  // The history does not say which sales have an invoice: each sale is read, newest first, and
  // Print invoice sits in the row of the one that has it.
  expect(
    await within(sales).findByRole('button', { name: 'Print invoice of sale V-2026-001' }),
  ).toBeTruthy();
  expect(
    within(sales).queryByRole('button', { name: 'Print invoice of sale V-2026-002' }),
  ).toBeNull();
  expect(rendered.kiosk.callsOf('getSale')).toEqual([{ saleId: 'sale_2' }, { saleId: 'sale_1' }]);
  expect(
    within(sales)
      .getAllByRole('listitem')
      .map((item) => /No\. (\S+)/.exec(item.textContent ?? '')?.[1]),
  ).toEqual(['V-2026-002', 'V-2026-001']);

  // A sale without an invoice: read from the service, no print, the reason in plain words.
  await user.click(screen.getByRole('button', { name: 'Details of sale V-2026-002' }));
  const unpaid = await screen.findByTestId('sale-detail');
  expect(await within(unpaid).findByTestId('sale-no-invoice')).toHaveProperty(
    'textContent',
    'No invoice has been issued for this sale, so there is none to print.',
  );
  expect(unpaid.textContent).toContain('still to pay €299.90');
  expect(within(unpaid).queryByRole('button', { name: /Print invoice/ })).toBeNull();
  expect(rendered.kiosk.callsOf('getSale').at(-1)).toEqual({ saleId: 'sale_2' });

  // One with an invoice: print is offered, goes to the documents screen, and prints once the
  // preview is there, as the button says.
  await user.click(screen.getByRole('button', { name: 'Details of sale V-2026-001' }));
  expect(
    screen
      .getByRole('button', { name: 'Details of sale V-2026-001' })
      .getAttribute('aria-expanded'),
  ).toBe('true');
  await user.click(await screen.findByRole('button', { name: 'Print invoice of sale V-2026-001' }));
  expect(rendered.stores.navigation.getState().screen).toBe('documents');
  expect(rendered.stores.documents.getState().document).toEqual({
    kind: 'invoice',
    reference: 'sale_1',
    number: 'V-2026-001',
  });
  await waitFor(() =>
    expect(rendered!.kiosk.callsOf('printInvoice')).toEqual([
      { requestId: expect.any(String), saleId: 'sale_1', copies: 1 },
    ]),
  );
  expect(rendered.kiosk.callsOf('previewDocument')).toHaveLength(1);
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
  await search('a@example.com');
  const alert = await screen.findByRole('alert');
  expect(alert.textContent).toContain('The kiosk’s account is not allowed to do this.');
  expect(alert.textContent).toContain(
    'It lacks the permission to read customers (customers:read).',
  );
});

test('"Use this card" opens the gift-card screen on that card, looked up; no button without a card id', async () => {
  const helene = customer('customer_helene', 'Hélène', 'Lefèvre', false);
  const credit = {
    initialAmount: 150,
    remainingAmount: 114.5,
    currency: 'EUR',
    status: 'active',
    createdAt: '2025-01-31T10:00:00.000Z',
    expiresOn: null,
  } as const;
  rendered = await renderKiosk(<CustomersScreen />, {
    handlers: {
      searchCustomers: () => page([helene]),
      listCustomerCredits: () =>
        ok({
          data: [
            {
              ...credit,
              id: 'c1',
              type: 'gift_card',
              label: 'Gift card **** 9088',
              giftCardId: 'gift_card_9088',
            },
            {
              ...credit,
              id: 'c2',
              type: 'gift_card',
              label: 'Gift card **** 1111',
              giftCardId: null,
            },
            { ...credit, id: 'c3', type: 'credit_note', label: 'AV-1', giftCardId: null },
          ].map(asCredit),
          hasNextPage: false,
        }),
    },
  });
  const user = await search('helene@example.com');
  const credits = await screen.findByTestId('history-credits');
  await within(credits).findByText(/Gift card \*\*\*\* 9088/u);
  expect(within(credits).getAllByRole('button', { name: /^Use this card: /u })).toHaveLength(1);

  await user.click(
    within(credits).getByRole('button', { name: 'Use this card: Gift card **** 9088' }),
  );
  expect(rendered.stores.navigation.getState().screen).toBe('giftCard');
  expect(rendered.stores.giftCard.getState().cardId).toBe('gift_card_9088');
  await vi.waitFor(() => expect(rendered?.stores.giftCard.getState().card).not.toBeNull());
  expect(rendered.kiosk.callsOf('getGiftCard')).toEqual([{ giftCardId: 'gift_card_9088' }]);
});

test('an entry that is not an e-mail address is said in the kiosk’s language, and nothing is sent', async () => {
  rendered = await renderKiosk(<CustomersScreen />, { locale: 'fr' });
  const user = userEvent.setup();
  await user.type(screen.getByLabelText('Adresse e-mail (exacte)'), 'helene.example.com');
  await user.click(screen.getByRole('button', { name: 'Rechercher' }));
  expect(screen.getByRole('alert').textContent).toBe(
    'Ce n’est pas une adresse e-mail : vérifiez-la avec le client.',
  );
  expect(screen.getByLabelText('Adresse e-mail (exacte)').getAttribute('aria-invalid')).toBe(
    'true',
  );
  expect(rendered.kiosk.callsOf('searchCustomers')).toEqual([]);
});
