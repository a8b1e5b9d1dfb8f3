import {
  type FieldSpec,
  type IntegrationProfile,
  type RecordKind,
  UNDECIDED,
  locationOf,
  recordKinds,
} from '../../shared/profile/index.ts';
import {
  type Schema,
  at,
  fits,
  isClosed,
  lastSegment,
  leaves,
  propertiesOf,
  typeOfSchema,
} from './vendor-schema.ts';

/**
 * Where one record kind's values live in the vendor's schema of that record, as `contract import`
 * derives it. The document decides a field, in this order:
 *
 * 1. by name: the current profile's path, a property whose own description names the field
 *    ("The sale's total" is the total, whatever its name suggests), the field's name, a synonym;
 * 2. in a closed record only (`additionalProperties: false`: the document lists everything the
 *    service sends), among the properties no field claimed: one whose name abbreviates the
 *    field's name or a synonym (`tel` for telephone, `ref` for reference, `left` for amountLeft);
 * 3. then by elimination, never for money: the only unclaimed property of exactly the field's
 *    type (a date-time for a date-time, a plain string for a text), when the field is the only one
 *    of that type still open or one the kiosk cannot work without. These are reported as guessed;
 * 4. what is left is `null` (not provided); a money value with an unclaimed amount still in the
 *    record is "?", since an amount is never taken by elimination.
 *
 * An open record is a partial description: what step 1 does not find stays "?".
 */

export interface DerivedRecord {
  /** Each field's path, `null` (not provided) or "?" (undecided). */
  readonly fields: Record<string, string | null>;
  /** Fields filled by elimination (step 3): the document names nothing there. */
  readonly guessed: string[];
}

export function deriveRecord(
  kind: RecordKind,
  schema: Schema,
  current: IntegrationProfile,
  components: ReadonlySet<object>,
): DerivedRecord {
  const specs = Object.entries(recordKinds[kind].fields) as [string, FieldSpec][];
  const candidates = candidatePaths(schema);
  const described = describedFields(specs, schema, candidates, components);
  const fields: Record<string, string | null> = {};
  const guessed: string[] = [];
  const claimed = new Set<string>();
  const assign = (field: string, path: string) => {
    fields[field] = path;
    claimed.add(path);
  };
  const open = () => specs.filter(([field]) => !(field in fields));

  for (const [field, spec] of specs) {
    const path = namedPath(schema, field, spec, locationOf(current, kind, field), described);
    if (path !== undefined) assign(field, path);
  }
  if (!isClosed(schema)) {
    for (const [field] of open()) fields[field] = UNDECIDED;
    return { fields, guessed };
  }
  const free = (spec: FieldSpec) =>
    candidates.filter(
      (path) => !claimed.has(path) && !identities.has(path) && fitsExactly(at(schema, path), spec),
    );

  for (const [field, spec] of open()) {
    const similar = free(spec).filter((path) => abbreviates(lastSegment(path), field, spec));
    if (similar.length !== 1) continue;
    const [path] = similar as [string];
    const rivals = open().filter(
      ([other, otherSpec]) =>
        other !== field &&
        fitsExactly(at(schema, path), otherSpec) &&
        abbreviates(lastSegment(path), other, otherSpec),
    );
    if (rivals.length === 0) assign(field, path);
  }

  const neededFirst = [...open()].sort(([, a], [, b]) => rank(a) - rank(b));
  for (const [field, spec] of neededFirst) {
    if (spec.type === 'money' || spec.type === 'list' || field in fields) continue;
    const left = free(spec).filter((path) => !hasEnum(at(schema, path)));
    const sameType = open().filter(([, other]) => other.type === spec.type);
    if (left.length === 1 && (spec.needed === true || sameType.length === 1)) {
      assign(field, left[0]!);
      guessed.push(field);
    }
  }

  for (const [field, spec] of open())
    fields[field] = spec.type === 'money' && free(spec).length > 0 ? UNDECIDED : null;
  return { fields, guessed };
}

/** A record's own identifier is never another value's candidate. */
const identities = new Set(['id', 'uuid']);

const rank = (spec: FieldSpec) => (spec.needed === true ? 0 : 1);

