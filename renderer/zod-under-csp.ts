import { z } from 'zod';

/**
 * Zod compiles a faster object parser with `new Function`, and probes first whether the page
 * allows it. The kiosk's CSP never does (`script-src 'self'`, no 'unsafe-eval'), so the probe
 * only costs: each refusal is a `securitypolicyviolation`, for which Chromium captures the
 * script's stack and source positions, tens of milliseconds of the first screen's one thread.
 * Jitless is the parser zod falls back to here anyway, without the probe. Imported before
 * anything parses a reply.
 */
z.config({ jitless: true });
