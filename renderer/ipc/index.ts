/** The renderer's way to the main process: `kioskApi()` and the contract's types. */
export { kioskApi, kioskTransport } from './kiosk-client.ts';
export { createLoopbackClient, type LoopbackClientOptions } from './loopback-client.ts';
export { KioskIpcError, unwrap } from './unwrap.ts';
export type { IpcError, IpcResult, KioskApi } from '../../shared/ipc/index.ts';
