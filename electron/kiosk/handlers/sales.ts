import type { salesMessages, savMessages } from '../../../shared/ipc/sales.ts';
import type { CommerceApiClient } from '../../api/index.ts';
import type { KioskHandlers } from '../../ipc/index.ts';

export interface SalesHandlerDeps {
  readonly client: Pick<CommerceApiClient, 'getSale' | 'getSaleInvoice' | 'getSav' | 'getSavLog'>;
}

/** Sales, their invoices and after-sales (SAV) records, read live. */
export function salesHandlers({
  client,
}: SalesHandlerDeps): Pick<KioskHandlers, keyof typeof salesMessages | keyof typeof savMessages> {
  return {
    getSale: (request) => client.getSale({ params: { saleId: request.saleId } }),
    getInvoice: (request) => client.getSaleInvoice({ params: { saleId: request.saleId } }),
    getSav: (request) => client.getSav({ params: { savId: request.savId } }),
    getSavLog: (request) =>
      client.getSavLog({
        params: { savId: request.savId },
        query: {
          ...(request.page === undefined ? {} : { page: request.page }),
          ...(request.limit === undefined ? {} : { limit: request.limit }),
        },
      }),
  };
}
