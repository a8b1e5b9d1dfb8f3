import type { Invoice, Sale } from '../../../shared/api/sales.ts';
import type { SandboxData } from '../../data/model.ts';
import { notFound } from '../errors.ts';
import type { Handlers } from '../handler.ts';
import { listPagination, pageOf } from '../pagination.ts';

function requireSale(data: SandboxData, saleId: string): Sale {
  const sale = data.sales.get(saleId);
  if (!sale) throw notFound(`no sale ${saleId}`);
  return sale;
}

function requireInvoice(data: SandboxData, sale: Sale): Invoice {
  const invoice = sale.hasInvoice ? data.invoices.get(sale.uuid) : undefined;
  if (!invoice) throw notFound(`the sale ${sale.uuid} has no invoice`);
  return invoice;
}

/** Sales are stored complete; customer contact and creditsUsed are left out by the scope rules. */
export const saleHandlers = {
  /** `since` inclusive, `until` exclusive, on the sale date. */
  listSales: ({ state, query }) => {
    const since = query.since === undefined ? undefined : Date.parse(query.since);
    const until = query.until === undefined ? undefined : Date.parse(query.until);
    const matching = [...state.data.sales.values()].filter((sale) => {
      const date = Date.parse(sale.date);
      return (
        (query.customerId === undefined || sale.customer?.uuid === query.customerId) &&
        (query.shopId === undefined || sale.shopId === query.shopId) &&
        (since === undefined || date >= since) &&
        (until === undefined || date < until)
      );
    });
    const slice = pageOf(matching, query.page, query.limit);
    return { json: { data: slice.items, pagination: listPagination(slice) } };
  },
  getSale: ({ state, params }) => ({ json: requireSale(state.data, params.saleId) }),
  getSaleInvoice: ({ state, params }) => ({
    json: requireInvoice(state.data, requireSale(state.data, params.saleId)),
  }),
  downloadSaleInvoice: async ({ state, params }) => {
    const sale = requireSale(state.data, params.saleId);
    const invoice = requireInvoice(state.data, sale);
    const shop = state.data.shops.find((candidate) => candidate.id === sale.shopId);
    // Loaded on first use: the PDF library stays out of the start-up path.
    const { renderInvoicePdf } = await import('../../documents/invoice-pdf.ts');
    return { pdf: await renderInvoicePdf(sale, invoice, shop), fileName: invoice.fileName };
  },
} satisfies Pick<Handlers, 'listSales' | 'getSale' | 'getSaleInvoice' | 'downloadSaleInvoice'>;
