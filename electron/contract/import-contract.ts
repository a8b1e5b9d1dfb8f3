import { dereference } from '@readme/openapi-parser';
import openApiDocument from '../../shared/api/openapi.json' with { type: 'json' };
import { type OperationName, operations } from '../../shared/api/operations.ts';
import type { Operation } from '../../shared/api/operation.ts';
import {
  customerSearchCriteria,
  type FieldSpec,
  type IntegrationProfile,
  type RecordKind,
  UNDECIDED,
  locationOf,
  recordKinds,
} from '../../shared/profile/index.ts';
import { deriveRecord } from './derive-record.ts';
import {
  ContractDocumentError,
  type ReadDocumentOptions,
  readVendorDocument,
} from './vendor-document.ts';
import { type Schema, at, componentSchemasOf, fits, lastSegment, leaves } from './vendor-schema.ts';

/**
 * `kioskctl contract import`: the vendor's OpenAPI 3.0 document (the spec's priority source)
 * against what the kiosk assumes: its operations and their query parameters (the project's own
 * contract document), the debit body and every record the profile reads. The document is read
 * bounded and parsed with YAML aliases limited (vendor-document.ts), a maintained parser
 * dereferences it (inside the document only, unless `allowLocalRefs`); the comparison and the
 * derived profile are ours, and walk a bounded part of it whatever its references share.
 */

export interface ContractDifference {
  /** `GET /v1/sales`, `debit body`, `giftCard.balance`... */
  readonly where: string;
  readonly message: string;
}

export interface ImportResult {
  readonly differences: ContractDifference[];
  /** A profile derived from the document: the current one's choices where the document allows them. */
  readonly profile: IntegrationProfile;
  /** `record.field` (and settings) the document could not decide: marked "?" in the profile. */
  readonly undecided: string[];
  /**
   * `record.field` filled with the only unclaimed property of its type in a closed record, nothing
   * in the document naming it: right by elimination, to confirm with `contract check`.
   */
  readonly guessed: string[];
}

type OperationObject = {
  readonly operationId?: string;
  readonly parameters?: readonly {
    readonly name: string;
    readonly in: string;
    readonly required?: boolean;
  }[];
  readonly requestBody?: { readonly content?: Record<string, { readonly schema?: Schema }> };
  readonly responses?: Record<
    string,
    { readonly content?: Record<string, { readonly schema?: Schema }> }
  >;
};
type Document = {
  readonly openapi?: unknown;
  readonly info?: { readonly title?: unknown; readonly version?: unknown };
  readonly components?: { readonly schemas?: unknown };
  readonly paths?: Record<string, Record<string, OperationObject>>;
};

/** Where each record kind the profile reads comes from: the operation, and `data[]` for a list. */
const recordSources: readonly [RecordKind, OperationName, 'record' | 'list'][] = [
  ['ping', 'ping', 'record'],
  ['shop', 'listShops', 'list'],
  ['category', 'listCategories', 'list'],
  ['productType', 'listProductTypes', 'list'],
  ['characteristic', 'listCharacteristics', 'list'],
  ['sale', 'getSale', 'record'],
  ['invoice', 'getSaleInvoice', 'record'],
  ['sav', 'getSav', 'record'],
  ['savLogEntry', 'getSavLog', 'list'],
  ['customer', 'getCustomer', 'record'],
  ['credit', 'listCustomerCredits', 'list'],
  ['customerHistory', 'getCustomerHistory', 'record'],
  ['giftCard', 'getGiftCard', 'record'],
  ['debitReceipt', 'debitGiftCard', 'record'],
];

