import { sendFirstCalls } from './ipc/first-calls.ts';
import './styles/kiosk.css';

// The page's entry, kept small: the first screen's requests leave at once. The app (React, the
// screens, every schema of the contract) is fetched and compiled meanwhile (a modulepreload in
// index.html) and evaluated once the products around the kiosk's shop are asked for: that
// evaluation holds the page's only thread, which would otherwise keep the settings' reply from
// sending the search, and the search's round trip now overlaps it.
void sendFirstCalls()
  .then(() => import('./main.tsx'))
  .catch((error: unknown) => {
    console.error('the kiosk UI could not be loaded', error);
  });
