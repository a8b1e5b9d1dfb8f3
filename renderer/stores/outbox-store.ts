import { createStore, type StoreApi } from 'zustand/vanilla';
import type { KioskApi } from '../../shared/ipc/contract.ts';
import type { IpcError } from '../../shared/ipc/errors.ts';
import type { OutboxChanged } from '../../shared/ipc/events.ts';
import type {
  DayReport,
  DebitEvidence,
  DebitView,
  OutboxSummaryReply,
  StaffResolutionInput,
  StaffOutcome,
} from '../../shared/ipc/gift-cards.ts';
import { settle } from './call.ts';
import { OUTBOX_LIST_LIMIT, placeDebit } from './outbox-lists.ts';
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
  /** What the kiosk knows of each debit of unknown outcome staff asked about, by debit id. */
  readonly evidence: Readonly<Record<number, DebitEvidence>>;
  /** The debit whose evidence is being read (the card's balance from the service). */
  readonly evidenceLoading: number | null;
  loadDayReport(date: string): Promise<void>;
  refresh(): Promise<void>;
  sendNow(): Promise<void>;
  cancel(debitId: number): Promise<void>;
  /** Staff record what they did about a debit refused after the fact. */
  resolve(debitId: number, resolution: StaffResolutionInput): Promise<void>;
  /** Reads what the kiosk knows of a debit of unknown outcome, the card's balance now included. */
  loadEvidence(debitId: number): Promise<void>;
  /** Staff's word on a debit of unknown outcome, with who says so (`not_applied`: sent again). */
  resolveUnknown(debitId: number, outcome: StaffOutcome['outcome'], by: string): Promise<void>;
  applyEvent(event: OutboxChanged): void;
}

export type OutboxStore = StoreApi<OutboxState>;

/** "Never sent": staff may still withdraw it, nothing can have reached the service. */
export function isCancellable(debit: DebitView): boolean {
  return debit.state === 'pending' && debit.attempts === 0;
}

export function createOutboxStore(api: KioskApi, now: () => number = Date.now): OutboxStore {
  return createStore<OutboxState>()((set, get) => {
    /** Full reads under way: what they read may be older than an event that arrives meanwhile. */
    let reading = 0;
    const refresh = coalesce(async () => {
      reading += 1;
      const [summary, open, attention] = await Promise.all([
        settle(api.getOutboxSummary()),
        settle(api.listDebits({ view: 'open', limit: OUTBOX_LIST_LIMIT })),
        settle(api.listDebits({ view: 'attention', limit: OUTBOX_LIST_LIMIT })),
      ]);
      reading -= 1;
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

    // After an event the lists follow its payload; only the counts and amounts are read again.
    const refreshSummary = coalesce(async () => {
      const summary = await settle(api.getOutboxSummary());
      set(
        summary.ok
          ? {
              summary: summary.value,
              summaryReadAt: now(),
              senderPaused: summary.value.sender?.paused ?? null,
            }
          : { error: summary.error },
      );
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
      evidence: {},
      evidenceLoading: null,
      loadDayReport: async (date) => {
        const reply = await settle(api.getDayReport({ date }));
        set(reply.ok ? { dayReport: reply.value, error: null } : { error: reply.error });
      },
      refresh,
      sendNow: () => act(() => settle(api.sendOutboxNow())),
      cancel: (debitId) => act(() => settle(api.cancelDebit({ debitId }))),
      resolve: (debitId, resolution) =>
        act(() => settle(api.resolveDebit({ debitId, resolution }))),
      loadEvidence: async (debitId) => {
        set({ evidenceLoading: debitId });
        const reply = await settle(api.getDebitEvidence({ debitId }));
        set((state) =>
          reply.ok
            ? {
                evidenceLoading: null,
                error: null,
                evidence: { ...state.evidence, [debitId]: reply.value },
              }
            : { evidenceLoading: null, error: reply.error },
        );
      },
      resolveUnknown: (debitId, outcome, by) =>
        act(async () => {
          const reply = await settle(api.resolveUnknownDebit({ debitId, outcome, by }));
          // Decided: what was shown for it is history, not evidence for a later decision.
          if (reply.ok) {
            set((state) => {
              const { [debitId]: _decided, ...rest } = state.evidence;
              return { evidence: rest };
            });
          }
          return reply;
        }),
      applyEvent: (event) => {
        if (event.type === 'sender-paused') {
          set({ senderPaused: { code: event.code, message: event.message } });
        } else if (event.type === 'sender-resumed') {
          set({ senderPaused: null });
        } else if ('debit' in event) {
          set((state) => placeDebit(state, event.debit));
        }
        // Counts and amounts are main's to compute: read them again rather than patch locally.
        // A full read under way may have read the lists before this event, and would put them
        // back as they were: it is made once more after it ends, as the coalescer does.
        void (reading > 0 ? refresh() : refreshSummary());
      },
    };
  });
}
