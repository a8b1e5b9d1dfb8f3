/**
 * `commerce-kiosk/preload`: the kiosk window's bundled preload (`commerce-kiosk/preload.cjs`), one
 * CommonJS file stamped with this package's version, and where it is. `createKioskIntegration`
 * uses it by default and refuses a preload of another version.
 */
export { kioskPreloadPath } from '../host/asset-paths.ts';
