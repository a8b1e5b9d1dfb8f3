import type { OtherField } from '../../shared/profile/index.ts';
import { useI18n } from '../i18n/use-i18n.ts';

/**
 * Every other value the service returned for a record, beyond what the kiosk reads through its
 * integration profile: staff see all it gave, folded away until asked for.
 */
export function OtherFields({ fields }: { readonly fields: readonly OtherField[] }) {
  const { t } = useI18n();
  if (fields.length === 0) return null;
  return (
    <details className="other-fields" data-testid="other-fields">
      <summary>{t('record.otherFields')}</summary>
      <dl className="facts">
        {fields.map((field) => (
          <div key={field.name}>
            <dt>{field.name}</dt>
            <dd>
              {field.value === null
                ? '—'
                : typeof field.value === 'boolean'
                  ? t(field.value ? 'record.yes' : 'record.no')
                  : String(field.value)}
            </dd>
          </div>
        ))}
      </dl>
    </details>
  );
}
