import { fileURLToPath } from 'node:url';

/*
 * Where the package's built assets are, relative to this module in `dist/electron/host/`: the
 * preload beside `dist/electron/`, the renderer in `dist/renderer/`. From the source tree these
 * point at files that do not exist; the asset version check then says so.
 */

/** The absolute path of the bundled preload (`dist/electron/preload.cjs`). */
export function kioskPreloadPath(): string {
  return fileURLToPath(new URL('../preload.cjs', import.meta.url));
}

/** The absolute path of the built renderer folder (`dist/renderer`). */
export function kioskRendererDir(): string {
  return fileURLToPath(new URL('../../renderer/', import.meta.url));
}
