import type { KioskApi } from '../../../shared/ipc/index.ts';
declare const k: KioskApi;
void k.getStatus();
void k.syncNow();
// @ts-expect-error text is required
void k.searchProducts();
void k.searchProducts({ text: 'x' });
const off = k.onOutboxChanged((e) => { if (e.type === 'accepted') void e.debit.amount; });
off();
