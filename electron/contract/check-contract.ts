import type {
  ContractReport,
  FieldSpec,
  IntegrationProfile,
  OperationReport,
  RecordKind,
  ValueReport,
} from '../../shared/profile/index.ts';
import {
  customerContactQuery,
  customerCreditsQuery,
  customerHistoryQuery,
  customerSearchCriteria,
  customerSearchQuery,
  giftCardUsagesQuery,
  locationOf,
  pagingQuery,
  readPath,
  recordKinds,
  resolveField,
  scalarLeaves,
  typeOf,
  undecidedDebitSlots,
} from '../../shared/profile/index.ts';
import { MAX_PAGE_SIZE } from '../../shared/api/primitives.ts';
import type { OperationName } from '../../shared/api/operations.ts';
import { type CommerceApiClient, type CommerceApiError, isCommerceApiError } from '../api/index.ts';
import { suggestionsFor } from './suggestions.ts';

/**
 * `kioskctl contract check` and setup's "Check the service": every read operation the kiosk
 * uses, against the configured service and account, with ids discovered from the list routes
 * and nothing written. For each value the profile reads it says where it was found, or why not,
 * and what the service returned that the profile does not use. Names, paths and types only:
 * never a value (the records hold customers' personal data).
 */

export type ContractClient = Pick<
  CommerceApiClient,
  | 'ping'
  | 'listCatalogProducts'
  | 'listCatalogChanges'
  | 'listProductItems'
  | 'listProductItemsOfProduct'
  | 'getProductItem'
  | 'listShops'
  | 'listCategories'
  | 'listProductTypes'
  | 'listCharacteristics'
  | 'listCharacteristicValues'
  | 'listSales'
  | 'getSale'
  | 'getSaleInvoice'
  | 'listSav'
  | 'getSav'
  | 'getSavLog'
  | 'listCustomers'
  | 'searchCustomers'
  | 'getCustomer'
  | 'getCustomerHistory'
  | 'listCustomerCredits'
  | 'getGiftCard'
>;

/** Records the integrator points the check at (`--gift-card`, `--customer`, `--sale`). */
export interface CheckTargets {
  readonly giftCardId?: string | undefined;
  readonly customerId?: string | undefined;
  readonly saleId?: string | undefined;
}

/** Records read per list: enough to see a field present on some and absent on others. */
const SAMPLE = 5;
/** The change-feed window read: the last day, as a kiosk a day behind reads it. */
const CHANGE_WINDOW_MS = 24 * 60 * 60 * 1000;

/** What one operation answered, and the records of each kind found in its reply. */
interface Reading {
  readonly operationId: string;
  readonly outcome: OperationReport['outcome'];
  readonly status: number | null;
  readonly note: string | null;
  readonly records: ReadonlyMap<RecordKind, readonly unknown[]>;
}

