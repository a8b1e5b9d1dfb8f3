import { z } from 'zod';
import { characteristicSources } from './catalog.ts';
import { ListPagination, listOf } from './pagination.ts';
import { Id, limit, page } from './primitives.ts';

const assumed = (what: string) =>
  `Fields of the ${what} record are not shown; we assume the fields the catalogue already exposes for it.`;

export const Shop = z
  .object({
    id: Id,
    name: z.string(),
    shortName: z.string().nullable(),
    city: z.string().nullable(),
    postalCode: z.string().nullable(),
  })
  .meta({
    id: 'Shop',
    'x-assumption': assumed('shop') + ' Plus postalCode, for staff picking a shop.',
  });
export type Shop = z.infer<typeof Shop>;

export const Category = z
  .object({
    id: Id,
    code: z.string().nullable(),
    label: z.string().nullable(),
    parentId: z.string().nullable(),
  })
  .meta({ id: 'Category', 'x-assumption': assumed('category') + ' Plus parentId for the tree.' });
export type Category = z.infer<typeof Category>;

export const ProductType = z
  .object({ id: Id, code: z.string().nullable(), label: z.string().nullable() })
  .meta({ id: 'ProductType', 'x-assumption': assumed('product type') });
export type ProductType = z.infer<typeof ProductType>;

export const Characteristic = z
  .object({ id: Id, code: z.string(), label: z.string(), source: z.enum(characteristicSources) })
  .meta({ id: 'Characteristic', 'x-assumption': assumed('characteristic') });
export type Characteristic = z.infer<typeof Characteristic>;

export const CharacteristicValue = z
  .object({ id: Id, characteristicId: Id, value: z.string() })
  .meta({ id: 'CharacteristicValue', 'x-assumption': assumed('characteristic value') });
export type CharacteristicValue = z.infer<typeof CharacteristicValue>;

/** Referential lists: parameters not shown; page and limit as on every list. */
export const ReferentialQuery = z.strictObject({ page, limit: limit(50) }).meta({
  'x-assumption': 'Parameters are not shown; we assume page and limit as on the other lists.',
});

export const ShopsReply = listOf(Shop, ListPagination).meta({ id: 'ShopsReply' });
export const CategoriesReply = listOf(Category, ListPagination).meta({ id: 'CategoriesReply' });
export const ProductTypesReply = listOf(ProductType, ListPagination).meta({
  id: 'ProductTypesReply',
});
export const CharacteristicsReply = listOf(Characteristic, ListPagination).meta({
  id: 'CharacteristicsReply',
});
export const CharacteristicValuesReply = listOf(CharacteristicValue, ListPagination).meta({
  id: 'CharacteristicValuesReply',
});
