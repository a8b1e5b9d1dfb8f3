import type { z } from 'zod';
import { useState, type FormEvent } from 'react';
import { KioskSettings, type KioskSettingsChanges } from '../../shared/ipc/status.ts';
import { supportedLocales, type Locale } from '../i18n/locale.ts';
import type { MessageKey } from '../i18n/catalogue.ts';
import { useI18n } from '../i18n/use-i18n.ts';
import { useKiosk } from '../hooks/use-store.ts';
import { Field } from './Field.tsx';
import { ChoiceRow } from './ChoiceRow.tsx';
import { PrinterPicker } from './PrinterPicker.tsx';
import { ShopPicker } from './ShopPicker.tsx';

const languageNames: Readonly<Record<Locale, string>> = { fr: 'Français', en: 'English' };

type KeyboardChoice = KioskSettings['onScreenKeyboard'];
const keyboardChoices: readonly KeyboardChoice[] = ['auto', 'on', 'off'];
const keyboardLabels: Readonly<Record<KeyboardChoice, MessageKey>> = {
  auto: 'setup.keyboardAuto',
  on: 'setup.keyboardOn',
  off: 'setup.keyboardOff',
};

/** A whole number as typed, and what it is once read: kept as text so staff see what they typed. */
interface NumberEntry {
  readonly text: string;
  readonly set: (text: string) => void;
  readonly value: number;
  readonly valid: boolean;
  /** Valid, and not what is saved. */
  readonly changed: boolean;
}

function useNumberEntry(saved: number, rule: z.ZodType<number>): NumberEntry {
  const [text, set] = useState(String(saved));
  const value = Number(text);
  const valid = rule.safeParse(value).success;
  return { text, set, value, valid, changed: valid && value !== saved };
}

function WholeNumberField({
  label,
  entry,
  min,
  max,
}: {
  readonly label: string;
  readonly entry: NumberEntry;
  readonly min: number;
  readonly max: number;
}) {
  return (
    <Field label={label}>
      {(id) => (
        <input
          id={id}
          className="input"
          type="number"
          inputMode="numeric"
          min={min}
          max={max}
          aria-invalid={!entry.valid}
          value={entry.text}
          onChange={(event) => entry.set(event.target.value)}
        />
      )}
    </Field>
  );
}

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
  const { t, locale: session } = useI18n();
  const shops = useKiosk('availability', (s) => s.shops);
  const printers = useKiosk('printers', (s) => s.printers);
  const [shopId, setShopId] = useState(settings.shopId);
  const [printer, setPrinter] = useState(settings.printer);
  const [locale, setLocale] = useState<Locale>(settings.locale);
  const idle = useNumberEntry(settings.idleReturnSeconds, KioskSettings.shape.idleReturnSeconds);
  const [keyboard, setKeyboard] = useState(settings.onScreenKeyboard);
  const gap = useNumberEntry(settings.scanMaxGapMs, KioskSettings.shape.scanMaxGapMs);

  const changes: KioskSettingsChanges = {
    ...(shopId !== settings.shopId ? { shopId } : {}),
    ...(printer !== settings.printer ? { printer } : {}),
    ...(locale !== settings.locale ? { locale } : {}),
    ...(idle.changed ? { idleReturnSeconds: idle.value } : {}),
    ...(gap.changed ? { scanMaxGapMs: gap.value } : {}),
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
        {/* The status bar switches this session only: said, so the two never look at odds. */}
        {session !== settings.locale && (
          <p className="hint" data-testid="session-language">
            {t('setup.sessionLanguage', { language: languageNames[session] })}
          </p>
        )}
      </div>
      <WholeNumberField label={t('setup.idleReturn')} entry={idle} min={0} max={3_600} />
      <div className="field">
        <span className="field-label">{t('setup.keyboard')}</span>
        <ChoiceRow
          label={t('setup.keyboard')}
          options={keyboardChoices}
          value={keyboard}
          onChoose={setKeyboard}
          labelOf={(option) => t(keyboardLabels[option])}
        />
      </div>
      <WholeNumberField label={t('setup.scanMaxGap')} entry={gap} min={5} max={500} />
      <button
        type="submit"
        className="button button-primary"
        disabled={saving || !changed || !idle.valid || !gap.valid}
      >
        {t('setup.save')}
      </button>
    </form>
  );
}
