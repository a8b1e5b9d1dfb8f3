import type {
  Credit,
  Customer,
  CustomerContact,
  HistoryEntry,
} from '../../../shared/api/customers.ts';
import { historyFamilies } from '../../../shared/api/customer-vocabulary.ts';
import { splitCommaList } from '../../../shared/api/primitives.ts';
import type { SandboxData } from '../../data/model.ts';
import { invalidRequest, notFound } from '../errors.ts';
import type { Handlers } from '../handler.ts';
import { listPagination, pageOf } from '../pagination.ts';
import { normalizePhone, normalizeText } from '../text.ts';

interface Visible {
  readonly contact: boolean;
  readonly internalComments: boolean;
}

/** The customer as a reply shows it: the sensitive blocks only when asked for (their scopes are enforced after). */
export function customerView(customer: Customer, visible: Visible): Customer {
  const { contact, internalComments, ...rest } = customer;
  return {
    ...rest,
    ...(visible.contact && contact ? { contact } : {}),
    ...(visible.internalComments ? { internalComments: internalComments ?? null } : {}),
  };
}

function included(include: string | undefined): Visible {
  const list = splitCommaList(include);
  return { contact: list.includes('contact'), internalComments: list.includes('internalComments') };
}

function requireCustomer(data: SandboxData, customerId: string): Customer {
  const customer = data.customers.get(customerId);
  if (!customer) throw notFound(`no customer ${customerId}`);
  return customer;
}

const sameEmail = (contact: CustomerContact | undefined, email: string) =>
  contact?.email != null && contact.email.trim().toLowerCase() === email.trim().toLowerCase();

const samePhone = (contact: CustomerContact | undefined, phone: string) =>
  contact?.phone != null && normalizePhone(contact.phone) === normalizePhone(phone);

const sameText = (value: string | null | undefined, wanted: string) =>
  value != null && normalizeText(value) === normalizeText(wanted);

function creditEntry(credit: Credit): HistoryEntry {
  return {
    uuid: credit.id,
    number: credit.label,
    date: credit.createdAt,
    status: credit.status,
    shopId: null,
    totalInclTax: credit.initialAmount,
    currency: credit.currency,
  };
}

function history(
  data: SandboxData,
  customerId: string,
  family: (typeof historyFamilies)[number],
): HistoryEntry[] {
  switch (family) {
    case 'sales':
      return [...data.sales.values()]
        .filter((sale) => sale.customer?.uuid === customerId)
        .map((sale) => ({
          uuid: sale.uuid,
          number: sale.number,
          date: sale.date,
          status: sale.status,
          shopId: sale.shopId,
          totalInclTax: sale.totals.inclTax,
          currency: sale.totals.currency,
        }));
    case 'orders':
      return [...(data.orders.get(customerId) ?? [])];
    case 'sav':
      return [...data.sav.values()]
        .filter((sav) => sav.customer?.uuid === customerId)
        .map((sav) => ({
          uuid: sav.uuid,
          number: sav.number,
          date: sav.createdAt,
          status: sav.status,
          shopId: sav.shopId,
          totalInclTax: null,
          currency: 'EUR' as const,
        }));
    case 'credits':
      return (data.credits.get(customerId) ?? []).map(creditEntry);
  }
}

