import { useId, useState, type FormEvent } from 'react';
import type { OutboxSummaryReply } from '../../shared/ipc/gift-cards.ts';
import {
  OfflineLimitsChanges,
  type KioskSettings,
  type KioskSettingsChanges,
} from '../../shared/ipc/status.ts';
import type { MessageKey } from '../i18n/catalogue.ts';
import { useI18n } from '../i18n/use-i18n.ts';
import { OfflineLimits } from './OfflineLimits.tsx';

type Limits = KioskSettings['offlineLimits'];
// The never-read card policy is not a number, and the settled debits' retention is no offline
// limit: both are set in the settings file, not in this form.
type LimitName = Exclude<keyof Limits, 'unknownCardOffline' | 'settledRetentionMs'>;

const HOUR_MS = 3_600_000;

interface LimitField {
  readonly name: LimitName;
  readonly label: MessageKey;
  readonly invalid: MessageKey;
  readonly kind: 'amount' | 'count' | 'hours';
}

const fields: readonly LimitField[] = [
  {
    name: 'maxOfflineDebitAmount',
    label: 'limits.fieldPerDebit',
    invalid: 'limits.invalidAmount',
    kind: 'amount',
  },
  {
    name: 'maxPendingAmountPerCard',
    label: 'limits.fieldPerCard',
    invalid: 'limits.invalidAmount',
    kind: 'amount',
  },
  {
    name: 'maxPendingAmount',
    label: 'limits.fieldPendingAmount',
    invalid: 'limits.invalidAmount',
    kind: 'amount',
  },
  {
    name: 'maxPendingCount',
    label: 'limits.fieldPendingCount',
    invalid: 'limits.invalidCount',
    kind: 'count',
  },
  { name: 'maxAgeMs', label: 'limits.fieldMaxAge', invalid: 'limits.invalidHours', kind: 'hours' },
];

/** The value as staff edit it: euros and a count as they are, the age in hours. */
function textOf(field: LimitField, limits: Limits): string {
  const value = limits[field.name];
  return String(field.kind === 'hours' ? Math.round((value / HOUR_MS) * 100) / 100 : value);
}

/** The typed text as the limit's value (a `,` is a decimal separator), or null when unreadable. */
function valueOf(field: LimitField, text: string): number | null {
  const plain = text.trim().replace(',', '.');
  const pattern = field.kind === 'count' ? /^\d+$/ : /^\d+(\.\d{1,2})?$/;
  if (!pattern.test(plain)) return null;
  const number = Number(plain);
  const value = field.kind === 'hours' ? Math.round(number * HOUR_MS) : number;
  const parsed = OfflineLimitsChanges.shape[field.name].safeParse(value);
  return parsed.success && parsed.data !== undefined ? parsed.data : null;
}

/**
 * The offline limits of gift-card debits: what is waiting against each (as main reports it),
 * and the limits themselves to change. Main applies a change to the outbox at once.
 */
export function OfflineLimitsForm({
  settings,
  summary,
  saving,
  onSave,
}: {
  readonly settings: KioskSettings;
  readonly summary: OutboxSummaryReply | null;
  readonly saving: boolean;
  readonly onSave: (changes: KioskSettingsChanges) => void;
}) {
  const { t } = useI18n();
  const baseId = useId();
  const current = settings.offlineLimits;
  const [texts, setTexts] = useState<Record<LimitName, string>>(
    () =>
      Object.fromEntries(fields.map((field) => [field.name, textOf(field, current)])) as Record<
        LimitName,
        string
      >,
  );

  // Only what staff edited counts (a limit the integrator set outside the setup's bounds stays
  // as it is until someone changes it).
  const values = fields.map((field) => {
    const edited = texts[field.name].trim() !== textOf(field, current);
    return { field, edited, value: edited ? valueOf(field, texts[field.name]) : null };
  });
  const invalid = values.some(({ edited, value }) => edited && value === null);
  const changes = Object.fromEntries(
    values
      .filter(({ field, value }) => value !== null && value !== current[field.name])
      .map(({ field, value }) => [field.name, value]),
  ) as Partial<Limits>;
  const changed = Object.keys(changes).length > 0;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!invalid && changed) onSave({ offlineLimits: changes });
  };

  return (
    <form
      className="setup-section"
      onSubmit={submit}
      aria-labelledby="limits-title"
      data-testid="limits-form"
    >
      <h2 id="limits-title">{t('limits.title')}</h2>
      {summary && <OfflineLimits summary={summary} />}
      {values.map(({ field, edited, value }) => {
        const id = `${baseId}-${field.name}`;
        const bad = edited && value === null;
        return (
          <div className="field" key={field.name}>
            <label htmlFor={id} className="field-label">
              {t(field.label)}
            </label>
            <input
              id={id}
              className="input"
              inputMode={field.kind === 'count' ? 'numeric' : 'decimal'}
              autoComplete="off"
              aria-invalid={bad}
              aria-describedby={bad ? `${id}-error` : undefined}
              value={texts[field.name]}
              onChange={(event) => setTexts({ ...texts, [field.name]: event.target.value })}
            />
            {bad && (
              <p id={`${id}-error`} className="note-warning">
                {t(field.invalid)}
              </p>
            )}
          </div>
        );
      })}
      <p className="hint">{t('setup.limitsLive')}</p>
      <button
        type="submit"
        className="button button-primary"
        disabled={saving || invalid || !changed}
      >
        {t('limits.save')}
      </button>
    </form>
  );
}
