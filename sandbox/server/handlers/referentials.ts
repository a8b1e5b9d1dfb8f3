import { notFound } from '../errors.ts';
import type { Handlers } from '../handler.ts';
import { listPagination, pageOf } from '../pagination.ts';

function list<T>(items: readonly T[], query: { page: number; limit: number }) {
  const slice = pageOf(items, query.page, query.limit);
  return { json: { data: slice.items, pagination: listPagination(slice) } };
}

export const referentialHandlers = {
  listShops: ({ state, query }) => list(state.data.shops, query),
  listCategories: ({ state, query }) => list(state.data.categories, query),
  listProductTypes: ({ state, query }) => list(state.data.productTypes, query),
  listCharacteristics: ({ state, query }) => list(state.data.characteristics, query),
  listCharacteristicValues: ({ state, params, query }) => {
    const { characteristicId } = params;
    if (
      !state.data.characteristics.some((characteristic) => characteristic.id === characteristicId)
    ) {
      throw notFound(`no characteristic ${characteristicId}`);
    }
    const values = state.memo(`characteristic-values:${characteristicId}`, () =>
      state.data.characteristicValues.filter(
        (value) => value.characteristicId === characteristicId,
      ),
    );
    return list(values, query);
  },
} satisfies Pick<
  Handlers,
  | 'listShops'
  | 'listCategories'
  | 'listProductTypes'
  | 'listCharacteristics'
  | 'listCharacteristicValues'
>;
