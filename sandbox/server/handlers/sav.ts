import type { Sav } from '../../../shared/api/sav.ts';
import type { SandboxData } from '../../data/model.ts';
import { notFound } from '../errors.ts';
import type { Handlers } from '../handler.ts';
import { listPagination, pageOf } from '../pagination.ts';

function requireSav(data: SandboxData, savId: string): Sav {
  const sav = data.sav.get(savId);
  if (!sav) throw notFound(`no SAV case ${savId}`);
  return sav;
}

/** SAV cases are stored complete; customer contact and deposits are left out by the scope rules. */
export const savHandlers = {
  listSav: ({ state, query }) => {
    const matching = [...state.data.sav.values()].filter(
      (sav) =>
        (query.customerId === undefined || sav.customer?.uuid === query.customerId) &&
        (query.shopId === undefined || sav.shopId === query.shopId) &&
        (query.status === undefined || sav.status === query.status),
    );
    const slice = pageOf(matching, query.page, query.limit);
    return { json: { data: slice.items, pagination: listPagination(slice) } };
  },
  getSav: ({ state, params }) => ({ json: requireSav(state.data, params.savId) }),
  getSavLog: ({ state, params, query }) => {
    const sav = requireSav(state.data, params.savId);
    const slice = pageOf(state.data.savLogs.get(sav.uuid) ?? [], query.page, query.limit);
    return { json: { data: slice.items, pagination: listPagination(slice) } };
  },
  downloadSavSlip: async ({ state, params }) => {
    const sav = requireSav(state.data, params.savId);
    const shop = state.data.shops.find((candidate) => candidate.id === sav.shopId);
    // Loaded on first use: the PDF library stays out of the start-up path.
    const { renderSavSlipPdf } = await import('../../documents/sav-slip-pdf.ts');
    return {
      pdf: await renderSavSlipPdf(sav, state.data.savLogs.get(sav.uuid) ?? [], shop),
      fileName: `${sav.number}.pdf`,
    };
  },
} satisfies Pick<Handlers, 'listSav' | 'getSav' | 'getSavLog' | 'downloadSavSlip'>;
