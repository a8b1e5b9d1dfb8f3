import type { documentMessages } from '../../../shared/ipc/documents.ts';
import type { IntegrationProfile } from '../../../shared/profile/index.ts';
import type { CommerceApiClient } from '../../api/index.ts';
import type { KioskHandlers } from '../../ipc/index.ts';
import { type DocumentFinderLimits, findDocument } from '../document-finder.ts';

export interface DocumentHandlerDeps {
  readonly client: Pick<
    CommerceApiClient,
    'getSale' | 'getSav' | 'listSales' | 'listSav' | 'getSaleInvoice'
  >;
  /** The integration profile in force (read at each call: an administrator may switch it). */
  readonly profile: () => IntegrationProfile;
  readonly limits?: DocumentFinderLimits;
}

/** Documents found by the number on the customer's receipt. */
export function documentHandlers({
  client,
  profile,
  limits,
}: DocumentHandlerDeps): Pick<KioskHandlers, keyof typeof documentMessages> {
  return {
    findDocument: (request) => findDocument(client, profile(), request.number, limits),
  };
}