export async function checkContract(
  client: ContractClient,
  profile: IntegrationProfile,
  now: () => Date = () => new Date(),
  targets: CheckTargets = {},
): Promise<ContractReport> {
  const readings: Reading[] = [];
  // The query each list gets is the kiosk's own: the paging parameters under the profile's names
  // (none on a list the profile marks unpaged), the page size the kiosk asks for.
  const paging = (operationId: OperationName, limit = SAMPLE) =>
    pagingQuery(profile, operationId, { page: 1, limit });
  const read = async <T>(
    operationId: string,
    kind: RecordKind | null,
    call: () => Promise<T>,
    recordsOf: (reply: T) => readonly unknown[],
  ): Promise<readonly unknown[]> => {
    try {
      const reply = await call();
      const all = recordsOf(reply);
      const records = all.slice(0, SAMPLE);
      readings.push({
        operationId,
        outcome: 'ok',
        status: 200,
        note: all.length === 0 ? 'no record to read' : null,
        records: kind === null ? new Map() : withNested(profile, kind, records),
      });
      return all;
    } catch (error) {
      if (!isCommerceApiError(error)) throw error;
      readings.push(failed(operationId, error));
      return [];
    }
  };
  const skip = (operationId: string, note: string) =>
    readings.push({ operationId, outcome: 'skipped', status: null, note, records: new Map() });
  const listed = (reply: { readonly data: readonly unknown[] }) => reply.data;
  const single = (reply: unknown) => [reply];
  const idOf = (record: unknown, name: 'id' | 'uuid') => {
    const value = readPath(record, name).value;
    return typeof value === 'string' && value !== '' ? value : undefined;
  };
  const firstId = (records: readonly unknown[], name: 'id' | 'uuid') =>
    records.map((record) => idOf(record, name)).find((id) => id !== undefined);

  await read('ping', 'ping', () => client.ping(), single);

  // ---- the catalogue, as the sync reads it: the probe of each view, a change-feed window ----
  const products = await read(
    'listCatalogProducts',
    null,
    () =>
      client.listCatalogProducts({
        query: { page: 1, limit: MAX_PAGE_SIZE, displayedOnline: true },
      }),
    listed,
  );
  await read(
    'listCatalogProducts',
    null,
    () =>
      client.listCatalogProducts({
        query: { page: 1, limit: MAX_PAGE_SIZE, displayedOnline: false },
      }),
    listed,
  );
  await read(
    'listCatalogChanges',
    null,
    () =>
      client.listCatalogChanges({
        query: {
          since: new Date(now().getTime() - CHANGE_WINDOW_MS).toISOString(),
          limit: MAX_PAGE_SIZE,
          page: 1,
        },
      }),
    (reply) => reply.changes,
  );

  // ---- the item routes, on a product and an item of the catalogue ----
  const productId = firstId(products, 'uuid');
  const itemId = products
    .flatMap((product) => {
      const items = readPath(product, 'items').value;
      return Array.isArray(items) ? items : [];
    })
    .map((item) => idOf(item, 'uuid'))
    .find((id) => id !== undefined);
  await read(
    'listProductItems',
    null,
    () => client.listProductItems({ query: paging('listProductItems') }),
    listed,
  );
  if (productId === undefined) skip('listProductItemsOfProduct', 'no product in the catalogue');
  else
    await read(
      'listProductItemsOfProduct',
      null,
      () =>
        client.listProductItemsOfProduct({
          params: { productId },
          query: paging('listProductItemsOfProduct'),
        }),
      listed,
    );
  if (itemId === undefined) skip('getProductItem', 'no item in the catalogue');
  else
    await read('getProductItem', null, () => client.getProductItem({ params: { itemId } }), single);

  // ---- referentials ----
  await read('listShops', 'shop', () => client.listShops({ query: paging('listShops') }), listed);
  await read(
    'listCategories',
    'category',
    () => client.listCategories({ query: paging('listCategories') }),
    listed,
  );
  await read(
    'listProductTypes',
    'productType',
    () => client.listProductTypes({ query: paging('listProductTypes') }),
    listed,
  );
  const characteristics = await read(
    'listCharacteristics',
    'characteristic',
    () => client.listCharacteristics({ query: paging('listCharacteristics') }),
    listed,
  );
  const characteristicId = firstId(characteristics, 'id');
  if (characteristicId === undefined)
    skip('listCharacteristicValues', 'no characteristic listed to read');
  else
    await read(
      'listCharacteristicValues',
      null,
      () =>
        client.listCharacteristicValues({
          params: { characteristicId },
          query: paging('listCharacteristicValues'),
        }),
      listed,
    );

  // ---- sales ----
  const sales =
    targets.saleId === undefined
      ? await read(
          'listSales',
          'sale',
          () => client.listSales({ query: paging('listSales') }),
          listed,
        )
      : [];
  const saleIds =
    targets.saleId === undefined
      ? sales
          .slice(0, SAMPLE)
          .map((sale) => idOf(sale, 'uuid'))
          .filter((id) => id !== undefined)
      : [targets.saleId];
  if (saleIds[0] === undefined) {
    skip('getSale', 'no sale listed to read');
    skip('getSaleInvoice', 'no sale listed to read');
  } else {
    const saleId = saleIds[0];
    await read('getSale', 'sale', () => client.getSale({ params: { saleId } }), single);
    // Not every sale has an invoice yet: the first that has one.
    let invoiced = false;
    for (const id of saleIds) {
      try {
        const invoice = await client.getSaleInvoice({ params: { saleId: id } });
        readings.push({
          operationId: 'getSaleInvoice',
          outcome: 'ok',
          status: 200,
          note: null,
          records: new Map([['invoice', [invoice]]]),
        });
        invoiced = true;
        break;
      } catch (error) {
        if (!isCommerceApiError(error)) throw error;
        if (error.status === 404) continue;
        readings.push(failed('getSaleInvoice', error));
        invoiced = true;
        break;
      }
    }
    if (!invoiced) skip('getSaleInvoice', 'none of the sales read has an invoice');
  }

  // ---- after-sales: the log as the SAV screen reads it (up to 100 entries) ----
  const cases = await read(
    'listSav',
    'sav',
    () => client.listSav({ query: paging('listSav') }),
    listed,
  );
  const savId = firstId(cases, 'uuid');
  if (savId === undefined) {
    skip('getSav', 'no SAV case listed to read');
    skip('getSavLog', 'no SAV case listed to read');
  } else {
    await read('getSav', 'sav', () => client.getSav({ params: { savId } }), single);
    await read(
      'getSavLog',
      'savLogEntry',
      () => client.getSavLog({ params: { savId }, query: paging('getSavLog', SAV_LOG_LIMIT) }),
      listed,
    );
  }

  // ---- customers ----
  const customers =
    targets.customerId === undefined
      ? await read(
          'listCustomers',
          'customer',
          () => client.listCustomers({ query: paging('listCustomers') }),
          listed,
        )
      : [];
  const customerIds =
    targets.customerId === undefined
      ? customers
          .slice(0, SAMPLE)
          .map((c) => idOf(c, 'uuid'))
          .filter((id) => id !== undefined)
      : [targets.customerId];
  let giftCardId = targets.giftCardId;
  if (customerIds[0] === undefined) {
    for (const operationId of [
      'getCustomer',
      'searchCustomers',
      'getCustomerHistory',
      'listCustomerCredits',
    ])
      skip(operationId, 'no customer listed to read');
  } else {
    const customerId = customerIds[0];
    const [customer] = await read(
      'getCustomer',
      'customer',
      () =>
        client.getCustomer({
          params: { customerId },
          query: customerContactQuery(profile, true),
        }),
      single,
    );
    // The search as the customer screen sends it (the same query builder): the spec's `email`
    // and `matchMode`, and each criterion the profile names, filled from the customer just read.
    const criterion = (field: string) => {
      const found = resolveField(
        customer,
        locationOf(profile, 'customer', field),
        recordKinds.customer.fields[field as keyof typeof recordKinds.customer.fields],
      );
      return found.status === 'found' && typeof found.value === 'string' ? found.value : undefined;
    };
    const email = criterion('email');
    if (email === undefined) skip('searchCustomers', 'the customer read has no email to search');
    else {
      const criteria = Object.fromEntries(
        customerSearchCriteria.map((field) => [field, criterion(field)] as const),
      );
      await read(
        'searchCustomers',
        'customer',
        () =>
          client.searchCustomers({
            query: customerSearchQuery(profile, { email, ...criteria, page: 1, limit: SAMPLE }),
          }),
        listed,
      );
    }
    // The history as the customer screen opens it: every family the account may see, no choice.
    await read(
      'getCustomerHistory',
      'customerHistory',
      () =>
        client.getCustomerHistory({
          params: { customerId },
          query: customerHistoryQuery(profile, undefined),
        }),
      single,
    );
    // The first customer holding a gift card gives the card to read.
    for (const id of customerIds) {
      const found = await read(
        'listCustomerCredits',
        'credit',
        () =>
          client.listCustomerCredits({
            params: { customerId: id },
            query: customerCreditsQuery(profile, { page: 1, limit: SAMPLE }),
          }),
        listed,
      );
      giftCardId ??= giftCardIdAmong(profile, found);
      if (giftCardId !== undefined) break;
    }
  }
  if (giftCardId === undefined) {
    skip('getGiftCard', 'no gift card found among the customers’ credits (--gift-card <id>)');
  } else {
    const cardId = giftCardId;
    await read(
      'getGiftCard',
      'giftCard',
      () =>
        client.getGiftCard({
          params: { giftCardId: cardId },
          query: giftCardUsagesQuery(profile),
        }),
      single,
    );
  }

  return report(profile, mergeRepeats(readings), now());
}