/** Step 1: what the document names (the current profile's choice first, where it fits). */
function namedPath(
  schema: Schema,
  field: string,
  spec: FieldSpec,
  assumed: readonly string[] | null,
  described: ReadonlyMap<string, string>,
): string | undefined {
  const fitting = (path: string) => fits(at(schema, path), spec.type);
  const kept = assumed?.find(fitting);
  if (kept !== undefined) return kept;
  const describedAs = [...described]
    .filter(([path, named]) => named === field && fitting(path))
    .map(([path]) => path);
  if (describedAs.length === 1) return describedAs[0];
  // A property described as another field is that field's, whatever its name.
  const available = (path: string) => fitting(path) && (described.get(path) ?? field) === field;
  if (available(field)) return field;
  const paths =
    spec.type === 'list' ? Object.keys(propertiesOf(schema)) : [...leaves(schema).keys()];
  for (const name of [field, ...(spec.synonyms ?? [])]) {
    const match = paths.find((path) => lastSegment(path) === name && available(path));
    if (match !== undefined) return match;
  }
  return undefined;
}

/** The record's scalar leaves and its lists: what a field may be read from. */
function candidatePaths(schema: Schema): string[] {
  const lists = Object.entries(propertiesOf(schema))
    .filter(([, child]) => typeOfSchema(child) === 'array')
    .map(([name]) => name);
  return [...leaves(schema).keys(), ...lists];
}

/**
 * The properties whose own description names exactly one of the record's fields, of exactly its
 * type: `due` "The sale's total, taxes included." is the total. A description a property takes
 * from a shared component (`Money`: "An amount in euros") says what the type is, not which value,
 * and is not read; nor are one- and two-letter field names, which prose uses as words.
 */
function describedFields(
  specs: readonly [string, FieldSpec][],
  schema: Schema,
  candidates: readonly string[],
  components: ReadonlySet<object>,
): Map<string, string> {
  const described = new Map<string, string>();
  for (const path of candidates) {
    const node = at(schema, path);
    if (node === undefined || components.has(node) || typeof node.description !== 'string')
      continue;
    const words = ` ${wordsOf(node.description).join(' ')} `;
    const named = specs.filter(
      ([field, spec]) =>
        field.length > 2 &&
        fitsExactly(node, spec) &&
        words.includes(` ${wordsOf(field).join(' ')} `),
    );
    if (named.length === 1) described.set(path, named[0]![0]);
  }
  return described;
}

/** `remainingToPay` → remaining, to, pay; prose → its words. */
const wordsOf = (text: string) =>
  text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== '');

/** A property named as a prefix or suffix (3 letters or more) of the field's name or a synonym. */
function abbreviates(name: string, field: string, spec: FieldSpec): boolean {
  const short = normalise(name);
  if (short.length < 3) return false;
  return [field, ...(spec.synonyms ?? [])]
    .map(normalise)
    .some((long) => long !== short && (long.startsWith(short) || long.endsWith(short)));
}

const normalise = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, '');

/** The field's type exactly: a date-time is not a text, nor a date a date-time. */
function fitsExactly(schema: Schema | undefined, spec: FieldSpec): boolean {
  if (!fits(schema, spec.type)) return false;
  const format = formatOf(schema);
  switch (spec.type) {
    case 'datetime':
      return format === 'date-time';
    case 'date':
      return format === 'date';
    case 'text':
      return format !== 'date' && format !== 'date-time';
    default:
      return true;
  }
}

/** A string's `format`, through `allOf` wrappers. */
function formatOf(schema: Schema | undefined, depth = 0): string | undefined {
  if (schema === undefined || typeof schema !== 'object' || depth > 8) return undefined;
  if (typeof schema.format === 'string') return schema.format;
  const parts = Array.isArray(schema.allOf) ? schema.allOf.slice(0, 16) : [];
  for (const part of parts) {
    const format = formatOf(part, depth + 1);
    if (format !== undefined) return format;
  }
  return undefined;
}

/** A closed set of words is a status or a kind, never a number or a name. */
function hasEnum(schema: Schema | undefined, depth = 0): boolean {
  if (schema === undefined || typeof schema !== 'object' || depth > 8) return false;
  if (Array.isArray(schema.enum)) return true;
  return (Array.isArray(schema.allOf) ? schema.allOf.slice(0, 16) : []).some((part) =>
    hasEnum(part, depth + 1),
  );
}
