import type { z } from 'zod';

interface Def {
  readonly type: string;
  readonly shape?: Record<string, z.ZodType>;
  readonly innerType?: z.ZodType;
  readonly element?: z.ZodType;
  readonly options?: readonly z.ZodType[];
  readonly in?: z.ZodType;
  readonly out?: z.ZodType;
  readonly valueType?: z.ZodType;
  readonly left?: z.ZodType;
  readonly right?: z.ZodType;
  readonly items?: readonly z.ZodType[];
}

/**
 * Every object key a zod schema can produce, with its path (`credentials.backend`,
 * `debit.reply.receipt.id`...). Lazy schemas (z.json()) are opaque and produce no keys.
 */
export function schemaKeys(schema: z.ZodType, path = ''): string[] {
  const def = (schema as unknown as { _zod: { def: Def } })._zod.def;
  const at = (key: string) => (path === '' ? key : `${path}.${key}`);
  switch (def.type) {
    case 'object':
      return Object.entries(def.shape ?? {}).flatMap(([key, value]) => [
        at(key),
        ...schemaKeys(value, at(key)),
      ]);
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'nonoptional':
    case 'catch':
      return schemaKeys(def.innerType!, path);
    case 'array':
      return schemaKeys(def.element!, `${path}[]`);
    case 'union':
      return (def.options ?? []).flatMap((option) => schemaKeys(option, path));
    case 'pipe':
      return [...schemaKeys(def.in!, path), ...schemaKeys(def.out!, path)];
    case 'record':
      return schemaKeys(def.valueType!, `${path}{}`);
    case 'intersection':
      return [...schemaKeys(def.left!, path), ...schemaKeys(def.right!, path)];
    case 'tuple':
      return (def.items ?? []).flatMap((item, index) => schemaKeys(item, `${path}[${index}]`));
    default:
      return [];
  }
}
