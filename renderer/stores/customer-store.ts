import { createStore, type StoreApi } from 'zustand/vanilla';
import type { KioskApi } from '../../shared/ipc/contract.ts';
import type { SearchCustomersRequest } from '../../shared/ipc/customers.ts';
import type { IpcError } from '../../shared/ipc/errors.ts';
import type {
  CreditEntry,
  CustomerEntry,
  CustomerHistoryView,
  HistoryEntryView,
  SaleView as SaleRecord,
  SavLogEntryView,
} from '../../shared/ipc/records.ts';
import { newestFirst } from './newest-first.ts';
import { settle } from './call.ts';

/** The facts a customer states at the counter, besides the e-mail address. */
export const secondCriteria = ['lastName', 'firstName', 'phone', 'postalCode'] as const;
export type SecondCriterion = (typeof secondCriteria)[number];

/** What a search asks: the e-mail address and any other detail, at least one of them. */
export type CustomerCriteria = Readonly<Partial<Record<'email' | SecondCriterion, string>>>;

/** Enough to tell the matches apart on screen; more would only be a longer list to misread. */
export const MATCH_LIMIT = 20;

/**
 * A search starts from the exact e-mail address, or from any detail the service searches by
 * (`taken`). `several`: more than one customer matches. The kiosk never picks one: staff ask the
 * customer for another detail and the search runs again with every detail given (`confirm`); a
 * record opens only when exactly one customer matches them all. A detail that matches none of
 * them keeps the list on screen and asks again (`mismatch`): a slip of the tongue or the keyboard
 * is not a reason to start over.
 */
export type CustomerPhase = 'idle' | 'searching' | 'none' | 'several' | 'found' | 'failed';

export interface SavLogView {
  readonly savId: string;
  readonly entries: readonly SavLogEntryView[] | null;
  readonly error: IpcError | null;
}

/**
 * A sale opened from the history: read with getSale, since the history's entries do not say
 * which sales have an invoice (`hasInvoice`); printing is offered only for those that do.
 */
export interface SaleView {
  readonly saleId: string;
  readonly sale: SaleRecord | null;
  readonly error: IpcError | null;
}

export interface CustomerState {
  readonly phase: CustomerPhase;
  /**
   * The details besides the e-mail address the service searches by (the integration profile's);
   * null until read.
   */
  readonly taken: readonly SecondCriterion[] | null;
  /** The detail just given to tell several matches apart matched none of them. */
  readonly mismatch: SecondCriterion | null;
  /** What the last search asked, all criteria combined. */
  readonly criteria: CustomerCriteria | null;
  /** `none` after a confirmation: the extra detail matched nobody among the candidates. */
  readonly confirming: boolean;
  readonly matches: readonly CustomerEntry[];
  /** More matches than shown. */
  readonly moreMatches: boolean;
  readonly error: IpcError | null;
  readonly customer: CustomerEntry | null;
  readonly history: CustomerHistoryView | null;
  readonly historyError: IpcError | null;
  readonly credits: readonly CreditEntry[] | null;
  readonly creditsError: IpcError | null;
  readonly savLog: SavLogView | null;
  readonly sale: SaleView | null;
  /**
   * Whether each sale of the history has an invoice (`hasInvoice` of getSale), read after the
   * history: its entries do not say, and Print invoice belongs in the row of those that do.
   */
  readonly invoices: Readonly<Record<string, boolean | null>>;
  /** Reads which details the service searches by (once; again after a failure). */
  loadCriteria(): Promise<void>;
  search(criteria: CustomerCriteria): Promise<void>;
  /** Adds one more stated fact to the last search (the ambiguous case). */
  confirm(criterion: SecondCriterion, value: string): Promise<void>;
  readSavLog(savId: string): Promise<void>;
  closeSavLog(): void;
  openSale(saleId: string): Promise<void>;
  closeSale(): void;
  reset(): void;
}

export type CustomerStore = StoreApi<CustomerState>;

const cleared = {
  mismatch: null,
  matches: [],
  moreMatches: false,
  error: null,
  customer: null,
  history: null,
  historyError: null,
  credits: null,
  creditsError: null,
  savLog: null,
  sale: null,
  invoices: {},
} as const;

/** Sales whose invoice is looked up for their row; older ones keep Details, then Print. */
export const INVOICE_LOOKUPS = 20;

function toRequest(criteria: CustomerCriteria): SearchCustomersRequest {
  const email = criteria.email?.trim();
  const request: SearchCustomersRequest = {
    ...(email ? { email } : {}),
    limit: MATCH_LIMIT,
  };
  for (const name of secondCriteria) {
    const value = criteria[name]?.trim();
    if (value) request[name] = value;
  }
  return request;
}

