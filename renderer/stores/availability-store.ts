import { createStore, type StoreApi } from 'zustand/vanilla';
import type { ShopEntry } from '../../shared/ipc/records.ts';
import type { GetProductReply, SearchHit, SearchProductsReply } from '../../shared/ipc/catalog.ts';
import type { KioskApi } from '../../shared/ipc/contract.ts';
import type { IpcError } from '../../shared/ipc/errors.ts';
import { settle } from './call.ts';
import { searchRequestOf } from './search-request.ts';
import { keepUnchangedHits } from './unchanged-hits.ts';

export type AnswerMeta = Omit<SearchProductsReply, 'hits'>;

export interface AvailabilityState {
  readonly shops: readonly ShopEntry[] | null;
  readonly shopsError: IpcError | null;
  /** Null: every shop. */
  readonly shopId: string | null;
  /** Staff chose a shop themselves: the kiosk's default no longer replaces it. */
  readonly shopChosen: boolean;
  /** The kiosk's own shop (its settings), whatever shop staff look at: "This shop". */
  readonly homeShopId: string | null;
  readonly text: string;
  readonly hits: readonly SearchHit[];
  readonly meta: AnswerMeta | null;
  readonly searching: boolean;
  /** The last page came back short: there is nothing more to load. */
  readonly complete: boolean;
  readonly error: IpcError | null;
  readonly productId: string | null;
  readonly detail: GetProductReply | null;
  readonly detailLoading: boolean;
  readonly detailError: IpcError | null;
  loadShops(): Promise<void>;
  /** The kiosk's own shop from its settings, unless staff already picked one. */
  applyDefaultShop(shopId: string | null): void;
  chooseShop(shopId: string | null): void;
  /**
   * Search as you type: every keystroke searches at once, and the answer to an older text is
   * dropped when it comes back after a newer one was asked.
   */
  typeText(text: string): void;
  search(): Promise<void>;
  loadMore(): Promise<void>;
  openProduct(productId: string): Promise<void>;
  closeProduct(): void;
  /** The start screen as the next customer should find it: no search, no product open. */
  startOver(): void;
  /** A scanned EAN or reference: searched, and opened at once when it is the only hit. */
  scanProduct(code: string): Promise<void>;
}

export type AvailabilityStore = StoreApi<AvailabilityState>;

export function createAvailabilityStore(api: KioskApi): AvailabilityStore {
  return createStore<AvailabilityState>()((set, get) => {
    // Each search gets a number; a reply to an older one (the shop or text changed since) is dropped.
    let generation = 0;
    let detailGeneration = 0;

    /** A page of the current search, and how many hits a full page holds. */
    const request = (offset: number) => {
      const { text, shopId } = get();
      const page = searchRequestOf(text, shopId, offset);
      return { limit: page.limit, reply: settle(api.searchProducts(page)) };
    };

    const search = async () => {
      const mine = ++generation;
      set({ searching: true, error: null });
      const { limit, reply: pending } = request(0);
      const reply = await pending;
      if (mine !== generation) return;
      if (reply.ok) {
        const { hits, ...meta } = reply.value;
        set({
          hits: keepUnchangedHits(get().hits, hits),
          meta,
          searching: false,
          complete: hits.length < limit,
        });
      } else {
        set({ hits: [], meta: null, searching: false, complete: true, error: reply.error });
      }
    };

    return {
      shops: null,
      shopsError: null,
      shopId: null,
      shopChosen: false,
      homeShopId: null,
      text: '',
      hits: [],
      meta: null,
      searching: false,
      complete: false,
      error: null,
      productId: null,
      detail: null,
      detailLoading: false,
      detailError: null,
      loadShops: async () => {
        const reply = await settle(api.listShops());
        if (reply.ok) set({ shops: reply.value.shops, shopsError: null });
        else set({ shopsError: reply.error });
      },
      applyDefaultShop: (shopId) => {
        if (get().homeShopId !== shopId) set({ homeShopId: shopId });
        if (get().shopChosen || get().shopId === shopId) return;
        set({ shopId });
        void search();
      },
      chooseShop: (shopId) => {
        set({ shopId, shopChosen: true });
        void search();
      },
      typeText: (text) => {
        set({ text });
        // No typing pause: the mirror answers a keystroke in a few milliseconds, so waiting for
        // one cost more than every search it saved (227 ms to results at p95, 200 of them idle).
        void search();
      },
      search,
      loadMore: async () => {
        const { searching, complete, hits } = get();
        if (searching || complete) return;
        const mine = generation;
        set({ searching: true });
        const { limit, reply: pending } = request(hits.length);
        const reply = await pending;
        if (mine !== generation) return;
        if (reply.ok) {
          const page = reply.value.hits;
          set({
            hits: [...get().hits, ...page],
            searching: false,
            complete: page.length < limit,
          });
        } else {
          set({ searching: false, complete: true, error: reply.error });
        }
      },
      openProduct: async (productId) => {
        const mine = ++detailGeneration;
        set({ productId, detailLoading: true, detailError: null });
        // Every shop's items: the chosen shop comes first on screen, the others say where else
        // the customer can find the product.
        const reply = await settle(api.getProduct({ productId }));
        if (mine !== detailGeneration) return;
        if (reply.ok) set({ detail: reply.value, detailLoading: false });
        else set({ detail: null, detailLoading: false, detailError: reply.error });
      },
      closeProduct: () => {
        detailGeneration++;
        set({ productId: null, detail: null, detailLoading: false, detailError: null });
      },
      scanProduct: async (code) => {
        get().closeProduct();
        set({ text: code });
        await search();
        const { hits, complete, text } = get();
        if (text === code && complete && hits.length === 1) await get().openProduct(hits[0]!.uuid);
      },
      startOver: () => {
        get().closeProduct();
        if (get().text === '') return;
        set({ text: '' });
        void search();
      },
    };
  });
}
