import type { z } from 'zod';

/** Every channel of the kiosk starts with this, so a host can refuse anything else outright. */
export const IPC_PREFIX = 'kiosk:';
/** Events pushed by main live under their own sub-prefix: a renderer never sends on them. */
export const IPC_EVENT_PREFIX = 'kiosk:event:';

export type MessageGroup =
  'catalog' | 'customers' | 'sales' | 'sav' | 'gift-cards' | 'printing' | 'status' | 'settings';

/** One message the renderer may send: its channel, and the schemas of what goes each way. */
export interface MessageSpec<Req extends z.ZodType = z.ZodType, Rep extends z.ZodType = z.ZodType> {
  readonly channel: `${typeof IPC_PREFIX}${string}`;
  readonly group: MessageGroup;
  readonly summary: string;
  readonly request: Req;
  readonly reply: Rep;
  /** Needs the administrator PIN in the request (`adminPin`); checked before the service runs. */
  readonly admin: boolean;
}

/** One event main pushes to the renderer. */
export interface EventSpec<Payload extends z.ZodType = z.ZodType> {
  readonly channel: `${typeof IPC_EVENT_PREFIX}${string}`;
  readonly summary: string;
  readonly payload: Payload;
}

export function defineMessage<Req extends z.ZodType, Rep extends z.ZodType>(
  name: string,
  spec: {
    readonly group: MessageGroup;
    readonly summary: string;
    readonly request: Req;
    readonly reply: Rep;
    readonly admin?: boolean;
  },
): MessageSpec<Req, Rep> {
  return { channel: `${IPC_PREFIX}${name}`, admin: false, ...spec };
}

export function defineEvent<Payload extends z.ZodType>(
  name: string,
  spec: { readonly summary: string; readonly payload: Payload },
): EventSpec<Payload> {
  return { channel: `${IPC_EVENT_PREFIX}${name}`, ...spec };
}