/** The SAV screen reads the log in one request of up to this many entries. */
const SAV_LOG_LIMIT = 100;

function failed(operationId: string, error: CommerceApiError): Reading {
  return {
    operationId,
    outcome: 'error',
    status: error.status ?? null,
    note: `${error.code}: ${error.explanation}`,
    records: new Map(),
  };
}

/** The credit that is a gift card, by the profile, and the card's id. */
function giftCardIdAmong(profile: IntegrationProfile, credits: readonly unknown[]) {
  const typePaths = locationOf(profile, 'credit', 'type');
  const idPaths = locationOf(profile, 'credit', 'giftCardId');
  for (const credit of credits) {
    const type = resolveField(credit, typePaths, recordKinds.credit.fields.type);
    if (type.status !== 'found' || !profile.statuses.creditIsGiftCard.includes(String(type.value)))
      continue;
    const id = resolveField(credit, idPaths, recordKinds.credit.fields.giftCardId);
    if (id.status === 'found') return String(id.value);
  }
  return undefined;
}

/** A record's kind and the kinds of the lists it holds (a sale's lines...), found through the profile. */
function withNested(
  profile: IntegrationProfile,
  kind: RecordKind,
  records: readonly unknown[],
): Map<RecordKind, unknown[]> {
  const found = new Map<RecordKind, unknown[]>([[kind, [...records]]]);
  const fields = recordKinds[kind].fields as Record<string, FieldSpec>;
  for (const [field, spec] of Object.entries(fields)) {
    if (spec.type !== 'list') continue;
    const entries = records.flatMap((record) => {
      const resolution = resolveField(record, locationOf(profile, kind, field), spec);
      return resolution.status === 'found' ? (resolution.value as unknown[]) : [];
    });
    if (entries.length === 0) continue;
    for (const [nestedKind, nested] of withNested(profile, spec.of as RecordKind, entries))
      found.set(nestedKind, [...(found.get(nestedKind) ?? []), ...nested]);
  }
  return found;
}

