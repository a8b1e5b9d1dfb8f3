import { z } from 'zod';
import { IsoTime } from './common.ts';
import { SyncKind, SyncProgress } from './catalog.ts';
import { ConnectivityState, DebitState, DebitView, OutboxConnectivity } from './gift-cards.ts';
import { defineEvent } from './message.ts';
import { PrintJob } from './printing.ts';
import { lazySchema } from './lazy-schema.ts';

/** Everything main pushes to the renderer, each with its schema (main checks before sending). */

export const ConnectivityChanged = lazySchema(() =>
  z.object({
    from: ConnectivityState,
    to: ConnectivityState,
    /** `health` for a probe, else the operation whose outcome moved the state. */
    source: z.string(),
    /** The error code behind the change, or `OK`. */
    detail: z.string(),
    at: IsoTime,
  }),
);
export type ConnectivityChanged = z.infer<typeof ConnectivityChanged>;

export const OutboxChanged = lazySchema(() =>
  z.discriminatedUnion('type', [
    z.object({ type: z.literal('accepted'), debit: DebitView, connectivity: OutboxConnectivity }),
    z.object({
      type: z.literal('state-changed'),
      debit: DebitView,
      from: DebitState,
      to: DebitState,
      /** A stable code: `ATTEMPT`, `APPLIED`, a service code, `RETRY_SCHEDULED`... */
      reason: z.string(),
    }),
    /** Held: an entry stays open and waits for a person (its card cannot be read to reconcile it...). */
    z.object({
      type: z.literal('held'),
      debit: DebitView,
      code: z.string(),
      message: z.string(),
    }),
    /** Credentials rejected: nothing is sent until an administrator fixes them. */
    z.object({ type: z.literal('sender-paused'), code: z.string(), message: z.string() }),
    z.object({ type: z.literal('sender-resumed') }),
    /** Whether this process is the one sending (kioskctl may hold the lease for a while). */
    z.object({ type: z.literal('sender-lease'), held: z.boolean() }),
  ]),
);
export type OutboxChanged = z.infer<typeof OutboxChanged>;

export const SyncEvent = lazySchema(() =>
  z.discriminatedUnion('type', [
    z.object({ type: z.literal('progress'), progress: SyncProgress }),
    z.object({
      type: z.literal('synced'),
      kind: SyncKind,
      /** Products in the mirror after a full sync; changes applied after a change-feed window. */
      products: z.number().int().nullable(),
      changes: z.number().int().nullable(),
      at: IsoTime,
    }),
    z.object({
      type: z.literal('failed'),
      code: z.string(),
      message: z.string(),
      missingScopes: z.array(z.string()).optional(),
    }),
  ]),
);
export type SyncEvent = z.infer<typeof SyncEvent>;

export const ipcEvents = {
  connectivityChanged: defineEvent('connectivity', {
    summary: 'The service became reachable, struggling or unreachable',
    payload: ConnectivityChanged,
  }),
  outboxChanged: defineEvent('outbox', {
    summary: 'A debit was accepted or changed state; the sender paused or resumed',
    payload: OutboxChanged,
  }),
  syncProgress: defineEvent('sync', {
    summary: 'Catalogue synchronisation progress, completion or failure',
    payload: SyncEvent,
  }),
  printJobChanged: defineEvent('print-job', {
    summary: 'A print job changed state',
    payload: PrintJob,
  }),
} as const;