export async function importContract(
  source: string,
  current: IntegrationProfile,
  options: ReadDocumentOptions = {},
): Promise<ImportResult> {
  const read = await readVendorDocument(source, options);
  if (typeof read !== 'object' || read === null)
    throw new ContractDocumentError(
      source,
      'not an OpenAPI 3 document (no "openapi": "3.x" and paths)',
    );
  const vendor = read as Document;
  if (typeof vendor.openapi !== 'string' || !vendor.openapi.startsWith('3.') || !vendor.paths)
    throw new ContractDocumentError(
      source,
      'not an OpenAPI 3 document (no "openapi": "3.x" and paths)',
    );
  // The committed contract document (shared/api/openapi.json): dereference() rewrites what it is
  // given, and the imported module is shared, so it works on a copy.
  const ours = (await dereference(
    structuredClone(openApiDocument as Document) as never,
  )) as Document;
  const differences: ContractDifference[] = [];
  const undecided: string[] = [];
  const guessed: string[] = [];

  // ---- operations and their query parameters ----
  for (const operation of Object.values(operations)) {
    const where = `${operation.method} ${operation.path}`;
    const theirs = vendor.paths?.[operation.path]?.[operation.method.toLowerCase()];
    if (theirs === undefined) {
      differences.push({ where, message: 'not in the vendor contract' });
      continue;
    }
    const mine = ours.paths?.[operation.path]?.[operation.method.toLowerCase()];
    const queryOf = (o: OperationObject | undefined) =>
      parametersOf(o).filter((p) => p.in === 'query');
    const theirNames = new Set(queryOf(theirs).map((p) => p.name));
    const myNames = new Set(queryOf(mine).map((p) => p.name));
    const unknown = [...myNames].filter((name) => !theirNames.has(name));
    if (unknown.length > 0)
      differences.push({
        where,
        message: `the kiosk assumes query parameter${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}; the contract declares ${[...theirNames].join(', ') || 'none'}`,
      });
    for (const parameter of queryOf(theirs))
      if (parameter.required && !myNames.has(parameter.name))
        differences.push({ where, message: `requires query parameter ${parameter.name}` });
  }

  // ---- the records the profile reads, and a profile derived from the document ----
  const records: Record<string, Record<string, unknown>> = {};
  const schemas = new Map<RecordKind, Schema>();
  for (const [kind, operationId, shape] of recordSources) {
    const operation = operations[operationId];
    const reply = replySchema(vendor.paths?.[operation.path]?.[operation.method.toLowerCase()]);
    const schema = shape === 'list' ? at(reply, 'data')?.items : reply;
    if (schema !== undefined) schemas.set(kind, schema);
  }
  const components = componentSchemasOf(vendor);
  const derive = (kind: RecordKind, schema: Schema) => {
    const specs = Object.entries(recordKinds[kind].fields) as [string, FieldSpec][];
    for (const [field, spec] of specs) {
      const assumed = locationOf(current, kind, field);
      if (assumed !== null && !assumed.some((path) => fits(at(schema, path), spec.type)))
        differences.push({
          where: `${kind}.${field}`,
          message: `the profile reads ${assumed.join(' | ')}; the contract has no ${spec.type} there`,
        });
    }
    const derived = deriveRecord(kind, schema, current, components);
    for (const [field, path] of Object.entries(derived.fields)) {
      if (path === UNDECIDED) undecided.push(`${kind}.${field}`);
      const spec = recordKinds[kind].fields[field as never] as FieldSpec;
      if (spec.type === 'list' && typeof path === 'string') {
        const items = at(schema, path)?.items;
        if (items !== undefined && !schemas.has(spec.of as RecordKind))
          schemas.set(spec.of as RecordKind, items);
      }
    }
    for (const field of derived.guessed) guessed.push(`${kind}.${field}`);
    records[kind] = derived.fields;
  };
  // Parents first: their lists give the schemas of the nested kinds.
  for (const [kind] of recordSources) {
    const schema = schemas.get(kind);
    if (schema === undefined) {
      differences.push({ where: kind, message: 'no reply schema in the contract' });
      continue;
    }
    derive(kind, schema);
  }
  for (const kind of Object.keys(recordKinds) as RecordKind[]) {
    if (records[kind] !== undefined) continue;
    const schema = schemas.get(kind);
    if (schema !== undefined) {
      derive(kind, schema);
      continue;
    }
    // No schema: a nested kind whose every list the document says is absent (null) is never
    // read, so it is not provided either; otherwise (its route, or its parent's list, not
    // described) nothing decides it: "?" for a person.
    const lists = Object.entries(records).flatMap(([parent, fields]) =>
      Object.entries(recordKinds[parent as RecordKind].fields)
        .filter(
          ([, spec]) => (spec as FieldSpec).type === 'list' && (spec as { of: string }).of === kind,
        )
        .map(([field]) => fields[field]),
    );
    const absent = lists.length > 0 && lists.every((path) => path === null);
    records[kind] = Object.fromEntries(
      Object.keys(recordKinds[kind].fields).map((field) => [field, absent ? null : UNDECIDED]),
    );
    if (!absent)
      for (const field of Object.keys(recordKinds[kind].fields)) undecided.push(`${kind}.${field}`);
  }

  // ---- the debit body ----
  const debitOperation = operations.debitGiftCard;
  const body = requestSchema(
    vendor.paths?.[debitOperation.path]?.[debitOperation.method.toLowerCase()],
  );
  const template = current.giftCardDebit.body;
  const bodyLeaves = leaves(body);
  for (const [value, path] of Object.entries(template) as [string, string | null][]) {
    if (path !== null && !bodyLeaves.has(path))
      differences.push({
        where: 'debit body',
        message: `the profile puts ${value} at ${path}; the contract's body has no ${path}`,
      });
  }
  const pick = (names: readonly string[], type: 'number' | 'string') =>
    [...bodyLeaves.keys()].find(
      (path) => names.includes(lastSegment(path)) && bodyLeaves.get(path) === type,
    ) ?? null;
  const amount = pick(['amount', 'value', 'sum'], 'number');
  if (amount === null) undecided.push('giftCardDebit.body.amount');
  const derivedBody = {
    amount: amount ?? UNDECIDED,
    currency: pick(['currency', 'currencyCode'], 'string'),
    reference: pick(
      ['reference', 'memo', 'comment', 'label', 'note', 'externalReference'],
      'string',
    ),
    shopId: pick(['shopId', 'storeId', 'shop', 'store'], 'string'),
  };

  // ---- parameter names and status words ----
  const queryOf = (operation: Operation) =>
    new Set(
      parametersOf(vendor.paths?.[operation.path]?.[operation.method.toLowerCase()])
        .filter((p) => p.in === 'query')
        .map((p) => p.name),
    );
  const described = (operation: Operation) =>
    vendor.paths?.[operation.path]?.[operation.method.toLowerCase()] !== undefined;
  const lists = Object.values(operations).filter((operation) => operation.pagination === 'list');
  const listParameters = new Set(lists.flatMap((operation) => [...queryOf(operation)]));
  const parameter = (names: readonly string[]) =>
    names.find((name) => listParameters.has(name)) ?? null;
  const page = parameter(['page', 'pageNumber', 'pageIndex', 'p']);
  const limit = parameter(['limit', 'pageSize', 'perPage', 'size']);
  // A list the vendor documents without either paging parameter would refuse them (unknown): it
  // is unpaged. A list the document does not describe at all is not decided: it stays paged as
  // the kiosk pages by default, and is listed for a person ("?").
  const unpaged = lists
    .filter((operation) => {
      if (!described(operation)) {
        undecided.push(`parameters.unpaged: ${operation.operationId}`);
        return false;
      }
      const query = queryOf(operation);
      return ![page, limit].some((name) => name !== null && query.has(name));
    })
    .map((operation) => operation.operationId);

  // Customer-search criteria: the names the document declares on the search (besides the spec's
  // email and matchMode, and paging); a criterion it does not declare is not sent (null). An
  // undescribed search keeps the current names, for a person to decide.
  const search = operations.searchCustomers;
  const searchDeclared = queryOf(search);
  const customerSearch = described(search)
    ? (Object.fromEntries(
        customerSearchCriteria.map((criterion) => {
          const names = [criterion, ...criterionSynonyms[criterion]];
          const name =
            names.find((n) => searchDeclared.has(n)) ??
            [...searchDeclared].find((n) => names.some((m) => m.toLowerCase() === n.toLowerCase()));
          return [criterion, name ?? null];
        }),
      ) as IntegrationProfile['parameters']['customerSearch'])
    : current.parameters.customerSearch;
  if (!described(search)) undecided.push('parameters.customerSearch');

  // `include` values: what the document declares on the route (the parameter and, where it lists
  // them, its enum). A described route that declares no such parameter takes none (null).
  const includeOf = (operation: Operation) =>
    parametersOf(vendor.paths?.[operation.path]?.[operation.method.toLowerCase()]).find(
      (p) => p.in === 'query' && p.name === 'include',
    );
  const valuesOf = (declared: ReturnType<typeof includeOf>): string[] => {
    const schema = (declared as { schema?: Schema } | undefined)?.schema;
    const items = schema?.type === 'array' ? schema.items : schema;
    return (items?.enum ?? []).filter((v): v is string => typeof v === 'string');
  };
  const includeChoice = (
    operation: Operation,
    wanted: RegExp,
    kept: { name: string; value: string } | null,
    setting: string,
  ) => {
    if (!described(operation)) {
      undecided.push(setting);
      return kept;
    }
    const declared = includeOf(operation);
    if (declared === undefined) return null;
    const values = valuesOf(declared);
    const value = values.find((v) => wanted.test(v));
    if (value !== undefined) return { name: declared.name, value };
    // Declared with values that hold none for this: not taken.
    if (values.length > 0) return null;
    undecided.push(setting);
    return kept;
  };
  const customerContact = includeChoice(
    operations.getCustomer,
    /^contacts?$/i,
    current.parameters.customerContact,
    'parameters.customerContact',
  );
  const giftCardUsages = includeChoice(
    operations.getGiftCard,
    /^(usages?|movements?|transactions?)$/i,
    current.parameters.giftCardUsages,
    'parameters.giftCardUsages',
  );
  const history = operations.getCustomerHistory;
  let customerHistory = current.parameters.customerHistory;
  if (!described(history)) undecided.push('parameters.customerHistory');
  else {
    const declared = includeOf(history);
    const values = valuesOf(declared);
    if (declared === undefined) customerHistory = null;
    else if (values.length > 0) {
      const family = (pattern: RegExp) => values.find((v) => pattern.test(v)) ?? null;
      customerHistory = {
        name: declared.name,
        families: {
          sales: family(/^sales?$/i),
          orders: family(/^orders?$/i),
          sav: family(/^(sav|after-?sales?|repairs?)$/i),
          credits: family(/^credits?$/i),
        },
      };
    } else undecided.push('parameters.customerHistory');
  }
  const words = (kind: RecordKind, field: string, pattern: RegExp, fallback: readonly string[]) => {
    const path = records[kind]?.[field];
    const values = typeof path === 'string' ? (at(schemas.get(kind), path)?.enum ?? []) : [];
    const matching = values.filter((v): v is string => typeof v === 'string' && pattern.test(v));
    if (values.length === 0) return [...fallback];
    if (matching.length === 0) undecided.push(`statuses of ${kind}.${field}`);
    return matching.length > 0 ? matching : [UNDECIDED];
  };

  const profile = {
    $schema: current.$schema,
    profileVersion: 1,
    name: profileNameOf(vendor, source),
    records,
    statuses: {
      giftCardDebitable: words(
        'giftCard',
        'status',
        /^(active|valid|open|enabled)$/i,
        current.statuses.giftCardDebitable,
      ),
      creditIsGiftCard: words('credit', 'type', /gift/i, current.statuses.creditIsGiftCard),
      customerIsCompany: words(
        'customer',
        'customerType',
        /company|business|professional|corporate/i,
        current.statuses.customerIsCompany,
      ),
    },
    giftCardDebit: { body: derivedBody },
    parameters: {
      ...current.parameters,
      page,
      limit,
      unpaged,
      giftCardUsages,
      customerContact,
      customerHistory,
      customerSearch,
    },
    scan: current.scan,
  } as IntegrationProfile;
  return { differences, profile, undecided, guessed };
}