/** One reading per operation: the credits of several customers count as one. */
function mergeRepeats(readings: readonly Reading[]): Reading[] {
  const merged = new Map<string, Reading>();
  for (const reading of readings) {
    const earlier = merged.get(reading.operationId);
    if (earlier === undefined || (earlier.outcome !== 'ok' && reading.outcome === 'ok')) {
      merged.set(reading.operationId, reading);
      continue;
    }
    if (reading.outcome !== 'ok') continue;
    const records = new Map(earlier.records);
    for (const [kind, list] of reading.records)
      records.set(kind, [...(records.get(kind) ?? []), ...list]);
    merged.set(reading.operationId, { ...earlier, records });
  }
  return [...merged.values()];
}

function report(
  profile: IntegrationProfile,
  readings: readonly Reading[],
  checkedAt: Date,
): ContractReport {
  const operations: OperationReport[] = readings.map((reading) => {
    const values: ValueReport[] = [];
    const used = new Set<string>(['id', 'uuid']);
    for (const [kind, records] of reading.records) {
      for (const [field, spec] of Object.entries(recordKinds[kind].fields) as [
        string,
        FieldSpec,
      ][]) {
        const value =
          records.length === 0
            ? notCheckedValue(kind, field, spec)
            : valueReport(profile, kind, field, spec, records);
        if (value.path !== null) used.add(value.path);
        values.push(value);
      }
    }
    const primary = [...reading.records.values()][0] ?? [];
    const unusedFields = [
      ...new Set(primary.flatMap((record) => scalarLeaves(record).map(([path]) => path))),
    ].filter((path) => !used.has(path));
    return {
      operationId: reading.operationId,
      status: reading.status,
      outcome: reading.outcome,
      note: reading.note,
      values,
      unusedFields,
    };
  });
  // A needed value counts once found in any reply; nothing written means no debit receipt here.
  // A value of a kind the service gave no example of (an empty usage list, a list with no
  // records) is "not checked": nothing says it is missing, and nothing says it is there.
  const sampled = new Set(
    readings.flatMap((reading) =>
      [...reading.records].filter(([, records]) => records.length > 0).map(([kind]) => kind),
    ),
  );
  const found = new Set(
    operations.flatMap((operation) =>
      operation.values.filter((v) => v.status === 'found').map((v) => `${v.record}.${v.field}`),
    ),
  );
  const kinds = (Object.keys(recordKinds) as RecordKind[]).filter(
    (kind) => kind !== 'debitReceipt',
  );
  const fieldsOf = (kind: RecordKind) =>
    (Object.entries(recordKinds[kind].fields) as [string, FieldSpec][]).map(
      ([field, spec]) => [`${kind}.${field}`, spec] as const,
    );
  const notChecked = kinds
    .filter((kind) => !sampled.has(kind))
    .flatMap((kind) => fieldsOf(kind).map(([name]) => name))
    .filter((name) => !found.has(name));
  const missingNeeded = kinds
    .filter((kind) => sampled.has(kind))
    .flatMap((kind) => fieldsOf(kind).filter(([, spec]) => spec.needed === true))
    .map(([name]) => name)
    .filter((name) => !found.has(name));
  // Where a parent was read but held none of a nested kind (a card with no usages), say so there.
  for (const operation of operations) {
    const reading = readings.find((r) => r.operationId === operation.operationId);
    if (reading === undefined || reading.outcome !== 'ok') continue;
    for (const kind of reading.records.keys())
      for (const spec of Object.values(recordKinds[kind].fields) as FieldSpec[]) {
        if (spec.type !== 'list') continue;
        const nested = spec.of as RecordKind;
        if (sampled.has(nested) || operation.values.some((v) => v.record === nested)) continue;
        for (const [nestedField, nestedSpec] of Object.entries(recordKinds[nested].fields) as [
          string,
          FieldSpec,
        ][])
          operation.values.push(notCheckedValue(nested, nestedField, nestedSpec));
      }
  }
  const refused = operations
    .filter(
      (operation) =>
        operation.outcome === 'error' &&
        operation.status !== null &&
        operation.status >= 400 &&
        operation.status < 500,
    )
    .map((operation) => `${operation.operationId}: ${operation.status}`);
  const debitBodyUndecided = undecidedDebitSlots(profile);
  return {
    profileName: profile.name,
    checkedAt: checkedAt.toISOString(),
    ok: missingNeeded.length === 0 && refused.length === 0 && debitBodyUndecided.length === 0,
    operations,
    missingNeeded,
    notChecked,
    refused,
    debitBodyUndecided,
  };
}

