import { sendFirstCalls } from './ipc/first-calls.ts';
import './styles/kiosk.css';

// The page's entry, kept small: the first screen's requests leave at once, and their replies
// (the settings, then the products around the kiosk's shop) come back while the browser fetches,
// compiles and evaluates the app (React, the screens, every schema of the contract).
sendFirstCalls();
import('./main.tsx').catch((error: unknown) => {
  console.error('the kiosk UI could not be loaded', error);
});
