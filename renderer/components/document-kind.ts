import type { DocumentKind } from '../../shared/ipc/printing.ts';
import type { MessageKey } from '../i18n/catalogue.ts';

export const documentKindKeys: Readonly<Record<DocumentKind, MessageKey>> = {
  invoice: 'documents.invoice',
  'sav-slip': 'documents.savSlip',
  'day-report': 'documents.dayReport',
};
