import type {
  ContractReport,
  FieldSpec,
  IntegrationProfile,
  OperationReport,
  RecordKind,
  ValueReport,
} from '../../shared/profile/index.ts';
import {
  locationOf,
  pagingQuery,
  readPath,
  recordKinds,
  resolveField,
  scalarLeaves,
  typeOf,
} from '../../shared/profile/index.ts';
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
  | 'listShops'
  | 'listCategories'
  | 'listProductTypes'
  | 'listCharacteristics'
  | 'listSales'
  | 'getSale'
  | 'getSaleInvoice'
  | 'listSav'
  | 'getSav'
  | 'getSavLog'
  | 'listCustomers'
  | 'getCustomer'
  | 'getCustomerHistory'
  | 'listCustomerCredits'
  | 'getGiftCard'
>;

/** Records read per list: enough to see a field present on some and absent on others. */
const SAMPLE = 5;

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
): Promise<ContractReport> {
  const readings: Reading[] = [];
  const paging = (operationId: OperationName) =>
    pagingQuery(profile, operationId, { page: 1, limit: SAMPLE });
  const read = async <T>(
    operationId: string,
    kind: RecordKind,
    call: () => Promise<T>,
    recordsOf: (reply: T) => readonly unknown[],
  ): Promise<readonly unknown[]> => {
    try {
      const reply = await call();
      const records = recordsOf(reply).slice(0, SAMPLE);
      readings.push({
        operationId,
        outcome: 'ok',
        status: 200,
        note: records.length === 0 ? 'no record to read' : null,
        records: withNested(profile, kind, records),
      });
      return records;
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

  await read('ping', 'ping', () => client.ping(), single);
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
  await read(
    'listCharacteristics',
    'characteristic',
    () => client.listCharacteristics({ query: paging('listCharacteristics') }),
    listed,
  );

  const sales = await read(
    'listSales',
    'sale',
    () => client.listSales({ query: paging('listSales') }),
    listed,
  );
  const saleIds = sales.map((sale) => idOf(sale, 'uuid')).filter((id) => id !== undefined);
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
    if (!invoiced) skip('getSaleInvoice', 'none of the sales listed has an invoice');
  }

  const cases = await read(
    'listSav',
    'sav',
    () => client.listSav({ query: paging('listSav') }),
    listed,
  );
  const savId = cases.map((sav) => idOf(sav, 'uuid')).find((id) => id !== undefined);
  if (savId === undefined) {
    skip('getSav', 'no SAV case listed to read');
    skip('getSavLog', 'no SAV case listed to read');
  } else {
    await read('getSav', 'sav', () => client.getSav({ params: { savId } }), single);
    await read(
      'getSavLog',
      'savLogEntry',
      () => client.getSavLog({ params: { savId }, query: paging('getSavLog') }),
      listed,
    );
  }

  const customers = await read(
    'listCustomers',
    'customer',
    () => client.listCustomers({ query: paging('listCustomers') }),
    listed,
  );
  const customerIds = customers.map((c) => idOf(c, 'uuid')).filter((id) => id !== undefined);
  let giftCardId: string | undefined;
  if (customerIds[0] === undefined) {
    for (const operationId of ['getCustomer', 'getCustomerHistory', 'listCustomerCredits'])
      skip(operationId, 'no customer listed to read');
  } else {
    const customerId = customerIds[0];
    await read(
      'getCustomer',
      'customer',
      () => client.getCustomer({ params: { customerId }, query: { include: 'contact' } }),
      single,
    );
    await read(
      'getCustomerHistory',
      'customerHistory',
      () => client.getCustomerHistory({ params: { customerId } }),
      single,
    );
    // The first customer holding a gift card gives the card to read.
    const credits: unknown[] = [];
    for (const id of customerIds) {
      const found = await read(
        'listCustomerCredits',
        'credit',
        () =>
          client.listCustomerCredits({
            params: { customerId: id },
            query: paging('listCustomerCredits'),
          }),
        listed,
      );
      credits.push(...found);
      giftCardId = giftCardIdAmong(profile, found);
      if (giftCardId !== undefined) break;
    }
  }
  if (giftCardId === undefined) {
    skip('getGiftCard', 'no gift card found among the customers’ credits');
  } else {
    const usages = profile.parameters.giftCardUsages;
    const cardId = giftCardId;
    await read(
      'getGiftCard',
      'giftCard',
      () =>
        client.getGiftCard({
          params: { giftCardId: cardId },
          query: usages === null ? {} : { [usages.name]: usages.value },
        }),
      single,
    );
  }

  return report(profile, mergeRepeats(readings), now());
}

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
        const value = valueReport(profile, kind, field, spec, records);
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
  const found = new Set(
    operations.flatMap((operation) =>
      operation.values.filter((v) => v.status === 'found').map((v) => `${v.record}.${v.field}`),
    ),
  );
  const missingNeeded = (Object.keys(recordKinds) as RecordKind[])
    .filter((kind) => kind !== 'debitReceipt')
    .flatMap((kind) =>
      (Object.entries(recordKinds[kind].fields) as [string, FieldSpec][])
        .filter(([, spec]) => spec.needed === true)
        .map(([field]) => `${kind}.${field}`),
    )
    .filter((name) => !found.has(name));
  return {
    profileName: profile.name,
    checkedAt: checkedAt.toISOString(),
    ok: missingNeeded.length === 0,
    operations,
    missingNeeded,
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
