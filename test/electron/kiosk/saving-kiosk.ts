/**
 * The kiosk's settings store in a process of its own, crashed right after a save: it opens the
 * data directory, saves the shop `first`, then the shop `second`, and the moment the second save
 * resolves kills itself with SIGKILL (a power cut, or the OOM killer), before anything else runs.
 *
 *   node saving-kiosk.ts <dataDir> <first> <second>
 */
import { SettingsStore } from '../../../electron/kiosk/settings-store.ts';
import { defaultOfflineLimits } from '../../../electron/outbox/limits.ts';

const [dataDir, first, second] = process.argv.slice(2) as [string, string, string];
const store = SettingsStore.open(dataDir, {
  locale: 'fr',
  shopId: null,
  printer: null,
  paperSize: null,
  apiBaseUrl: null,
  offlineLimits: defaultOfflineLimits,
  profilePath: null,
  idleReturnSeconds: 90,
  scanMaxGapMs: 40,
  onScreenKeyboard: 'auto',
});
await store.update({ shopId: first });
await store.update({ shopId: second, locale: 'en' });
process.kill(process.pid, 'SIGKILL');
