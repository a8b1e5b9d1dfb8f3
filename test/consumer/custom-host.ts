// A custom host (docs/embedding.md, "A custom host"): the kiosk's services served to a plain browser
// on 127.0.0.1, with no Electron.
import {
  createKioskServices,
  createVaultChain,
  startBrowserHost,
  vaultCredentials,
} from 'commerce-kiosk';
import { kioskRendererDir } from 'commerce-kiosk/renderer';

const services = await createKioskServices({
  dataDir: '/var/lib/commerce-kiosk',
  api: { baseUrl: 'https://commerce.example.com', demo: false },
  credentials: vaultCredentials(
    createVaultChain({ provisionedFile: '/etc/commerce-kiosk/credentials.json' }),
    { defaultOrigin: 'https://commerce.example.com' },
  ),
  host: 'browser',
  adminPin: '4821',
});
const host = await startBrowserHost({ services, rendererDir: kioskRendererDir() });
services.start();
console.log(host.url); // http://127.0.0.1:<port>/#token=<per-run token>
