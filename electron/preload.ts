/**
 * The kiosk window's preload (sandboxed, context-isolated): exposes `window.kiosk` and nothing
 * else. It runs as one bundled CommonJS file (a sandboxed preload cannot load modules), built by
 * `node build/build-electron.ts`.
 */
import { contextBridge, ipcRenderer } from 'electron';
import { buildKioskBridge } from './host/kiosk-bridge.ts';

contextBridge.exposeInMainWorld('kiosk', buildKioskBridge(ipcRenderer));
