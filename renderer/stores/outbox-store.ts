import { createStore, type StoreApi } from 'zustand/vanilla';
import type { KioskApi } from '../../shared/ipc/contract.ts';
import type { IpcError } from '../../shared/ipc/errors.ts';
import type { OutboxChanged } from '../../shared/ipc/events.ts';
import type {
  DayReport,
  DebitView,
  OutboxSummaryReply,
  StaffResolutionInput,
} from '../../shared/ipc/gift-cards.ts';
import { settle } from './call.ts';
import { coalesce } from './refresh-coalescer.ts';

export interface OutboxState {
  readonly summary: OutboxSummaryReply | null;
  /** `Date.now()` when the summary was read: the oldest pending age keeps counting from it. */
  readonly summaryReadAt: number | null;
  /** Pending and sending, oldest first, as main lists them. */
  readonly open: readonly DebitView[];
  /** Refused, failed or expired and not yet acknowledged by staff. */
  readonly attention: readonly DebitView[];
  readonly senderPaused: { readonly code: string; readonly message: string } | null;
  /** The last action's failure (send now, cancel, resolve, refresh). */
  readonly error: IpcError | null;
  readonly busy: boolean;
  /** The end-of-day report last asked for (every debit of that local day). */
  readonly dayReport: DayReport | null;
  loadDayReport(date: string): Promise<void>;
  refresh(): Promise<void>;
  sendNow(): Promise<void>;
  cancel(debitId: number): Promise<void>;
  /** Staff record what they did about a debit refused after the fact. */
  resolve(debitId: number, resolution: StaffResolutionInput): Promise<void>;
  applyEvent(event: OutboxChanged): void;
}

export type OutboxStore = StoreApi<OutboxState>;

/** "Never sent": staff may still withdraw it, nothing can have reached the service. */
export function isCancellable(debit: DebitView): boolean {
  return debit.state === 'pending' && debit.attempts === 0;
}

export function createOutboxStore(api: KioskApi, now: () => number = Date.now): OutboxStore {
  return createStore<OutboxState>()((set, get) => {
    const refresh = coalesce(async () => {
      const [summary, open, attention] = await Promise.all([
        settle(api.getOutboxSummary()),
        settle(api.listDebits({ view: 'open', limit: 200 })),
        settle(api.listDebits({ view: 'attention', limit: 200 })),
      ]);
      const failure = [summary, open, attention].find((reply) => !reply.ok);
      set({
        ...(summary.ok
          ? {
              summary: summary.value,
              summaryReadAt: now(),
              senderPaused: summary.value.sender?.paused ?? null,
            }
          : {}),
        ...(open.ok ? { open: open.value.debits } : {}),
        ...(attention.ok ? { attention: attention.value.debits } : {}),
        error: failure && !failure.ok ? failure.error : null,
      });
    });

    const act = async (action: () => Promise<{ ok: boolean; error?: IpcError }>) => {
      set({ busy: true });
      const reply = await action();
      set({ busy: false, error: reply.ok ? null : (reply.error ?? null) });
      await get().refresh();
    };

    return {
      summary: null,
      summaryReadAt: null,
      open: [],
      attention: [],
      senderPaused: null,
      error: null,
      busy: false,
      dayReport: null,
      loadDayReport: async (date) => {
        const reply = await settle(api.getDayReport({ date }));
        set(reply.ok ? { dayReport: reply.value, error: null } : { error: reply.error });
      },
      refresh,
      sendNow: () => act(() => settle(api.sendOutboxNow())),
      cancel: (debitId) => act(() => settle(api.cancelDebit({ debitId }))),
      resolve: (debitId, resolution) =>
        act(() => settle(api.resolveDebit({ debitId, resolution }))),
      applyEvent: (event) => {
        if (event.type === 'sender-paused') {
          set({ senderPaused: { code: event.code, message: event.message } });
        } else if (event.type === 'sender-resumed') {
          set({ senderPaused: null });
        }
        // Counts and amounts are main's to compute: read them again rather than patch locally.
        void get().refresh();
      },
    };
  });
}
