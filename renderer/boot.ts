import { sendFirstCalls } from './ipc/first-calls.ts';
import './styles/kiosk.css';

// The page's entry: the first screen's requests leave at once, and the app (React, the screens,
// the contract's schemas) is evaluated right behind them, once this module's body has run (one
// classic script, see vite.config.ts: the import only orders the evaluation). Waiting for the
// search to leave first (it follows the settings' reply) left the page's one thread idle for
// that round trip; evaluated now, the app is ready about when the replies are, and the search's
// reply is not needed before then.
void sendFirstCalls().catch((error: unknown) => {
  // Only a head start is lost: the app sends its requests itself.
  console.error('the first requests could not be sent', error);
});
import('./main.tsx').catch((error: unknown) => {
  console.error('the kiosk UI could not be loaded', error);
});
// A page's first Intl formatter costs it 16 to 40 ms (ICU's data); those after it cost almost
// nothing. Made now, that is paid while the first requests travel, rather than in the first
// render, which formats the products' prices.
new Intl.NumberFormat().format(0);