export { ContractDocumentError };

/** Other names a vendor gives each customer-search criterion. */
const criterionSynonyms: Record<(typeof customerSearchCriteria)[number], readonly string[]> = {
  lastName: ['last_name', 'lastname', 'surname', 'familyName', 'family', 'name'],
  firstName: ['first_name', 'firstname', 'givenName', 'given'],
  phone: ['phoneNumber', 'phone_number', 'tel', 'telephone', 'mobile'],
  postalCode: ['postal_code', 'postcode', 'zip', 'zipCode', 'zip_code'],
};

/**
 * The derived profile's name, from the document's `info.title` and `info.version` (what
 * `kioskctl status` and `kiosk_build_info` show: two vendors' profiles must be told apart); the
 * file name only when the document names neither.
 */
function profileNameOf(vendor: Document, source: string): string {
  const title = typeof vendor.info?.title === 'string' ? vendor.info.title.trim() : '';
  const version = typeof vendor.info?.version === 'string' ? vendor.info.version.trim() : '';
  const named = [title, version === '' ? '' : `v${version.replace(/^v/i, '')}`]
    .filter((part) => part !== '')
    .join(' ');
  const name = named === '' ? `derived from ${lastSegment(source.replaceAll('/', '.'))}` : named;
  return name.slice(0, 120);
}

/** An operation's parameters, whatever a hostile document puts there. */
function parametersOf(
  operation: OperationObject | undefined,
): NonNullable<OperationObject['parameters']> {
  const parameters = operation?.parameters;
  return Array.isArray(parameters)
    ? parameters.filter((p) => typeof p === 'object' && p !== null && typeof p.name === 'string')
    : [];
}

function replySchema(operation: OperationObject | undefined): Schema | undefined {
  return operation?.responses?.['200']?.content?.['application/json']?.schema;
}

function requestSchema(operation: OperationObject | undefined): Schema | undefined {
  return operation?.requestBody?.content?.['application/json']?.schema;
}
