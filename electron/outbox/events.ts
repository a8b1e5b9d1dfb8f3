import type { DebitState, OutboxConnectivity } from '../../shared/ipc/gift-cards.ts';
import type { TypedEmitter } from '../foundation/index.ts';
import type { OutboxDebit } from './debit.ts';

/**
 * Every change the UI and the logs need to show, as data. Events are in-process: another process
 * on the same data directory (kioskctl) sees the rows, not the events.
 */
export type OutboxEvent =
  | {
      readonly type: 'accepted';
      readonly debit: OutboxDebit;
      /** What the connectivity monitor said when the debit was accepted. */
      readonly connectivity: ConnectivityStatus;
    }
  | {
      readonly type: 'state-changed';
      readonly debit: OutboxDebit;
      readonly from: DebitState;
      readonly to: DebitState;
      /** Why, as a stable code: `ATTEMPT`, `APPLIED`, a service code, `RETRY_SCHEDULED`, ... */
      readonly reason: string;
    }
  | {
      /** Held: a row stays open and waits for a person (its card cannot be read to reconcile it...). */
      readonly type: 'held';
      readonly debit: OutboxDebit;
      readonly code: string;
      readonly message: string;
    }
  | {
      /**
       * Nothing is sent until an administrator fixes the credentials, the account's scopes or the
       * integration profile, and `resume()` is called.
       */
      readonly type: 'sender-paused';
      readonly reason: PauseReason;
      readonly needsAdministrator: true;
      readonly code: string;
      readonly message: string;
    }
  | { readonly type: 'sender-resumed' }
  | { readonly type: 'sender-lease'; readonly held: boolean; readonly owner: string };

/**
 * `credentials-rejected`: the account is refused. `request-refused` (400) and `scope-missing` (403):
 * the service refused the debit request itself, its shape (the integration profile) or the account's
 * scopes; neither is the customer's doing, and nothing was debited.
 */
export type PauseReason = 'credentials-rejected' | 'request-refused' | 'scope-missing';

/** The connectivity monitor's verdict as the outbox reads it: `unknown` without a monitor. */
export type ConnectivityStatus = OutboxConnectivity;

/** The outbox's events: one, `change`, carrying what changed (`OutboxEvent`). */
// A type, not an interface: the emitter's event map must be indexable.
export type OutboxEventMap = { readonly change: OutboxEvent };

export type OutboxEvents = TypedEmitter<OutboxEventMap>;
