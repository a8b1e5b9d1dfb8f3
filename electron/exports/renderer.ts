/**
 * `commerce-kiosk/renderer`: the built kiosk UI, a folder the main process serves on the kiosk's
 * scheme, and the renderer-side contract for an integrator who writes screens of their own.
 *
 * In the page, the preload exposes `window.kiosk`; declare it once in your renderer:
 * ```ts
 * import type { KioskApi } from 'commerce-kiosk/renderer';
 * declare global { interface Window { readonly kiosk: KioskApi } }
 * ```
 */
export { kioskRendererDir } from '../host/asset-paths.ts';

export type {
  EventName,
  EventPayloadOf,
  IpcError,
  IpcEvents,
  IpcMessages,
  IpcResult,
  KioskApi,
  ListenerName,
  MessageMethod,
  MessageName,
  ReplyOf,
  RequestOf,
} from '../../shared/ipc/index.ts';
/** The contract's tables, as types: what `IpcMessages` and `IpcEvents` describe. */
export type { ipcEvents, ipcMessages } from '../../shared/ipc/index.ts';
