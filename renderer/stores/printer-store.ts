import { createStore, type StoreApi } from 'zustand/vanilla';
import type { KioskApi } from '../../shared/ipc/contract.ts';
import type { IpcError } from '../../shared/ipc/errors.ts';
import type { ListPrintersReply, PrintJob, PrinterInfo } from '../../shared/ipc/printing.ts';
import { settle } from './call.ts';

export interface PrinterState {
  readonly printers: ListPrintersReply | null;
  /** Jobs by id, as main last reported them. */
  readonly jobs: Readonly<Record<string, PrintJob>>;
  readonly error: IpcError | null;
  load(): Promise<void>;
  loadJobs(): Promise<void>;
  applyJob(job: PrintJob): void;
}

export type PrinterStore = StoreApi<PrinterState>;

/** The printer jobs go to when none is named, as main reports it. */
export function defaultPrinterOf(reply: ListPrintersReply | null): PrinterInfo | null {
  if (!reply) return null;
  return reply.printers.find((printer) => printer.name === reply.defaultPrinter) ?? null;
}

export function createPrinterStore(api: KioskApi): PrinterStore {
  return createStore<PrinterState>()((set) => ({
    printers: null,
    jobs: {},
    error: null,
    load: async () => {
      const reply = await settle(api.listPrinters());
      if (reply.ok) set({ printers: reply.value, error: null });
      // An old list would keep saying "ready" about a print service that has stopped.
      else set({ printers: null, error: reply.error });
    },
    loadJobs: async () => {
      const reply = await settle(api.listPrintJobs());
      if (!reply.ok) return;
      set((state) => {
        const jobs = { ...state.jobs };
        for (const job of reply.value.jobs) jobs[job.id] = job;
        return { jobs };
      });
    },
    applyJob: (job) =>
      set((state) => {
        const known = state.jobs[job.id];
        // Events and replies may cross: never let an older report replace a newer one.
        if (known && known.updatedAt > job.updatedAt) return {};
        return { jobs: { ...state.jobs, [job.id]: job } };
      }),
  }));
}
