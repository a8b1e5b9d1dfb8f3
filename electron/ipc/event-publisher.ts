import {
  type EventName,
  type EventPayloadOf,
  eventNames,
  ipcEvents,
} from '../../shared/ipc/contract.ts';
import { type Logger, silentLogger } from '../logging/index.ts';

/** A source of contract events: the kiosk service root. */
export interface KioskEventSource {
  /** Returns the unsubscribe function. */
  subscribe(
    listener: <E extends EventName>(event: E, payload: EventPayloadOf<E>) => void,
  ): () => void;
}

/** Where a host delivers an event: `webContents.send`, an SSE stream... */
export type EventSink = (channel: string, payload: unknown) => void;

/**
 * Forwards the services' events to a host, each checked (and stripped of anything extra) by its
 * contract schema first: an event main would send outside the contract is dropped and logged.
 */
export function publishEvents(
  source: KioskEventSource,
  sink: EventSink,
  logger: Logger = silentLogger,
): () => void {
  return source.subscribe((event, payload) => {
    if (!eventNames.includes(event)) return;
    const spec = ipcEvents[event];
    const parsed = spec.payload.safeParse(payload);
    if (!parsed.success) {
      logger.error('ipc.event_broke_contract', {
        event,
        paths: parsed.error.issues.slice(0, 20).map((issue) => issue.path.join('.')),
      });
      return;
    }
    try {
      sink(spec.channel, parsed.data);
    } catch (error) {
      logger.warn('ipc.event_delivery_failed', { event, error });
    }
  });
}
