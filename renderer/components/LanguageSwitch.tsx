import { supportedLocales } from '../i18n/locale.ts';
import { useI18n } from '../i18n/use-i18n.ts';
import { useStores } from '../stores/stores-context.tsx';
import { languageNames } from './language-names.ts';

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
          {languageNames[option]}
        </button>
      ))}
    </div>
  );
}
