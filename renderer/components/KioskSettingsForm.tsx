import { useState, type FormEvent } from 'react';
import { KioskSettings, type KioskSettingsChanges } from '../../shared/ipc/status.ts';
import { supportedLocales, type Locale } from '../i18n/locale.ts';
import type { MessageKey } from '../i18n/catalogue.ts';
import { useI18n } from '../i18n/use-i18n.ts';
import { useKiosk } from '../hooks/use-store.ts';
import { Field } from './Field.tsx';
import { PrinterPicker } from './PrinterPicker.tsx';
import { ShopPicker } from './ShopPicker.tsx';

const languageNames: Readonly<Record<Locale, string>> = { fr: 'Français', en: 'English' };

const keyboardChoices: readonly (readonly [KioskSettings['onScreenKeyboard'], MessageKey])[] = [
  ['auto', 'setup.keyboardAuto'],
  ['on', 'setup.keyboardOn'],
  ['off', 'setup.keyboardOff'],
];

/** The kiosk's shop, default printer and language; only what changed is sent. */
export function KioskSettingsForm({
  settings,
  saving,
  onSave,
}: {
  readonly settings: KioskSettings;
  readonly saving: boolean;
  readonly onSave: (changes: KioskSettingsChanges) => void;
}) {
  const { t } = useI18n();
  const shops = useKiosk('availability', (s) => s.shops);
  const printers = useKiosk('printers', (s) => s.printers);
  const [shopId, setShopId] = useState(settings.shopId);
  const [printer, setPrinter] = useState(settings.printer);
  const [locale, setLocale] = useState<Locale>(settings.locale);
  const [idle, setIdle] = useState(String(settings.idleReturnSeconds));
  const idleSeconds = Number(idle);
  const idleValid = KioskSettings.shape.idleReturnSeconds.safeParse(idleSeconds).success;
  const [keyboard, setKeyboard] = useState(settings.onScreenKeyboard);
  const [gap, setGap] = useState(String(settings.scanMaxGapMs));
  const gapMs = Number(gap);
  const gapValid = KioskSettings.shape.scanMaxGapMs.safeParse(gapMs).success;

  const changes: KioskSettingsChanges = {
    ...(shopId !== settings.shopId ? { shopId } : {}),
    ...(printer !== settings.printer ? { printer } : {}),
    ...(locale !== settings.locale ? { locale } : {}),
    ...(idleValid && idleSeconds !== settings.idleReturnSeconds
      ? { idleReturnSeconds: idleSeconds }
      : {}),
    ...(gapValid && gapMs !== settings.scanMaxGapMs ? { scanMaxGapMs: gapMs } : {}),
    ...(keyboard !== settings.onScreenKeyboard ? { onScreenKeyboard: keyboard } : {}),
  };
  const changed = Object.keys(changes).length > 0;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (changed) onSave(changes);
  };

  return (
    <form className="setup-section" onSubmit={submit} aria-labelledby="settings-title">
      <h2 id="settings-title">{t('setup.kiosk')}</h2>
      {shops && (
        <ShopPicker
          label={t('setup.shop')}
          shops={shops}
          value={shopId}
          allLabel={t('setup.noShop')}
          onChange={setShopId}
        />
      )}
      {printers && (
        <PrinterPicker
          label={t('setup.printer')}
          printers={printers}
          value={printer}
          defaultLabel={t('setup.systemPrinter')}
          onChange={setPrinter}
        />
      )}
      <div className="field">
        <span className="field-label" id="setup-language">
          {t('setup.language')}
        </span>
        <div className="choice-row" role="group" aria-labelledby="setup-language">
          {supportedLocales.map((option) => (
            <button
              key={option}
              type="button"
              lang={option}
              className="button choice"
              aria-pressed={option === locale}
              onClick={() => setLocale(option)}
            >
              {languageNames[option]}
            </button>
          ))}
        </div>
      </div>
      <Field label={t('setup.idleReturn')}>
        {(id) => (
          <input
            id={id}
            className="input"
            type="number"
            inputMode="numeric"
            min={0}
            max={3600}
            aria-invalid={!idleValid}
            value={idle}
            onChange={(event) => setIdle(event.target.value)}
          />
        )}
      </Field>
      <div className="field">
        <span className="field-label" id="setup-keyboard">
          {t('setup.keyboard')}
        </span>
        <div className="choice-row" role="group" aria-labelledby="setup-keyboard">
          {keyboardChoices.map(([option, key]) => (
            <button
              key={option}
              type="button"
              className="button choice"
              aria-pressed={option === keyboard}
              onClick={() => setKeyboard(option)}
            >
              {t(key)}
            </button>
          ))}
        </div>
      </div>
      <Field label={t('setup.scanMaxGap')}>
        {(id) => (
          <input
            id={id}
            className="input"
            type="number"
            inputMode="numeric"
            min={5}
            max={500}
            aria-invalid={!gapValid}
            value={gap}
            onChange={(event) => setGap(event.target.value)}
          />
        )}
      </Field>
      <button
        type="submit"
        className="button button-primary"
        disabled={saving || !changed || !idleValid || !gapValid}
      >
        {t('setup.save')}
      </button>
    </form>
  );
}
