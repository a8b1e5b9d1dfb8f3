import type { salesMessages, savMessages } from '../../../shared/ipc/sales.ts';
import {
  type IntegrationProfile,
  pagingQuery,
  statusIn,
  viewOf,
} from '../../../shared/profile/index.ts';
import type { CommerceApiClient } from '../../api/index.ts';
import type { KioskHandlers } from '../../ipc/index.ts';
import { listView } from '../record-views.ts';

export interface SalesHandlerDeps {
  readonly client: Pick<CommerceApiClient, 'getSale' | 'getSaleInvoice' | 'getSav' | 'getSavLog'>;
  /** The integration profile in force (read at each call: an administrator may switch it). */
  readonly profile: () => IntegrationProfile;
}

/** Sales, their invoices and after-sales (SAV) records, read live through the profile. */
export function salesHandlers({
  client,
  profile,
}: SalesHandlerDeps): Pick<KioskHandlers, keyof typeof salesMessages | keyof typeof savMessages> {
  return {
    getSale: async (request) => {
      const current = profile();
      const sale = viewOf(
        current,
        'sale',
        await client.getSale({ params: { saleId: request.saleId } }),
      );
      // A credit note's id is no card to debit: only a gift card's id is offered to "Use this card".
      const credits = sale.credits?.map((credit) =>
        statusIn(current.statuses.creditIsGiftCard, credit.type)
          ? credit
          : { ...credit, giftCardId: null },
      );
      return credits === undefined ? sale : { ...sale, credits };
    },
    getInvoice: async (request) =>
      viewOf(
        profile(),
        'invoice',
        await client.getSaleInvoice({ params: { saleId: request.saleId } }),
      ),
    getSav: async (request) =>
      viewOf(profile(), 'sav', await client.getSav({ params: { savId: request.savId } })),
    getSavLog: async (request) => {
      const reply = await client.getSavLog({
        params: { savId: request.savId },
        query: pagingQuery(profile(), 'getSavLog', request),
      });
      return listView(profile(), 'savLogEntry', reply);
    },
  };
}
