/**
 * How long the counter waits for the service, a customer in front of it: a card look-up or a debit
 * shows what the kiosk knows (the card's last read, the debit stored offline) once this has passed
 * without an answer, and the request goes on in the background. The background work (catalogue
 * sync, the outbox's retries) keeps the client's own, longer timeouts. Issue 37 (1, 4): a
 * counter waited ~21 s per card with SYNs dropped and over 90 s on a hung service.
 */
export const COUNTER_WAIT_MS = 1_500;

/**
 * Most time a debit's connection of its own may take to open. Below `COUNTER_WAIT_MS`, so that
 * with SYNs dropped an attempt has ended (surely unsent) before the counter's wait does, and a
 * debit over the offline limits is withdrawn rather than held for a person.
 */
export const COUNTER_CONNECT_MS = 1_000;
