// An integrator's Electron main process (the README and docs/embedding.md): the kiosk window
// beside the host's own, on the retailer's Commerce API, with credentials from the OS keychain.
import { join } from 'node:path';
import * as electron from 'electron';
import {
  createKioskIntegration,
  createRedactingLogger,
  kioskSchemePrivileges,
} from 'commerce-kiosk';

const { app, protocol } = electron;

// Before 'ready', in the host's one call: its own schemes beside the kiosk's.
protocol.registerSchemesAsPrivileged([kioskSchemePrivileges()]);
// One kiosk per machine is the host's decision, not the module's.
if (!app.requestSingleInstanceLock()) app.quit();

const kiosk = await createKioskIntegration({
  electron,
  dataDir: join(app.getPath('userData'), 'kiosk'),
  baseUrl: 'https://commerce.example.com',
  vault: { order: ['keytar', 'safe-storage'] },
  shopId: process.env['KIOSK_SHOP_ID'] ?? 'shop-main-street',
  window: { kiosk: true },
  logger: createRedactingLogger({ sink: (line) => process.stderr.write(`${line}\n`) }),
});

app.on('window-all-closed', () => {
  if (kiosk.status === 'running') void kiosk.close().finally(() => app.quit());
});
