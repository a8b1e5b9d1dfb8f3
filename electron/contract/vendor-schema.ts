import type { ValueType } from '../../shared/profile/index.ts';

/**
 * The parts of a vendor's (dereferenced) JSON Schema that `contract import` reads, and the walks
 * over them: each bounded, since a hostile or circular document shares schemas freely.
 */

export type Schema = {
  readonly type?: string;
  readonly additionalProperties?: unknown;
  readonly format?: string;
  readonly properties?: Readonly<Record<string, Schema>>;
  readonly items?: Schema;
  readonly allOf?: readonly Schema[];
  readonly enum?: readonly unknown[];
  readonly required?: readonly string[];
  readonly description?: unknown;
};

/** A schema that allows no property beyond those it lists (every `allOf` part closed counts too). */
export function isClosed(schema: Schema): boolean {
  if (schema.additionalProperties === false) return true;
  return (
    Array.isArray(schema.allOf) &&
    schema.allOf.some((part) => typeof part === 'object' && part?.additionalProperties === false)
  );
}

/**
 * The properties of a schema, `allOf` merged (a few levels deep: a dereferenced document may be
 * circular, or share one schema under many `allOf`s).
 */
export function propertiesOf(schema: Schema | undefined, depth = 0): Record<string, Schema> {
  if (schema === undefined || typeof schema !== 'object' || depth > MAX_ALLOF_DEPTH) return {};
  const parts = Array.isArray(schema.allOf) ? schema.allOf.slice(0, MAX_ALLOF_PARTS) : [];
  const properties =
    typeof schema.properties === 'object' && schema.properties !== null ? schema.properties : {};
  return Object.assign({}, ...parts.map((part) => propertiesOf(part, depth + 1)), properties);
}

const MAX_ALLOF_DEPTH = 8;
const MAX_ALLOF_PARTS = 16;
/** Leaf paths collected from one schema: a record or a debit body has tens. */
const MAX_LEAVES = 2_000;

/** The schema at a dotted path. */
export function at(schema: Schema | undefined, path: string): Schema | undefined {
  let node = schema;
  for (const segment of path.split('.')) node = propertiesOf(node)[segment];
  return node;
}

/**
 * Every scalar leaf path of a schema (nested objects followed, arrays not) and its type; at most
 * MAX_LEAVES of them, so that schemas sharing one another (a `$ref` fan-out) cost a bounded walk.
 */
export function leaves(
  schema: Schema | undefined,
  prefix = '',
  depth = 0,
  found = new Map<string, string>(),
): Map<string, string> {
  if (depth > 4) return found;
  for (const [name, child] of Object.entries(propertiesOf(schema))) {
    if (found.size >= MAX_LEAVES) break;
    if (typeof child !== 'object' || child === null) continue;
    const path = prefix === '' ? name : `${prefix}.${name}`;
    const type = typeOfSchema(child);
    if (type === 'object') leaves(child, path, depth + 1, found);
    else if (typeof type === 'string') found.set(path, type === 'integer' ? 'number' : type);
  }
  return found;
}

/**
 * A schema's type, following `allOf` / `oneOf` / `anyOf` down to a scalar (`$ref`s are already
 * dereferenced): `{ allOf: [{ $ref: Money }], description }` is a number. A `oneOf` whose
 * branches disagree has no single type.
 */
export function typeOfSchema(schema: Schema | undefined, depth = 0): string | undefined {
  if (schema === undefined || typeof schema !== 'object' || depth > MAX_ALLOF_DEPTH)
    return undefined;
  if (typeof schema.type === 'string') return schema.type;
  const composite = schema as {
    readonly allOf?: readonly Schema[];
    readonly oneOf?: readonly Schema[];
    readonly anyOf?: readonly Schema[];
  };
  if (Array.isArray(composite.allOf)) {
    for (const part of composite.allOf.slice(0, MAX_ALLOF_PARTS)) {
      const type = typeOfSchema(part, depth + 1);
      if (type !== undefined) return type;
    }
    return typeof schema.properties === 'object' ? 'object' : undefined;
  }
  for (const branches of [composite.oneOf, composite.anyOf]) {
    if (!Array.isArray(branches)) continue;
    const types = new Set(
      branches.slice(0, MAX_ALLOF_PARTS).map((branch) => {
        const type = typeOfSchema(branch, depth + 1);
        return type === 'integer' ? 'number' : type;
      }),
    );
    types.delete('null');
    if (types.size === 1) {
      const [only] = types;
      // An integer-only oneOf stays an integer.
      return branches.every((b) => typeOfSchema(b, depth + 1) === 'integer') ? 'integer' : only;
    }
    return undefined;
  }
  return typeof schema.properties === 'object' ? 'object' : undefined;
}

export function fits(schema: Schema | undefined, type: ValueType | 'list'): boolean {
  const found = typeOfSchema(schema);
  if (found === undefined) return false;
  switch (type) {
    case 'list':
      return found === 'array';
    case 'money':
      return found === 'number' || found === 'integer';
    case 'integer':
      return found === 'integer';
    case 'boolean':
      return found === 'boolean';
    default:
      return found === 'string';
  }
}

export const lastSegment = (path: string) => path.slice(path.lastIndexOf('.') + 1);

/**
 * The document's component schemas: once dereferenced, a property that is a `$ref` is the very
 * component object, so its description is the component's, not the property's.
 */
export function componentSchemasOf(document: {
  readonly components?: { readonly schemas?: unknown };
}): Set<object> {
  const schemas = document.components?.schemas;
  if (typeof schemas !== 'object' || schemas === null) return new Set();
  return new Set(
    Object.values(schemas).filter(
      (schema): schema is object => typeof schema === 'object' && schema !== null,
    ),
  );
}
