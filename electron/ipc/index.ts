/** Binds the shared IPC contract to the kiosk services; no Electron, so both hosts share it. */
export { safeMessage, toIpcError } from './error-mapping.ts';
export { type EventSink, type KioskEventSource, publishEvents } from './event-publisher.ts';
export { IpcFailure } from './ipc-failure.ts';
export {
  type AdminGuard,
  type IpcRouter,
  type DeepReadonly,
  type HandlerReply,
  type KioskHandlers,
  type RouterOptions,
  createIpcRouter,
} from './router.ts';
export { type SenderInfo, type SenderVerdict, checkSender, originOf } from './sender-check.ts';
