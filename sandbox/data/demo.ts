/**
 * Well-known records of the demo data. Their ids do not depend on the seed and their promised
 * traits hold for every seed (the seed forces them), so tests, the documentation and a person exploring
 * the sandbox can name them. Store activity never touches the demo products.
 */

/** Catalogue products, each forced to show one trait. */
export const demoProducts = {
  /** Items in every shop, all available. */
  availableEverywhere: 'prod_e656b8f34cdb2579',
  /** First item out of stock (and so on for each status). */
  outOfStock: 'prod_327eab88578e6202',
  sold: 'prod_d98e968de6792cc1',
  reserved: 'prod_66c3c1dd60b974dd',
  withdrawn: 'prod_6c24aab92d83f812',
  unsalable: 'prod_61b463e66a3a4c70',
  /** `displayedOnline: false`. */
  hidden: 'prod_6ba427d2365dd465',
  withoutName: 'prod_936079c212bec91b',
  withoutDescription: 'prod_080653eff0ff7903',
  /** Null category and product type. */
  withoutCategory: 'prod_19699695d37c133c',
  /** No item has a price: priceRange is null. */
  unpriced: 'prod_7a3c67634574e40b',
  /** Every item on promotion; a "Machine à glaçons" (search for "glacons"). */
  promoted: 'prod_ea5433e14671b5b6',
  /** One item in the central warehouse (`shop: null`). */
  warehouseItem: 'prod_df7b0b208ee75852',
} as const;

export const demoCustomers = {
  /** Hélène Lefèvre, Lyon: sales with invoices, SAV cases, a credit note, a gift card, orders, internal comments. */
  main: 'customer_d7fec614-a393-43e6-9a5e-219599816ba6',
  /** A company (typeCustomer `company`), Paris. */
  company: 'customer_50b9e7dd-afff-4920-991b-3d8989ccfa2e',
  /** Claire and Julien Moreau share one e-mail address: see `ambiguousEmail`. */
  sharedEmailFirst: 'customer_7f5b4b45-0036-4c1f-aab6-172560c4236c',
  sharedEmailSecond: 'customer_3efb6372-e650-49a2-b548-9fb706630aa2',
  /** Every contact field null, no communication. */
  withoutContact: 'customer_c061fc7d-9d5c-4945-a657-46fa2915cd7e',
} as const;

/** An exact e-mail search on this address finds two different customers. */
export const ambiguousEmail = {
  email: 'famille.moreau@example.com',
  customerIds: [demoCustomers.sharedEmailFirst, demoCustomers.sharedEmailSecond],
} as const;

export const demoSales = {
  /** The main customer's purchase, completed, with an invoice. */
  withInvoice: 'sale_18bdd0dd-0fcb-486f-bc29-d12bc3013fc1',
  /** Paid partly with a credit note and partly with the active demo gift card; invoiced. */
  withCredits: 'sale_386a0656-30e9-4ff8-a13f-20587f4ec8f4',
  /** The company's order with a deposit: `remainingToPay > 0`, no invoice. */
  partiallyPaid: 'sale_4602c31a-37ff-4718-8282-3ac0732d284e',
  /** A walk-in sale: `customer: null`. */
  anonymous: 'sale_ff803788-9157-487f-8c99-0b5145681974',
  /** Where the active demo gift card was bought; invoiced. */
  giftCardPurchase: 'sale_200aa0df-d078-42e4-a482-db993dd1ce9b',
} as const;

export const demoSav = {
  /** Main customer's washing machine, `in_repair`, with a diagnosis deposit. */
  inRepair: 'sav_59fbe45d-07bc-451b-9353-6350decefec2',
  /** The company's case, `ready` for pick-up. */
  ready: 'sav_f4edbe26-f6c6-4c0c-b2c9-804b3389c81a',
  /** Main customer's earlier case, `closed`: the longest log. */
  closed: 'sav_69f03596-bb6d-46a7-a4c5-ae4cfaa113f2',
  /** Just opened, one log entry. */
  open: 'sav_041897e2-b88c-48d5-8ccd-8438ce9ef2d9',
} as const;

export const demoGiftCards = {
  /** Active, held by the main customer, balance 114.50 EUR. */
  active: 'gift_card_ddf0db2b-c468-4d07-9853-e8ef57c20a81',
  /** Active, anonymous, balance 4.50 EUR. */
  lowBalance: 'gift_card_44a4a857-b84c-4793-aded-875bcf6df2a6',
  /** Sold but never activated, balance 100.00 EUR. */
  inactive: 'gift_card_ade3fd2e-be96-43d6-8245-8011e460ab7d',
  /** Expired last month with 25.00 EUR left. */
  expired: 'gift_card_5fedf0eb-d2ac-46d5-9771-b7c23f767cc2',
} as const;

/** The promised balances, for tests. */
export const demoGiftCardBalances = {
  active: 114.5,
  lowBalance: 4.5,
  inactive: 100,
  expired: 25,
} as const;

/** Products store activity leaves alone, so their promised traits survive it. */
export const protectedProductIds: ReadonlySet<string> = new Set(Object.values(demoProducts));
