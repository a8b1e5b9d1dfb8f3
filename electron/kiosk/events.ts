import { type EventName, type EventPayloadOf, eventNames } from '../../shared/ipc/contract.ts';
import type { CommerceApiClient } from '../api/index.ts';
import type { CatalogSyncService } from '../catalog/index.ts';
import { TypedEmitter } from '../foundation/index.ts';
import { type KioskEventSource, safeMessage } from '../ipc/index.ts';
import type { Logger } from '../logging/index.ts';
import type { Outbox } from '../outbox/index.ts';
import type { PrintQueue } from '../printing/index.ts';
import { outboxEventView, printJobView } from './views.ts';

type KioskEventMap = { [E in EventName]: EventPayloadOf<E> };

export interface KioskEventsInput {
  readonly client: Pick<CommerceApiClient, 'connectivity'>;
  readonly outbox: Pick<Outbox, 'events' | 'knownCard'>;
  readonly catalogSync: Pick<CatalogSyncService, 'events'>;
  readonly printQueue: Pick<PrintQueue, 'events'> | undefined;
  readonly logger: Logger;
}

export interface KioskEvents {
  /** What the hosts publish to the renderer. */
  readonly source: KioskEventSource;
  /** Stops listening to the services and drops every subscriber. */
  close(): void;
}

/**
 * The services' own events as the contract's events, fanned out to every subscriber (a window,
 * an SSE stream). A subscriber that throws is logged and the others still get the event.
 */
export function connectKioskEvents(input: KioskEventsInput): KioskEvents {
  const { client, outbox, catalogSync, printQueue, logger } = input;
  const events = new TypedEmitter<KioskEventMap>((error) =>
    logger.warn('kiosk.event_listener_failed', { error }),
  );
  const emit = <E extends EventName>(event: E, payload: EventPayloadOf<E>) =>
    events.emit(event, payload as KioskEventMap[E]);
  const unsubscribes: (() => void)[] = [
    client.connectivity.on('change', (change) => emit('connectivityChanged', { ...change })),
    outbox.events.on('change', (event) => emit('outboxChanged', outboxEventView(event, outbox))),
    catalogSync.events.on('progress', (progress) =>
      emit('syncProgress', { type: 'progress', progress: { ...progress } }),
    ),
    catalogSync.events.on('synced', (outcome) =>
      emit('syncProgress', {
        type: 'synced',
        kind: outcome.kind,
        products: outcome.fullSync?.products ?? null,
        changes: outcome.window?.changes ?? null,
        at: new Date().toISOString(),
      }),
    ),
    catalogSync.events.on('failed', (failure) =>
      emit('syncProgress', {
        type: 'failed',
        code: failure.code,
        message: safeMessage(failure.message),
        ...(failure.missingScopes === undefined
          ? {}
          : { missingScopes: [...failure.missingScopes] }),
      }),
    ),
  ];
  if (printQueue !== undefined) {
    unsubscribes.push(
      printQueue.events.on('job-changed', (job) => emit('printJobChanged', printJobView(job))),
    );
  }

  return {
    source: {
      // The hosts' port takes every event in one listener: one subscription for each.
      subscribe(listener) {
        const offs = eventNames.map((event) =>
          events.on(event, (payload) => listener(event, payload)),
        );
        return () => {
          for (const off of offs) off();
        };
      },
    },
    close() {
      for (const unsubscribe of unsubscribes) unsubscribe();
      events.clear();
    },
  };
}
