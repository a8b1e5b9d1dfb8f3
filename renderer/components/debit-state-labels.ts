import type { DebitState } from '../../shared/ipc/gift-cards.ts';
import type { MessageKey } from '../i18n/catalogue.ts';

export const debitStateKeys: Readonly<Record<DebitState, MessageKey>> = {
  pending: 'debitState.pending',
  sending: 'debitState.sending',
  applied: 'debitState.applied',
  refused: 'debitState.refused',
  failed: 'debitState.failed',
  expired: 'debitState.expired',
  cancelled: 'debitState.cancelled',
};
