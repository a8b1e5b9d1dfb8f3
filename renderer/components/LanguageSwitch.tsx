import { supportedLocales, type Locale } from '../i18n/locale.ts';
import { useI18n } from '../i18n/use-i18n.ts';
import { useStores } from '../stores/stores-context.tsx';

/** Each language named in itself, so staff find theirs whatever the screen is in. */
const names: Readonly<Record<Locale, string>> = { fr: 'Français', en: 'English' };

/** Staff switch the language of this session; the kiosk's default is in Setup. */
export function LanguageSwitch() {
  const { t, locale } = useI18n();
  const { locale: store } = useStores();
  return (
    <div className="status-item language-switch" role="group" aria-label={t('language.label')}>
      {supportedLocales.map((option) => (
        <button
          key={option}
          type="button"
          lang={option}
          className="button button-small"
          aria-pressed={option === locale}
          onClick={() => store.getState().setLocale(option)}
        >
          {names[option]}
        </button>
      ))}
    </div>
  );
}