export const customerHandlers = {
  listCustomers: ({ state, query }) => {
    const since = query.updatedSince === undefined ? undefined : Date.parse(query.updatedSince);
    const matching = [...state.data.customers.values()].filter(
      (customer) =>
        (query.shopId === undefined || customer.shopId === query.shopId) &&
        (since === undefined || Date.parse(customer.updatedAt) >= since) &&
        (query.email === undefined || sameEmail(customer.contact, query.email)) &&
        (query.phone === undefined || samePhone(customer.contact, query.phone)),
    );
    const slice = pageOf(matching, query.page, query.limit);
    const visible = included(query.include);
    return {
      json: {
        data: slice.items.map((customer) => customerView(customer, visible)),
        pagination: listPagination(slice),
      },
    };
  },

  /**
   * Criteria combine with AND; `exact` means equality of the whole value: e-mails ignoring case,
   * phones on their digits, names and postal codes ignoring case and accents. The caller holds
   * customers:pii:read (required), so matches carry their contact block for verification.
   */
  searchCustomers: ({ state, query }) => {
    const matches = [...state.data.customers.values()].filter(
      (customer) =>
        (query.email === undefined || sameEmail(customer.contact, query.email)) &&
        (query.phone === undefined || samePhone(customer.contact, query.phone)) &&
        (query.lastName === undefined || sameText(customer.lastName, query.lastName)) &&
        (query.firstName === undefined || sameText(customer.firstName, query.firstName)) &&
        (query.postalCode === undefined ||
          sameText(customer.contact?.postalCode, query.postalCode)),
    );
    const slice = pageOf(matches, query.page, query.limit);
    const data = slice.items.map((customer) =>
      customerView(customer, { contact: true, internalComments: false }),
    );
    return { json: { data, pagination: listPagination(slice) } };
  },

  getCustomer: ({ state, params, query }) => ({
    json: customerView(requireCustomer(state.data, params.customerId), included(query.include)),
  }),

  /**
   * Full replacement of the modifiable data: omitted optional fields are cleared or reset
   * (false, `none`, no shop, no e-mail). Contact fields outside the body (phone, address) are not
   * modifiable through this route and stay. The reply is the customer as the caller may see it:
   * contact data with customers:pii:read; internal comments are never part of it.
   */
  replaceCustomer: ({ state, params, body, granted }) => {
    const existing = requireCustomer(state.data, params.customerId);
    if (body.shopId !== undefined && !state.data.shops.some((shop) => shop.id === body.shopId)) {
      throw invalidRequest(`body field \`shopId\`: no shop ${body.shopId}`);
    }
    const contact: CustomerContact = existing.contact ?? {
      email: null,
      phone: null,
      address: null,
      postalCode: null,
      city: null,
    };
    const updated: Customer = {
      ...existing,
      typeCustomer: body.typeCustomer,
      firstName: body.firstName,
      lastName: body.lastName,
      shopId: body.shopId ?? null,
      billingDifferentAddress: body.billingDifferentAddress ?? false,
      communication: body.communication ?? 'none',
      phoneCommunication: body.phoneCommunication ?? false,
      emailCommunication: body.emailCommunication ?? false,
      personalInformations: body.personalInformations ?? false,
      contact: { ...contact, email: body.email ?? null },
      updatedAt: state.clock.now().toISOString(),
    };
    state.data.customers.set(updated.uuid, updated);
    return {
      json: customerView(updated, {
        contact: granted.has('customers:pii:read'),
        internalComments: false,
      }),
    };
  },

  listCustomerCredits: ({ state, params, query, omit }) => {
    requireCustomer(state.data, params.customerId);
    const types = splitCommaList(query.types);
    const hideGiftCards = omit.has('data[type=gift_card]');
    const credits = (state.data.credits.get(params.customerId) ?? []).filter(
      (credit) =>
        (types.length === 0 || types.includes(credit.type)) &&
        !(hideGiftCards && credit.type === 'gift_card'),
    );
    const slice = pageOf(credits, query.page, query.limit);
    return { json: { data: slice.items, pagination: listPagination(slice) } };
  },

  /** Families requested (all by default); the unauthorized ones are then left out by the scope rules. */
  getCustomerHistory: ({ state, params, query }) => {
    requireCustomer(state.data, params.customerId);
    const requested =
      query.include === undefined
        ? historyFamilies
        : splitCommaList<(typeof historyFamilies)[number]>(query.include);
    const reply: Record<string, unknown> = { customerId: params.customerId };
    for (const family of historyFamilies)
      if (requested.includes(family))
        reply[family] = history(state.data, params.customerId, family);
    return { json: reply as { customerId: string } };
  },
} satisfies Pick<
  Handlers,
  | 'listCustomers'
  | 'searchCustomers'
  | 'getCustomer'
  | 'replaceCustomer'
  | 'listCustomerCredits'
  | 'getCustomerHistory'
>;
