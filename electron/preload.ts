/**
 * The kiosk window's preload (sandboxed, context-isolated): exposes `window.kiosk` and nothing
 * else. It runs as one bundled CommonJS file (a sandboxed preload cannot load modules), built by
 * `npm run build` (build/build.ts) as `dist/electron/preload.cjs`, stamped with the package version.
 */
import { contextBridge, ipcRenderer } from 'electron';
import { buildKioskBridge } from './host/kiosk-bridge.ts';

contextBridge.exposeInMainWorld('kiosk', buildKioskBridge(ipcRenderer));