export function createCustomerStore(api: KioskApi): CustomerStore {
  return createStore<CustomerState>()((set, get) => {
    let generation = 0;

    const open = async (mine: number, found: CustomerEntry) => {
      set({ phase: 'found', customer: found, matches: [] });
      const [detail, history, credits] = await Promise.all([
        settle(api.getCustomer({ customerId: found.id, includeContact: true })),
        settle(api.getCustomerHistory({ customerId: found.id })),
        settle(api.listCustomerCredits({ customerId: found.id })),
      ]);
      if (mine !== generation) return;
      set({
        // The search's own record stays on screen if the detail cannot be read.
        customer: detail.ok ? detail.value : found,
        history: history.ok ? history.value : null,
        historyError: history.ok ? null : history.error,
        credits: credits.ok ? credits.value.data : null,
        creditsError: credits.ok ? null : credits.error,
      });
      if (history.ok) await readInvoices(mine, history.value.sales ?? []);
    };

    const readInvoices = async (mine: number, sales: readonly HistoryEntryView[]) => {
      const ids = newestFirst(sales)
        .flatMap((entry) => (entry.id === null ? [] : [entry.id]))
        .slice(0, INVOICE_LOOKUPS);
      // A few at a time: the browser host's connections are shared with the rest of the screen.
      for (let start = 0; start < ids.length; start += 3) {
        const batch = ids.slice(start, start + 3);
        const replies = await Promise.all(batch.map((saleId) => settle(api.getSale({ saleId }))));
        if (mine !== generation) return;
        const found: Record<string, boolean | null> = {};
        for (const [index, reply] of replies.entries()) {
          found[batch[index]!] = reply.ok ? reply.value.hasInvoice : null;
        }
        set((state) => ({ invoices: { ...state.invoices, ...found } }));
      }
    };

    const run = async (
      criteria: CustomerCriteria,
      confirming: boolean,
      added: SecondCriterion | null = null,
    ) => {
      const mine = ++generation;
      const before = get();
      set({
        ...cleared,
        // A confirmation keeps the list on screen while the service answers.
        ...(added === null ? {} : { matches: before.matches, moreMatches: before.moreMatches }),
        phase: 'searching',
        // The question on screen stays the same until the service answers it.
        criteria: added === null ? criteria : before.criteria,
        confirming,
      });
      const reply = await settle(api.searchCustomers(toRequest(criteria)));
      if (mine !== generation) return;
      if (!reply.ok) {
        set({ phase: 'failed', error: reply.error, criteria });
        return;
      }
      const { data, hasNextPage } = reply.value;
      if (data.length === 0 && added !== null && before.phase === 'several' && before.criteria) {
        // The detail given matches none of them: the list stays, and the question is asked again.
        set({
          phase: 'several',
          criteria: before.criteria,
          confirming: before.confirming,
          matches: before.matches,
          moreMatches: before.moreMatches,
          mismatch: added,
        });
        return;
      }
      if (data.length === 0) set({ phase: 'none', criteria });
      else if (data.length === 1 && !hasNextPage) {
        set({ criteria });
        await open(mine, data[0]!);
      } else set({ phase: 'several', criteria, matches: data, moreMatches: hasNextPage });
    };

    let criteriaRead: Promise<void> | null = null;
    return {
      phase: 'idle',
      taken: null,
      criteria: null,
      confirming: false,
      ...cleared,
      loadCriteria: () => {
        criteriaRead ??= (async () => {
          const reply = await settle(api.customerSearchCriteria({}));
          // Unread, the form offers the e-mail address alone, which every service takes.
          if (reply.ok) set({ taken: reply.value.criteria });
          else criteriaRead = null;
        })();
        return criteriaRead;
      },
      search: (criteria) => run(criteria, false),
      confirm: async (criterion, value) => {
        const { criteria } = get();
        if (!criteria || value.trim() === '') return;
        await run({ ...criteria, [criterion]: value }, true, criterion);
      },
      readSavLog: async (savId) => {
        set({ savLog: { savId, entries: null, error: null } });
        const reply = await settle(api.getSavLog({ savId, limit: 100 }));
        if (get().savLog?.savId !== savId) return;
        set({
          savLog: reply.ok
            ? { savId, entries: reply.value.data, error: null }
            : { savId, entries: null, error: reply.error },
        });
      },
      closeSavLog: () => set({ savLog: null }),
      openSale: async (saleId) => {
        set({ sale: { saleId, sale: null, error: null } });
        const reply = await settle(api.getSale({ saleId }));
        if (get().sale?.saleId !== saleId) return;
        set({
          sale: reply.ok
            ? { saleId, sale: reply.value, error: null }
            : { saleId, sale: null, error: reply.error },
        });
      },
      closeSale: () => set({ sale: null }),
      reset: () => {
        generation++;
        set({ phase: 'idle', criteria: null, confirming: false, ...cleared });
      },
    };
  });
}
