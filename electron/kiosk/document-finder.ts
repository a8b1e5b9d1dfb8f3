import type { FindDocumentReply } from '../../shared/ipc/documents.ts';
import {
  hasNextPageOf,
  type IntegrationProfile,
  pagingQuery,
  viewOf,
} from '../../shared/profile/index.ts';
import { type CommerceApiClient, InvalidRequest, NotFound } from '../api/index.ts';

export interface DocumentFinderLimits {
  /** Pages read of each list (sales, SAV cases) before giving up. */
  readonly maxPages?: number;
  readonly pageSize?: number;
  /** Invoices read, newest sales first, when the number is no sale's and no case's. */
  readonly maxInvoiceReads?: number;
}

type FinderClient = Pick<
  CommerceApiClient,
  'getSale' | 'getSav' | 'listSales' | 'listSav' | 'getSaleInvoice'
>;

interface SaleSeen {
  readonly id: string;
  readonly date: string | null;
  readonly hasInvoice: boolean | null;
}

/** Receipt numbers are typed or scanned: case and stray spaces must not make a miss. */
function same(a: string | null, wanted: string): boolean {
  return a !== null && a.replace(/\s+/g, '').toUpperCase() === wanted;
}

/** Whether the kiosk can ask for a next page at all (the profile names a page parameter). */
function pages(profile: IntegrationProfile, operationId: string): boolean {
  return Object.keys(pagingQuery(profile, operationId, { page: 2 })).length > 0;
}

/** Not this kind's identifier (unknown, or not even shaped like one): try the next way. */
function isMiss(error: unknown): boolean {
  return error instanceof NotFound || error instanceof InvalidRequest;
}

/**
 * Finds a sale, invoice or SAV case by the number on the receipt. The spec shows no filter by
 * number, so the lists are read page by page under the profile's paging names and each record's
 * number is the one the profile resolves; an invoice has no list of its own, so its number is
 * looked for last, among the invoices of the sales just read, newest first. Everything is
 * bounded: a kiosk at the counter cannot read a chain's whole history.
 */
export async function findDocument(
  client: FinderClient,
  profile: IntegrationProfile,
  text: string,
  { maxPages = 10, pageSize = 50, maxInvoiceReads = 100 }: DocumentFinderLimits = {},
): Promise<FindDocumentReply> {
  const wanted = text.replace(/\s+/g, '').toUpperCase();

  // The service's own identifier first: one read each, and what staff pasted from elsewhere.
  const [sale, sav] = await Promise.all([
    client.getSale({ params: { saleId: text } }).catch((error: unknown) => {
      if (isMiss(error)) return undefined;
      throw error;
    }),
    client.getSav({ params: { savId: text } }).catch((error: unknown) => {
      if (isMiss(error)) return undefined;
      throw error;
    }),
  ]);
  if (sale !== undefined) {
    const view = viewOf(profile, 'sale', sale);
    return { found: 'sale', saleId: text, number: view.number, hasInvoice: view.hasInvoice };
  }
  if (sav !== undefined) {
    return { found: 'sav', savId: text, number: viewOf(profile, 'sav', sav).number };
  }

  const sales: SaleSeen[] = [];
  let complete = true;
  for (let page = 1; ; page++) {
    const reply = await client.listSales({
      query: pagingQuery(profile, 'listSales', { page, limit: pageSize }),
    });
    for (const raw of reply.data) {
      const view = viewOf(profile, 'sale', raw);
      if (view.id === null) continue;
      if (same(view.number, wanted)) {
        return { found: 'sale', saleId: view.id, number: view.number, hasInvoice: view.hasInvoice };
      }
      sales.push({ id: view.id, date: view.date, hasInvoice: view.hasInvoice });
    }
    if (!hasNextPageOf(reply)) break;
    // Without a page parameter the same first page would come back for ever.
    if (page >= maxPages || !pages(profile, 'listSales')) {
      complete = false;
      break;
    }
  }

  for (let page = 1; ; page++) {
    const reply = await client.listSav({
      query: pagingQuery(profile, 'listSav', { page, limit: pageSize }),
    });
    for (const raw of reply.data) {
      const view = viewOf(profile, 'sav', raw);
      if (view.id !== null && same(view.number, wanted)) {
        return { found: 'sav', savId: view.id, number: view.number };
      }
    }
    if (!hasNextPageOf(reply)) break;
    if (page >= maxPages || !pages(profile, 'listSav')) {
      complete = false;
      break;
    }
  }

  const invoiced = sales
    .filter((entry) => entry.hasInvoice !== false)
    .sort((a, b) => (b.date ?? '').localeCompare(a.date ?? ''));
  if (invoiced.length > maxInvoiceReads) complete = false;
  const candidates = invoiced.slice(0, maxInvoiceReads);
  // A few at a time: the service's rate limit is shared with the rest of the kiosk.
  for (let start = 0; start < candidates.length; start += 4) {
    const batch = candidates.slice(start, start + 4);
    const invoices = await Promise.all(
      batch.map((entry) =>
        client.getSaleInvoice({ params: { saleId: entry.id } }).catch((error: unknown) => {
          if (error instanceof NotFound) return undefined;
          throw error;
        }),
      ),
    );
    for (const [index, invoice] of invoices.entries()) {
      if (invoice === undefined) continue;
      const number = viewOf(profile, 'invoice', invoice).number;
      if (same(number, wanted)) return { found: 'invoice', saleId: batch[index]!.id, number };
    }
  }
  return { found: 'none', complete };
}