/** A value the service gave no example of: neither found nor missing. */
function notCheckedValue(kind: RecordKind, field: string, spec: FieldSpec): ValueReport {
  return {
    record: kind,
    field,
    needed: spec.needed === true,
    status: 'not-checked',
    path: null,
    typeFound: null,
    suggestions: [],
  };
}

function valueReport(
  profile: IntegrationProfile,
  kind: RecordKind,
  field: string,
  spec: FieldSpec,
  records: readonly unknown[],
): ValueReport {
  const paths = locationOf(profile, kind, field);
  const base = { record: kind, field, needed: spec.needed === true };
  const resolutions = records.map((record) => resolveField(record, paths, spec));
  const hit = resolutions.find((resolution) => resolution.status === 'found');
  if (hit?.status === 'found')
    return {
      ...base,
      status: 'found',
      path: hit.path,
      typeFound: spec.type === 'list' ? 'array' : typeOf(hit.value),
      suggestions: [],
    };
  if (paths === null)
    return { ...base, status: 'not-provided', path: null, typeFound: null, suggestions: [] };
  const suggestions = suggestionsFor(field, spec, records);
  const wrong = resolutions.find((resolution) => resolution.status === 'wrong-type');
  if (wrong?.status === 'wrong-type')
    return {
      ...base,
      status: 'wrong-type',
      path: wrong.path,
      typeFound: wrong.typeFound,
      suggestions,
    };
  return { ...base, status: 'missing', path: null, typeFound: null, suggestions };
}
