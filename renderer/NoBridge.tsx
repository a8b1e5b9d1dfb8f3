import type { I18n } from './i18n/use-i18n.ts';

/** Opened outside the kiosk (no preload, no browser host): say so instead of a blank page. */
export function NoBridge({ i18n }: { readonly i18n: I18n }) {
  return (
    <main className="no-bridge">
      <h1>{i18n.t('app.noBridge.title')}</h1>
      <p>{i18n.t('app.noBridge.detail')}</p>
    </main>
  );
}
